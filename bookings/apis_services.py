"""A booking's extras after the sale: the bags its supplier sells for it now, and adding
them (Duffel's order available services and order services; docs/extras.md)."""

from collections.abc import Mapping

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers

from api.apis import ApiView, envelope
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from api.serializers import FirstProblemSerializer
from bookings.apis import BalancePaymentInputSerializer
from bookings.apis_extras import services_field
from bookings.payloads import booking_object
from bookings.selectors import booking_get
from bookings.serializers import BookingSerializer
from bookings.services.extras import booking_services_add, booking_services_available
from flights.apis_extras import BAG_EXAMPLE, AvailableServiceSerializer


class BookingAvailableServicesApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("GET",)  # waits on the flight supplier

    @extend_schema(
        operation_id="bookings_available_services",
        tags=["Bookings"],
        examples=[OpenApiExample("An extra checked bag", value=[BAG_EXAMPLE], response_only=True)],
        responses={
            200: enveloped(
                AvailableServiceSerializer(many=True), name="BookingAvailableServiceList"
            ),
            404: error_response("Booking not found"),
            409: error_response("Not ticketed, departed, or its outcome unknown"),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response("Supplier error"),
        },
    )
    def get(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        return envelope(booking_services_available(booking=booking))


class BookingServicesApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("POST",)  # waits on the flight supplier

    @extend_schema_serializer(component_name="BookingServicesInput")
    class InputSerializer(FirstProblemSerializer):
        add_services = services_field(
            "Bags from the booking's available_services: [{id, quantity}]."
        )
        payment = BalancePaymentInputSerializer(
            help_text="Exactly the services' total, in the booking's currency (total_currency)."
        )

        def to_internal_value(self, data) -> dict:
            body = data if isinstance(data, Mapping) else {}
            add_services = self.checked("add_services", body)
            if not add_services:
                raise serializers.ValidationError({"add_services": "At least one service."})
            return {"add_services": add_services, "payment": self.checked("payment", body)}

    @extend_schema(
        operation_id="bookings_services_add",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        examples=[
            OpenApiExample(
                "One extra bag",
                value={
                    "add_services": [{"id": BAG_EXAMPLE["id"], "quantity": 1}],
                    "payment": {"type": "balance", "amount": "155.00", "currency": "BRL"},
                },
                request_only=True,
            )
        ],
        responses={
            200: enveloped(BookingSerializer, name="BookingServicesEnvelope"),
            400: error_response("Payment amount mismatch, or a service not sold or too many"),
            404: error_response("Booking not found"),
            409: error_response("Not ticketed, departed, outcome unknown, or extras in progress"),
            422: error_response(
                "Insufficient balance, wallet_restricted (in debt after a reversed recharge)"
            ),
            502: error_response(
                "Supplier error; services_outcome_unknown: the answer was lost, the wallet was "
                "debited once, the reconcile job settles it"
            ),
        },
    )
    def post(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        booking = booking_services_add(booking=booking, **serializer.validated_data)
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking.id
        )
        return envelope(booking_object(booking))
