from django.urls import path

from bookings import apis, apis_reports, apis_services, change_apis, supplier_webhooks

urlpatterns = [
    path("bookings", apis.BookingCreateApi.as_view(), name="bookings"),
    path("bookings/<str:booking_id>", apis.BookingDetailApi.as_view(), name="booking-detail"),
    path(
        "bookings/<str:booking_id>/confirm",
        apis.BookingConfirmApi.as_view(),
        name="booking-confirm",
    ),
    path(
        "bookings/<str:booking_id>/cancellations",
        apis.BookingCancellationsApi.as_view(),
        name="booking-cancellations",
    ),
    path(
        "bookings/<str:booking_id>/cancellations/<str:cancellation_id>/confirm",
        apis.BookingCancellationConfirmApi.as_view(),
        name="booking-cancellation-confirm",
    ),
    path(
        "bookings/<str:booking_id>/airline_changes",
        apis.BookingAirlineChangesApi.as_view(),
        name="booking-airline-changes",
    ),
    path(
        "bookings/<str:booking_id>/airline_changes/<str:change_id>/accept",
        apis.BookingAirlineChangeAcceptApi.as_view(),
        name="booking-airline-change-accept",
    ),
    path(
        "bookings/<str:booking_id>/change_requests",
        change_apis.BookingChangeRequestsApi.as_view(),
        name="booking-change-requests",
    ),
    path(
        "bookings/<str:booking_id>/changes",
        change_apis.BookingChangesApi.as_view(),
        name="booking-changes",
    ),
    # Duffel's webhook events (signed; each only makes us read the order's changes back).
    path(
        "suppliers/duffel/webhooks",
        supplier_webhooks.duffel_webhook,
        name="duffel-webhooks",
    ),
    path(
        "bookings/<str:booking_id>/available_services",
        apis_services.BookingAvailableServicesApi.as_view(),
        name="booking-available-services",
    ),
    path(
        "bookings/<str:booking_id>/services",
        apis_services.BookingServicesApi.as_view(),
        name="booking-services",
    ),
    path("reports/sales", apis_reports.SalesReportApi.as_view(), name="reports-sales"),
    path("reports/nfse", apis_reports.NfseExportApi.as_view(), name="reports-nfse"),
]
