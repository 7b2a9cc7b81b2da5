"""The change API (docs/after-sale.md "Changing flights"): `POST /bookings/:id/change_requests`
asks the supplier for change offers; `POST /bookings/:id/changes` confirms one."""

from collections.abc import Mapping

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers

from api.apis import ApiView, envelope
from api.fields import IsoDateField, OneOfField, PatternField, TextField
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from api.serializers import FirstProblemListSerializer, FirstProblemSerializer
from bookings.change_serializers import SIGNED_DECIMAL, ChangeRequestSerializer
from bookings.inputs import PaymentInput, PaymentType
from bookings.models import Booking
from bookings.selectors import booking_get
from bookings.serializers import BookingSerializer, currency
from bookings.services import (
    booking_change_confirm,
    booking_change_request,
    booking_object,
    change_request_object,
)
from core.money import q
from flights import airports
from flights.models import CabinClass
from flights.suppliers.order_changes import ChangeSlice

MAX_CHANGED_SLICES = 4


def _own_booking(request, booking_id) -> Booking:
    return booking_get(
        team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
    )


class SliceToRemoveSerializer(FirstProblemSerializer):
    slice_id = TextField(max_length=40, help_text="sli_… of one of the booking's slices.")

    class Meta:
        list_serializer_class = FirstProblemListSerializer

    def validate_slice_id(self, slice_id: str) -> str:
        if slice_id not in self.context["slice_ids"]:
            raise serializers.ValidationError("Not a slice of this booking.")
        return slice_id


class SliceToAddSerializer(FirstProblemSerializer):
    origin = PatternField(r"^[A-Z]{3}$", message="A 3-letter IATA airport code, e.g. GRU.")
    destination = PatternField(r"^[A-Z]{3}$", message="A 3-letter IATA airport code, e.g. LIS.")
    departure_date = IsoDateField(help_text="YYYY-MM-DD, local at the origin; not in the past.")
    cabin_class = OneOfField(CabinClass)

    class Meta:
        list_serializer_class = FirstProblemListSerializer

    def validate_origin(self, code: str) -> str:
        if airports.airport(code) is None:
            raise serializers.ValidationError("Unknown airport.")
        return code

    validate_destination = validate_origin

    def to_internal_value(self, data) -> ChangeSlice:
        values = super().to_internal_value(data)
        if values["origin"] == values["destination"]:
            raise serializers.ValidationError({"destination": "Must differ from the origin."})
        return ChangeSlice(**values)


@extend_schema_serializer(component_name="ChangeRequestSlicesInput")
class ChangeSlicesInputSerializer(FirstProblemSerializer):
    remove = SliceToRemoveSerializer(  # type: ignore[call-arg]  # ListSerializer kwargs
        many=True, min_length=1, max_length=MAX_CHANGED_SLICES
    )
    add = SliceToAddSerializer(  # type: ignore[call-arg]  # ListSerializer kwargs
        many=True, min_length=1, max_length=MAX_CHANGED_SLICES
    )

    def to_internal_value(self, data) -> dict:
        values = super().to_internal_value(data)
        for name in ("remove", "add"):
            if not values[name]:
                raise serializers.ValidationError({name: "At least one slice."})
        remove = [item["slice_id"] for item in values["remove"]]
        if len(set(remove)) != len(remove):
            raise serializers.ValidationError({"remove": "A slice given twice."})
        return {"remove": remove, "add": values["add"]}


class SignedAmountField(serializers.RegexField):
    """A change's payment amount: the offer's change_total_amount, negative for a refund."""

    def __init__(self, **kwargs):
        super().__init__(SIGNED_DECIMAL.replace("[0-9]{2}", "[0-9]{1,2}"), **kwargs)

    def run_validation(self, data=serializers.empty):
        import re
        from decimal import Decimal

        if not isinstance(data, str) or not re.fullmatch(r"-?[0-9]{1,12}(\.[0-9]{1,2})?", data):
            raise serializers.ValidationError('A decimal string, e.g. "112.50" or "-80.00".')
        return q(Decimal(data))


@extend_schema_serializer(component_name="ChangePaymentInput")
class ChangePaymentInputSerializer(FirstProblemSerializer):
    type = OneOfField(PaymentType, help_text="Paid from (or refunded to) the wallet.")
    amount = SignedAmountField(
        help_text="Exactly the change offer's change_total_amount (the airline's currency), "
        "negative for a refund. Decimal string."
    )
    currency = currency("Exactly the change offer's change_total_currency.")

    def to_internal_value(self, data) -> PaymentInput:
        if not isinstance(data, Mapping) or data.get("type") != PaymentType.BALANCE:
            raise serializers.ValidationError(
                f"Must be {{type: {PaymentType.BALANCE}, amount, currency}}."
            )
        amount = self.checked("amount", data)
        given = data.get("currency")
        return PaymentInput(amount=amount, currency=given if isinstance(given, str) else None)


