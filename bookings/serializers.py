"""What the booking API answers, typed down to the leaves for the OpenAPI schema, so that a
generated client works with models, not dictionaries (bookings/payloads.py builds the answers;
the bodies the API takes are its views' InputSerializers, in bookings/apis.py)."""

from rest_framework import serializers

from bookings.models import Booking, BookingPassenger
from flights.models import CabinClass, PassengerType
from flights.serializers import (
    BaggageSerializer,
    CarrierSerializer,
    ConditionsSerializer,
    PlaceSerializer,
    SegmentSerializer,
)
from flights.services_extras import SERVICE_TYPES

DECIMAL = r"^[0-9]+\.[0-9]{2}$"  # ASCII digits
CURRENCY = r"^[A-Z]{3}$"


def money(help_text: str, **kwargs) -> serializers.RegexField:
    return serializers.RegexField(DECIMAL, help_text=f"{help_text} Decimal string.", **kwargs)


def currency(help_text: str = "ISO 4217 currency code.", **kwargs) -> serializers.RegexField:
    return serializers.RegexField(CURRENCY, help_text=help_text, **kwargs)


# --- Responses ---------------------------------------------------------------------------------


class SeatSerializer(serializers.Serializer):
    designator = serializers.CharField(help_text="Row and column, e.g. 12C.")
    name = serializers.CharField(help_text="The airline's name for it (Extra legroom), or empty.")
    disclosures = serializers.ListField(
        child=serializers.CharField(), help_text="The airline's terms for this seat."
    )


class BookingSegmentPassengerSerializer(serializers.Serializer):
    passenger_id = serializers.CharField()
    cabin_class = serializers.ChoiceField(choices=CabinClass.values)
    seat = SeatSerializer(allow_null=True, help_text="The seat bought for this segment, or null.")
    baggages = BaggageSerializer(many=True, help_text="Included bags plus the bags bought.")


class BookingServiceSerializer(serializers.Serializer):
    """An extra bought (Duffel's order `services`), with its BRL cost and price."""

    id = serializers.CharField(help_text="The supplier's service id it was bought by.")
    type = serializers.ChoiceField(choices=SERVICE_TYPES)
    passenger_ids = serializers.ListField(child=serializers.CharField())
    segment_ids = serializers.ListField(child=serializers.CharField())
    quantity = serializers.IntegerField()
    total_amount = money("Price of them all, in total_currency.")
    total_currency = currency()
    base_cost_brl = money("What the wallet was debited for them.")
    client_amount = money("The customer's price: base_cost_brl + the team's markup.")
    client_currency = serializers.CharField(default="BRL")
    metadata = serializers.DictField(help_text="A bag's weight and size; a seat's designator.")


class BookingSegmentSerializer(SegmentSerializer):
    passengers = BookingSegmentPassengerSerializer(many=True)  # type: ignore[assignment]  # own field


class BookingSliceSerializer(serializers.Serializer):
    id = serializers.CharField()
    origin = PlaceSerializer()
    destination = PlaceSerializer()
    duration = serializers.CharField(help_text="ISO 8601 duration.")
    fare_brand_name = serializers.CharField()
    segments = BookingSegmentSerializer(many=True)


class BookingPassengerSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="pas_…")
    type = serializers.ChoiceField(choices=PassengerType.values)
    given_name = serializers.CharField()
    family_name = serializers.CharField()
    gender = serializers.ChoiceField(choices=BookingPassenger.Gender.values)
    born_on = serializers.DateField()
    email = serializers.EmailField()
    phone_number = serializers.CharField()


class DocumentSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="electronic_ticket")
    unique_identifier = serializers.CharField(help_text="The e-ticket number.")
    passenger_id = serializers.CharField(help_text="pas_… the ticket is for.")


class PaymentStatusSerializer(serializers.Serializer):
    awaiting_payment = serializers.BooleanField(help_text="true while a hold is pending.")
    payment_required_by = serializers.DateTimeField(allow_null=True)
    price_guarantee_expires_at = serializers.DateTimeField(allow_null=True)


class BookingSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="ord_…")
    booking_reference = serializers.CharField(
        help_text="The airline's locator; empty until the supplier confirms the booking."
    )
    status = serializers.ChoiceField(choices=Booking.Status.values)
    type = serializers.ChoiceField(choices=Booking.Type.values)
    live_mode = serializers.BooleanField()
    synced_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    total_amount = money("Original total, airline currency.")
    total_currency = currency()
    tax_amount = money("Taxes, airline currency.")
    tax_currency = currency()
    base_amount = money("Base fare, airline currency.")
    base_currency = currency()
    owner = CarrierSerializer()
    slices = BookingSliceSerializer(many=True)
    passengers = BookingPassengerSerializer(many=True)
    documents = DocumentSerializer(many=True, help_text="Issued tickets; empty until ticketed.")
    conditions = ConditionsSerializer(help_text="Amounts in the original currency.")
    payment_status = PaymentStatusSerializer()
    services = BookingServiceSerializer(
        many=True, help_text="Extras bought (bags, seats); their prices are in total_amount."
    )
    metadata = serializers.DictField(help_text="The request's metadata, echoed.")


class BookingClientSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="cli_…")
    full_name = serializers.CharField()
    email = serializers.EmailField()


class FlightSummarySerializer(serializers.Serializer):
    origin = serializers.CharField(help_text="IATA airport of the first departure.")
    destination = serializers.CharField(help_text="IATA airport of the first slice's arrival.")
    departure_date = serializers.DateField(help_text="Local date of the first departure.")
    airline = serializers.CharField(help_text="The main airline's name.")


