"""OpenAPI descriptions of the booking flow: every request and response body typed down to the
leaves, so that a generated client works with models, not dictionaries. The validation itself
is in bookings/validation.py (which gives the spec's exact messages); these say the same rules.
"""

from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from bookings.models import Booking, BookingPassenger
from flights.models import CabinClass, PassengerType
from flights.schemas import (
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


# --- Requests ----------------------------------------------------------------------------------


class IdentityDocumentInput(serializers.Serializer):
    type = serializers.ChoiceField(choices=BookingPassenger.DocumentType.values)
    unique_identifier = serializers.CharField(
        max_length=50, help_text="The document's number, as printed on it."
    )
    issuing_country_code = serializers.RegexField(
        r"^[A-Z]{2}$", help_text="ISO 3166-1 alpha-2 code of the issuing country."
    )
    expires_on = serializers.DateField(
        help_text="YYYY-MM-DD; a passport must be valid after the last arrival."
    )


class LoyaltyAccountInput(serializers.Serializer):
    airline_iata_code = serializers.RegexField(r"^[A-Z0-9]{2}$", help_text="IATA airline code.")
    account_number = serializers.CharField(max_length=50)


class PassengerInput(serializers.Serializer):
    id = serializers.CharField(help_text="pas_… of the offer's passenger; each exactly once.")
    given_name = serializers.CharField(max_length=100, help_text="As on the identity document.")
    family_name = serializers.CharField(max_length=100, help_text="As on the identity document.")
    gender = serializers.ChoiceField(choices=BookingPassenger.Gender.values)
    title = serializers.ChoiceField(choices=BookingPassenger.Title.values, required=False)
    born_on = serializers.DateField(
        help_text="YYYY-MM-DD. Age on the first departure: adult 12+, child 2-11, infant 0-1."
    )
    email = serializers.EmailField(max_length=254)
    phone_number = serializers.RegexField(
        r"^\+[0-9]{8,15}$", help_text="Country code and ASCII digits: +5511987654321."
    )
    identity_documents = IdentityDocumentInput(  # type: ignore[call-arg]  # ListSerializer kwargs
        many=True,
        required=False,
        max_length=10,
        help_text="Required (a passport) for every passenger of an international itinerary.",
    )
    loyalty_programme_accounts = LoyaltyAccountInput(  # type: ignore[call-arg]  # as above
        many=True, required=False, max_length=10
    )
    infant_passenger_id = serializers.CharField(
        required=False,
        help_text="pas_… of the infant_without_seat this adult travels with: required, once "
        "per infant, on exactly one adult.",
    )


class BalancePaymentInput(serializers.Serializer):
    type = serializers.ChoiceField(choices=["balance"], help_text="Paid from the wallet.")
    amount = money("Exactly the offer's total_amount (the airline currency, not BRL).")
    currency = currency("Exactly the offer's total_currency.")


@extend_schema_field(
    {
        "type": "object",
        # Keys of 1 to 40 characters: OpenAPI 3.0 has no propertyNames (docs/fuzzing.md).
        "maxProperties": 50,
        "additionalProperties": {"type": "string", "maxLength": 500},
    }
)
class MetadataField(serializers.DictField):
    """bookings.validation.validate_metadata checks it."""


class BookingCreateInput(serializers.Serializer):
    offerId = serializers.CharField(max_length=40, help_text="off_… from a search, not expired.")
    type = serializers.ChoiceField(
        choices=Booking.Type.values,
        help_text="hold: pending, paid later with confirm; instant: paid from the wallet now.",
    )
    passengers = PassengerInput(many=True, help_text="Every passenger of the offer, once.")
    payments = BalancePaymentInput(  # type: ignore[call-arg]  # ListSerializer kwargs
        many=True,
        required=False,
        min_length=1,
        max_length=1,
        help_text="Required for instant (exactly one); ignored for hold.",
    )
    metadata = MetadataField(
        child=serializers.CharField(max_length=500),
        required=False,
        help_text="Free-form: at most 50 keys of at most 40 characters, values of at most 500. "
        "`client_id` (cli_…) links the booking to that client.",
    )


class BookingConfirmInput(serializers.Serializer):
    payment = BalancePaymentInput(help_text="The offer's original total and currency.")


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


# --- Examples (from the sandbox) --------------------------------------------------------------

PASSENGER_EXAMPLE = {
    "id": "pas_01m84s0sqr83c1tmwt646fcae0",
    "given_name": "Ana",
    "family_name": "Souza",
    "gender": "f",
    "title": "ms",
    "born_on": "1990-05-01",
    "email": "ana@example.com",
    "phone_number": "+5511987654321",
    "identity_documents": [
        {
            "type": "passport",
            "unique_identifier": "FX123456",
            "issuing_country_code": "BR",
            "expires_on": "2031-01-01",
        }
    ],
}
CREATE_EXAMPLES = [
    OpenApiExample(
        "Hold",
        request_only=True,
        value={
            "offerId": "off_01m84s0sqrb4q6v9tw4e2g7m1x",
            "type": "hold",
            "passengers": [PASSENGER_EXAMPLE],
        },
    ),
    OpenApiExample(
        "Instant",
        request_only=True,
        value={
            "offerId": "off_01m84s0sqrb4q6v9tw4e2g7m1x",
            "type": "instant",
            "passengers": [PASSENGER_EXAMPLE],
            "payments": [{"type": "balance", "amount": "1153.85", "currency": "EUR"}],
            "metadata": {"client_reference": "PED-2291"},
        },
    ),
]