CHANGE_OFFER_EXAMPLE: dict[str, object] = {
    "id": "oco_01m84t9a2k5r7w3e8q1z6y4x0v",
    "slices": {
        "add": [
            {
                "id": "sli_01m84t9a2k7c3nq0d8x5v2b6jh",
                "origin": {
                    "iata_code": "GRU",
                    "name": "Guarulhos International Airport",
                    "city_name": "São Paulo",
                    "iata_city_code": "SAO",
                    "time_zone": "America/Sao_Paulo",
                },
                "destination": {
                    "iata_code": "LIS",
                    "name": "Humberto Delgado Airport",
                    "city_name": "Lisbon",
                    "iata_city_code": "LIS",
                    "time_zone": "Europe/Lisbon",
                },
                "duration": "PT10H5M",
                "fare_brand_name": "Classic",
                "segments": [],
            }
        ],
        "remove": [],
    },
    "change_total_amount": "112.50",
    "change_total_currency": "EUR",
    "penalty_amount": "75.00",
    "penalty_currency": "EUR",
    "new_total_amount": "1266.35",
    "new_total_currency": "EUR",
    "refund_to": None,
    "expires_at": "2027-02-10T09:45:12Z",
    "change_cost_brl": "691.65",
    "client_change_amount": "762.23",
    "client_currency": "BRL",
    "exchange_rate_used": 6.148,
    "fx_reference_rate": 6.148,
    "fx_margin_percent": "0.00",
}
REFUND_OFFER_EXAMPLE = {
    **CHANGE_OFFER_EXAMPLE,
    "id": "oco_01m84t9a2m1f6h8j2k4l7n9p3r",
    "change_total_amount": "-80.00",
    "new_total_amount": "1073.85",
    "refund_to": "original_form_of_payment",
    "change_cost_brl": "-491.84",
    "client_change_amount": "-461.84",
}
CHANGE_REQUEST_EXAMPLE = {
    "id": "ocr_01m84t9a2h3d5f7g9j1k3m5n7p",
    "booking_id": "ord_01m84s0sqr83c1tmwt646fcae0",
    "slices": {
        "remove": [{"slice_id": "sli_01m84s0sqr9a2b3c4d5e6f7g8h"}],
        "add": [
            {
                "origin": "GRU",
                "destination": "LIS",
                "departure_date": "2027-03-12",
                "cabin_class": "economy",
            }
        ],
    },
    "change_offers": [REFUND_OFFER_EXAMPLE, CHANGE_OFFER_EXAMPLE],
    "created_at": "2027-02-10T09:30:12Z",
}


class BookingChangeRequestsApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("POST",)  # waits on the flight supplier

    @extend_schema_serializer(component_name="ChangeRequestInput")
    class InputSerializer(FirstProblemSerializer):
        slices = ChangeSlicesInputSerializer(
            help_text="The booking's slices to remove (by id) and the slices to fly instead."
        )

    @extend_schema(
        operation_id="bookings_change_requests_create",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        examples=[
            OpenApiExample(
                "Move the outbound to another day",
                value={"slices": CHANGE_REQUEST_EXAMPLE["slices"]},
                request_only=True,
            ),
            OpenApiExample(
                "Two offers: a refund and a difference to pay",
                value={"success": True, "data": CHANGE_REQUEST_EXAMPLE},
                response_only=True,
                status_codes=["201"],
            ),
        ],
        responses={
            201: enveloped(ChangeRequestSerializer, name="ChangeRequestEnvelope"),
            400: error_response("Invalid request parameters"),
            404: error_response("Booking not found"),
            409: error_response(
                "booking_not_changeable (the fare's conditions, not ticketed, the airline "
                "refuses), booking_outcome_unknown, a change or cancellation in progress"
            ),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response("Supplier error"),
        },
    )
    def post(self, request, booking_id):
        booking = _own_booking(request, booking_id)
        serializer = self.InputSerializer(
            data=request.data, context={"slice_ids": {s["id"] for s in booking.slices}}
        )
        serializer.is_valid(raise_exception=True)
        slices = serializer.validated_data["slices"]
        change_request = booking_change_request(
            booking=booking, remove=slices["remove"], add=slices["add"]
        )
        return envelope(change_request_object(change_request), status=201)


class BookingChangesApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("POST",)  # waits on the flight supplier

    @extend_schema_serializer(component_name="ChangeConfirmInput")
    class InputSerializer(FirstProblemSerializer):
        change_offer_id = TextField(max_length=40, help_text="oco_… of a change request.")
        payment = ChangePaymentInputSerializer()

    @extend_schema(
        operation_id="bookings_changes_create",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        examples=[
            OpenApiExample(
                "Pay the difference from the wallet",
                value={
                    "change_offer_id": CHANGE_OFFER_EXAMPLE["id"],
                    "payment": {"type": "balance", "amount": "112.50", "currency": "EUR"},
                },
                request_only=True,
            ),
            OpenApiExample(
                "A refund of the difference",
                value={
                    "change_offer_id": REFUND_OFFER_EXAMPLE["id"],
                    "payment": {"type": "balance", "amount": "-80.00", "currency": "EUR"},
                },
                request_only=True,
            ),
        ],
        responses={
            200: enveloped(BookingSerializer, name="BookingChangeEnvelope"),
            400: error_response("Invalid request parameters, Payment amount mismatch"),
            404: error_response("Booking or change offer not found"),
            409: error_response(
                "change_offer_expired, booking_not_changeable, change_in_progress, "
                "booking_outcome_unknown"
            ),
            422: error_response(
                "Insufficient balance, wallet_restricted (in debt after a reversed recharge: "
                "a change that costs something), No flight supplier connected (live mode)"
            ),
            502: error_response(
                "Supplier error; change_outcome_unknown: the answer was lost, the reconcile job "
                "settles it (nothing is debited twice)"
            ),
        },
    )
    def post(self, request, booking_id):
        booking = _own_booking(request, booking_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        booking = booking_change_confirm(
            booking=booking,
            change_offer_id=serializer.validated_data["change_offer_id"],
            payment=serializer.validated_data["payment"],
        )
        return envelope(booking_object(_own_booking(request, booking.id)))