class BookingListItemSerializer(serializers.Serializer):
    id = serializers.CharField()
    booking_reference = serializers.CharField()
    status = serializers.ChoiceField(choices=Booking.Status.values)
    total_amount = money("Original total.")
    total_currency = currency("ISO 4217 code of total_amount (`currency` before 2026-11-28).")
    created_at = serializers.DateTimeField()
    client = BookingClientSerializer()
    flight_summary = FlightSummarySerializer()


class ConfirmedDocumentSerializer(serializers.Serializer):
    type = serializers.CharField()
    unique_identifier = serializers.CharField()


class BookingConfirmedSerializer(serializers.Serializer):
    id = serializers.CharField()
    booking_reference = serializers.CharField()
    status = serializers.ChoiceField(
        choices=Booking.Status.values, help_text="confirmed, or ticketed if issuance already ran."
    )
    documents = ConfirmedDocumentSerializer(many=True)


REFUND_TO = (
    "balance",
    "original_form_of_payment",
    "arc_bsp_cash",
    "card",
    "voucher",
    "airline_credits",
    "awaiting_payment",
)
REFUND_TO_HELP = (
    "Where the supplier sends the refund (Duffel's refund_to). balance, "
    "original_form_of_payment, arc_bsp_cash and card are cash: the wallet is credited; voucher "
    "and airline_credits are not cash: the wallet is credited 0.00 and the credits are listed "
    "in airline_credits; awaiting_payment: a hold never paid."
)


class AirlineCreditSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The supplier's id of the credit (Duffel's acd_…).")
    credit_amount = money("The credit's value.")
    credit_currency = currency()
    credit_code = serializers.CharField(
        allow_null=True, help_text="What the airline redeems the credit with."
    )
    credit_name = serializers.CharField(help_text="e.g. Future Flight Credit.")
    type = serializers.CharField(help_text="eticket or mco.")
    passenger_id = serializers.CharField(
        allow_null=True, help_text="The supplier's passenger the credit is for, if one."
    )
    issued_on = serializers.DateField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)


class RefundSerializer(serializers.Serializer):
    amount = money(
        "Refunded by the supplier (its confirmed refund), in the booking's original currency "
        "(0.00 for a pending hold)."
    )
    currency = currency()
    penalty_amount = serializers.CharField(
        allow_null=True, help_text="What the supplier kept: total_amount minus amount."
    )
    penalty_currency = serializers.CharField(allow_null=True)
    refund_to = serializers.ChoiceField(choices=REFUND_TO, help_text=REFUND_TO_HELP)
    airline_credits = AirlineCreditSerializer(many=True)
    wallet_credit_amount = money(
        "What the wallet was credited: the cash refund at the booking's exchange rate, never "
        "more than the booking debited; 0.00 for a voucher or airline credits."
    )
    wallet_credit_currency = serializers.RegexField(CURRENCY, help_text="Always BRL.")
    transaction_id = serializers.CharField(
        allow_null=True, help_text="The wallet's credit (txn_…), null when nothing was credited."
    )
    cancellation_id = serializers.CharField(help_text="The Cancellation (bcn_…) confirmed.")


class CancellationSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="bcn_…")
    booking_id = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["quoted", "confirming", "unknown", "confirmed", "expired"],
        help_text="quoted: confirm it before expires_at; confirming: being confirmed; unknown: "
        "the supplier's answer to the confirmation was lost, nothing credited yet, we are "
        "checking with it; confirmed: cancelled and settled; expired: ask for a new quote.",
    )
    refund_amount = money(
        "The supplier's refund: quoted, then the confirmed one (which wins). Null when the "
        "supplier could not tell.",
        allow_null=True,
    )
    refund_currency = currency()
    refund_to = serializers.ChoiceField(choices=REFUND_TO, help_text=REFUND_TO_HELP)
    penalty_amount = money(
        "What the supplier keeps: the booking's total_amount minus refund_amount (null for a "
        "booking not paid).",
        allow_null=True,
    )
    penalty_currency = currency(allow_null=True)
    airline_credits = AirlineCreditSerializer(many=True)
    quoted_refund_amount = money("The quote's refund, as first quoted.", allow_null=True)
    wallet_credit_amount = money(
        "What the wallet will be (quoted) or was (confirmed) credited: the cash refund at the "
        "booking's exchange rate, never more than the booking debited."
    )
    wallet_credit_currency = serializers.RegexField(CURRENCY, help_text="Always BRL.")
    transaction_id = serializers.CharField(
        allow_null=True, help_text="The wallet's credit (txn_…) once confirmed; null otherwise."
    )
    expires_at = serializers.DateTimeField(
        allow_null=True, help_text="Confirm before this instant."
    )
    confirmed_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class CancelResultSerializer(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.ChoiceField(choices=[Booking.Status.CANCELLED.value])
    refund = RefundSerializer(
        help_text="The wallet is credited the refund converted at the rate locked at booking "
        "(a full refund credits exactly what was debited)."
    )


class AirlineChangeSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="aic_…")
    booking_id = serializers.CharField()
    added = BookingSliceSerializer(
        many=True,
        help_text="The slices as the airline changed them (the booking's slice shape; times "
        "are the airports' local times). Accepting the change makes them the booking's.",
    )
    removed = BookingSliceSerializer(many=True, help_text="The slices as they were booked.")
    available_actions = serializers.ListField(
        child=serializers.ChoiceField(choices=["accept", "cancel", "change", "update"]),
        help_text="What the airline allows (Duffel's names): accept "
        "(POST …/airline_changes/:id/accept), cancel (the booking's cancellations, the "
        "airline's involuntary refund); change and update are done with the airline.",
    )
    action_taken = serializers.ChoiceField(
        choices=["accepted", "cancelled", "changed"],
        allow_null=True,
        help_text="Null while unanswered.",
    )
    action_taken_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField(help_text="When the change was detected.")
