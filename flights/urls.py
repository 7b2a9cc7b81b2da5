from django.urls import path

from flights import apis

urlpatterns = [
    path("flights/search", apis.FlightSearchApi.as_view(), name="flights-search"),
]
