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

DECIMAL = r"^[0-9]+\.[0-9]{2}$"  # ASCII digits
CURRENCY = r"^[A-Z]{3}$"


def money(help_text: str, **kwargs) -> serializers.RegexField:
    return serializers.RegexField(DECIMAL, help_text=f"{help_text} Decimal string.", **kwargs)


def currency(help_text: str = "ISO 4217 currency code.", **kwargs) -> serializers.RegexField:
    return serializers.RegexField(CURRENCY, help_text=help_text, **kwargs)


# --- Responses ---------------------------------------------------------------------------------


class BookingSegmentPassengerSerializer(serializers.Serializer):
    passenger_id = serializers.CharField()
    cabin_class = serializers.ChoiceField(choices=CabinClass.values)
    seat = serializers.CharField(allow_null=True)
    baggages = BaggageSerializer(many=True)


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
    currency = currency()
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


class RefundSerializer(serializers.Serializer):
    amount = money("Refunded, in the booking's original currency (0.00 for a pending hold).")
    currency = currency()
    penalty_amount = serializers.CharField(allow_null=True, help_text="The fare's refund fee.")
    penalty_currency = serializers.CharField(allow_null=True)


class CancelResultSerializer(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.ChoiceField(choices=[Booking.Status.CANCELLED.value])
    refund = RefundSerializer(
        help_text="The wallet is credited the refund converted at the rate locked at booking "
        "(a full refund credits exactly what was debited)."
    )
