from django.urls import path

from flights import apis, apis_extras

urlpatterns = [
    path("flights/search", apis.FlightSearchApi.as_view(), name="flights-search"),
    path(
        "offers/<str:offer_id>/available_services",
        apis_extras.OfferAvailableServicesApi.as_view(),
        name="offer-available-services",
    ),
    path(
        "offers/<str:offer_id>/seat_maps",
        apis_extras.OfferSeatMapsApi.as_view(),
        name="offer-seat-maps",
    ),
]
