from django.urls import path

from agencies import apis

urlpatterns = [
    path("clients", apis.ClientsApi.as_view(), name="clients"),
    path("clients/<str:client_id>", apis.ClientDetailApi.as_view(), name="client-detail"),
]
