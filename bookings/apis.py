from collections.abc import Mapping
from datetime import date
from typing import cast

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from agencies.models import Client
from agencies.selectors import client_get
from api.apis import ApiView, envelope
from api.fields import (
    PHONE_MESSAGE,
    PHONE_PATTERN,
    EmailTextField,
    IsoDateField,
    MetadataField,
    OneOfField,
    PatternField,
    QueryChoicesField,
    QueryDateField,
    TextField,
)
from api.pagination import PaginationFilterSerializer, PaginationSerializer, paginate
from api.schema import IDEMPOTENCY_KEY_PARAMETER, enveloped, error_response
from api.serializers import FirstProblemListSerializer, FirstProblemSerializer, problem_at
from bookings.apis_extras import services_field
from bookings.errors import InvalidPassengerData, PassportRequired
from bookings.inputs import (
    IdentityDocument,
    LoyaltyAccount,
    PassengerInput,
    PaymentInput,
    PaymentType,
)
from bookings.models import Booking, BookingPassenger
from bookings.selectors import booking_get, booking_list
from bookings.serializers import (
    DECIMAL,
    AirlineChangeSerializer,
    BookingConfirmedSerializer,
    BookingListItemSerializer,
    BookingSerializer,
    CancellationSerializer,
    CancelResultSerializer,
    currency,
)
from bookings.services import (
    airline_change_object,
    booking_airline_change_accept,
    booking_airline_change_list,
    booking_cancel,
    booking_cancellation_confirm,
    booking_cancellation_list,
    booking_cancellation_quote,
    booking_confirm,
    booking_create,
    booking_object,
    booking_offer_get,
    cancellation_object,
)
from core.metadata import MAX_METADATA_KEY_LENGTH, MAX_METADATA_KEYS, MAX_METADATA_VALUE_LENGTH
from core.money import fmt, parse_amount
from core.tax_ids import cpf_compact
from core.timestamps import iso_utc
from flights import airports
from flights.apis import MAX_PASSENGERS
from flights.models import PASSENGER_AGES, PassengerType
from flights.selectors import BookableOffer

# Lengths are those of the columns the values are stored in (BookingPassenger, and the client
# made from the lead passenger); see docs/decisions.md "Input limits".
MAX_NAME_LENGTH = BookingPassenger._meta.get_field("given_name").max_length  # and family_name
MAX_EMAIL_LENGTH = BookingPassenger._meta.get_field("email").max_length  # RFC 5321's limit
MAX_DOCUMENTS = 10
MAX_LOYALTY_ACCOUNTS = 10
MAX_IDENTIFIER_LENGTH = 50  # a document's unique_identifier, a loyalty account_number


def list_item(booking) -> dict:
    first = booking.slices[0]["segments"][0]
    last = booking.slices[0]["segments"][-1]
    return {
        "id": booking.id,
        "booking_reference": booking.booking_reference,
        "status": booking.status,
        "total_amount": fmt(booking.total_amount),
        # `currency` before 2026-11-28 (api/versions.py renders it so for older versions).
        "total_currency": booking.total_currency,
        "created_at": iso_utc(booking.created_at),
        "client": {
            "id": booking.client.id,
            "full_name": booking.client.full_name,
            "email": booking.client.email,
        },
        "flight_summary": {
            "origin": first["origin"]["iata_code"],
            "destination": last["destination"]["iata_code"],
            "departure_date": first["departing_at"][:10],
            "airline": booking.owner["name"],
        },
    }


# --- The body of POST /bookings ----------------------------------------------------------------


def age_on(born_on: date, day: date) -> int:
    return day.year - born_on.year - ((day.month, day.day) < (born_on.month, born_on.day))


def _ages_in_words() -> str:
    """`adult 12+, child 2-11, infant 0-1`, from PASSENGER_AGES."""
    words = []
    for kind, (low, high) in PASSENGER_AGES.items():
        name = kind.split("_")[0]
        words.append(f"{name} {low}+" if kind == PassengerType.ADULT else f"{name} {low}-{high}")
    return ", ".join(words)


class IdentityDocumentInputSerializer(FirstProblemSerializer):
    type = OneOfField(BookingPassenger.DocumentType)
    unique_identifier = TextField(
        max_length=MAX_IDENTIFIER_LENGTH, help_text="The document's number, as printed on it."
    )
    issuing_country_code = PatternField(
        r"^[A-Z]{2}$",
        message="ISO 3166-1 alpha-2, e.g. BR.",
        help_text="ISO 3166-1 alpha-2 code of the issuing country.",
    )
    expires_on = IsoDateField(
        help_text="YYYY-MM-DD; a passport must be valid after the last arrival."
    )

    class Meta:
        list_serializer_class = FirstProblemListSerializer

    def to_internal_value(self, data) -> IdentityDocument:
        document = super().to_internal_value(data)
        if (
            document["type"] == BookingPassenger.DocumentType.TAX_ID
            and document["issuing_country_code"] == "BR"
        ):
            document["unique_identifier"] = cpf_checked(document["unique_identifier"])
        return {
            "type": document["type"].value,
            "unique_identifier": document["unique_identifier"],
            "issuing_country_code": document["issuing_country_code"],
            "expires_on": document["expires_on"].isoformat(),
        }


def cpf_checked(number: str) -> str:
    """A Brazilian tax id (CPF) with valid check digits, as its 11 digits (`123.456.789-09`
    is read as `12345678909`)."""
    digits = cpf_compact(number)
    if digits is None:
        raise serializers.ValidationError(
            {
                "unique_identifier": "Not a valid CPF (a BR tax_id): 11 digits with valid "
                "check digits."
            }
        )
    return digits


class LoyaltyAccountInputSerializer(FirstProblemSerializer):
    airline_iata_code = PatternField(
        r"^[A-Z0-9]{2}$", message="A 2-character IATA airline code.", help_text="IATA airline code."
    )
    account_number = TextField(max_length=MAX_IDENTIFIER_LENGTH)

    class Meta:
        list_serializer_class = FirstProblemListSerializer

    def to_internal_value(self, data) -> LoyaltyAccount:
        account = super().to_internal_value(data)
        return {
            "airline_iata_code": account["airline_iata_code"],
            "account_number": account["account_number"],
        }


class OptionalPassengerIdField(serializers.CharField):
    """A passenger id, or nothing (absent, null or any falsy value: "")."""

    def run_validation(self, data=serializers.empty):
        if data is serializers.empty or not data:
            return ""
        if not isinstance(data, str):
            raise serializers.ValidationError("Must be a passenger id.")
        return data


class PassengerListSerializer(FirstProblemListSerializer):
    """Each of the offer's passengers exactly once (`context["offer"]`, set by the body's
    serializer), and each infant_without_seat carried by one adult."""

    def run_validation(self, data=serializers.empty) -> list[PassengerInput]:
        types = self.context["passenger_types"]
        if not isinstance(data, list) or len(data) != len(types):
            raise serializers.ValidationError(
                f"Give exactly the offer's {len(types)} passenger(s): {', '.join(types)}."
            )
        passengers, seen = [], set()
        for index, item in enumerate(data):
            if not isinstance(item, dict):
                raise problem_at(index, message="Must be an object.")
            pid = item.get("id")
            if not isinstance(pid, str) or pid not in types:
                raise problem_at(index, "id", message="Not a passenger of this offer.")
            if pid in seen:
                raise problem_at(index, "id", message="Passenger given twice.")
            seen.add(pid)
            passengers.append(self.checked_item(index, item))
        self._check_infants(passengers)
        return passengers

    @staticmethod
    def _check_infants(passengers: list[PassengerInput]) -> None:
        by_id = {p.id: p for p in passengers}
        carried: dict[str, str] = {}
        for index, passenger in enumerate(passengers):
            infant_id = passenger.infant_passenger_id
            if not infant_id:
                continue
            if passenger.type != PassengerType.ADULT:
                problem = "Only an adult can carry an infant."
            elif (
                infant_id not in by_id or by_id[infant_id].type != PassengerType.INFANT_WITHOUT_SEAT
            ):
                problem = "Must be the id of an infant_without_seat of this booking."
            elif infant_id in carried:
                problem = "This infant is already with another adult."
            else:
                carried[infant_id] = passenger.id
                continue
            raise problem_at(index, "infant_passenger_id", message=problem)
        for index, passenger in enumerate(passengers):
            if passenger.type == PassengerType.INFANT_WITHOUT_SEAT and passenger.id not in carried:
                raise problem_at(
                    index,
                    "id",
                    message="Each infant_without_seat travels with one adult: set that adult's "
                    "infant_passenger_id.",
                )


class PassengerInputSerializer(FirstProblemSerializer):
    id = serializers.CharField(help_text="pas_… of the offer's passenger; each exactly once.")
    given_name = TextField(max_length=MAX_NAME_LENGTH, help_text="As on the identity document.")
    family_name = TextField(max_length=MAX_NAME_LENGTH, help_text="As on the identity document.")
    gender = OneOfField(BookingPassenger.Gender)
    title = OneOfField(BookingPassenger.Title, blank=True)
    born_on = IsoDateField(help_text=f"YYYY-MM-DD. Age on the first departure: {_ages_in_words()}.")
    email = EmailTextField(max_length=MAX_EMAIL_LENGTH)
    phone_number = PatternField(
        PHONE_PATTERN,
        message=PHONE_MESSAGE,
        help_text="Country code and ASCII digits: +5511987654321.",
    )
    identity_documents = IdentityDocumentInputSerializer(  # type: ignore[call-arg]  # list kwargs
        many=True,
        required=False,
        max_length=MAX_DOCUMENTS,
        help_text="Required (a passport) for every passenger of an international itinerary, "
        "and one of the offer's allowed_passenger_identity_document_types for every passenger "
        "when its passenger_identity_documents_required is true. A tax_id issued in BR is a CPF "
        "with valid check digits. Documents of types the airline does not take are kept, not "
        "sent.",
    )
    loyalty_programme_accounts = LoyaltyAccountInputSerializer(  # type: ignore[call-arg]  # same
        many=True,
        required=False,
        max_length=MAX_LOYALTY_ACCOUNTS,
        help_text="Frequent-flyer accounts, sent with the passenger in the airline's order.",
    )
    infant_passenger_id = OptionalPassengerIdField(
        required=False,
        help_text="pas_… of the infant_without_seat this adult travels with: required, once "
        "per infant, on exactly one adult.",
    )

    check_order = (
        "given_name",
        "family_name",
        "gender",
        "title",
        "born_on",
        "email",
        "phone_number",
        "infant_passenger_id",
        "identity_documents",
        "loyalty_programme_accounts",
    )

    class Meta:
        list_serializer_class = PassengerListSerializer

    # The type of the passenger being checked (the offer's, for its id), for its age.
    passenger_type: PassengerType

    def to_internal_value(self, data) -> PassengerInput:
        self.passenger_type = self.context["passenger_types"][data["id"]]
        passenger = super().to_internal_value(data)
        return PassengerInput(id=data["id"], type=self.passenger_type, **passenger)

    def validate_born_on(self, born_on: date) -> date:
        """Of the age of the passenger's type on the first departure."""
        kind = self.passenger_type
        departure_date = self.context["departure_date"]
        low, high = PASSENGER_AGES[kind]
        age = age_on(born_on, departure_date)
        if born_on > departure_date or not low <= age <= high:
            raise serializers.ValidationError(
                f"A {kind} is {low} to {high} years old on the departure date "
                f"({departure_date}); this one is {age}."
            )
        return born_on


class PaymentAmountField(serializers.RegexField):
    """A payment's amount. The schema states the wire format (DECIMAL); the amount is read as
    core.money.parse_amount reads amounts (up to two decimals), and must equal the total."""

    def __init__(self, **kwargs):
        super().__init__(DECIMAL, **kwargs)

    def run_validation(self, data=serializers.empty):
        amount = parse_amount(None if data is serializers.empty else data)
        if amount is None:
            raise serializers.ValidationError('A decimal string, e.g. "1153.85".')
        return amount


class BalancePaymentInputSerializer(FirstProblemSerializer):
    type = OneOfField(PaymentType, help_text="Paid from the wallet.")
    amount = PaymentAmountField(
        help_text="Exactly the offer's total_amount (the airline currency, not BRL). "
        "Decimal string."
    )
    currency = currency("Exactly the offer's total_currency.")

    class Meta:
        list_serializer_class = FirstProblemListSerializer  # `payments`: its minItems, maxItems

    def to_internal_value(self, data) -> PaymentInput:
        if not isinstance(data, Mapping) or data.get("type") != PaymentType.BALANCE:
            raise serializers.ValidationError(
                f"Must be {{type: {PaymentType.BALANCE}, amount, currency}}."
            )
        amount = self.checked("amount", data)
        given = data.get("currency")  # compared with the total's (payment_check)
        return PaymentInput(amount=amount, currency=given if isinstance(given, str) else None)


class ClientIdField(serializers.CharField):
    """The id of an existing client (looked up after the body's shape is checked); absent or
    null: none."""

    def run_validation(self, data=serializers.empty) -> str:
        if data is serializers.empty or data is None:
            return ""
        if not isinstance(data, str) or not 0 < len(data) <= (self.max_length or len(data)):
            raise serializers.ValidationError("Must be a client id (cli_…).")
        return data


class OfferIdField(serializers.CharField):
    """The offer to book, looked up as given (any value, as text): one that is not the team's
    is `offer_not_found`."""

    def run_validation(self, data=serializers.empty) -> str:
        return str(data or "") if data is not serializers.empty else ""


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
        },
        {
            "type": "tax_id",
            "unique_identifier": "390.533.447-05",
            "issuing_country_code": "BR",
            "expires_on": "2040-01-01",
        },
    ],
    "loyalty_programme_accounts": [{"airline_iata_code": "TP", "account_number": "123456789"}],
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


# --- The views ---------------------------------------------------------------------------------


class BookingCreateApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("POST",)  # waits on the flight supplier

    class FilterSerializer(PaginationFilterSerializer):
        status = QueryChoicesField(
            choices=Booking.Status.values,
            required=False,
            help_text=f"One state or several, comma-separated: {','.join(Booking.Status.values)}.",
        )
        created_after = QueryDateField(required=False)
        created_before = QueryDateField(required=False)

    # Checked in the spec's order, the first problem answered: metadata, type, the offer
    # (booking_offer_get: the team's, not expired, bookable so, a supplier connected), the
    # client named (client_id), the passengers against the offer, their passports, then an
    # instant booking's payment. The context gives the key's `team` and `live_mode`.
    @extend_schema_serializer(component_name="BookingCreateInput")
    class InputSerializer(FirstProblemSerializer):
        offerId = OfferIdField(
            max_length=Booking._meta.get_field("offer_id").max_length,
            help_text="off_… from a search, not expired.",
        )
        type = OneOfField(
            Booking.Type,
            help_text="hold: pending, paid later with confirm; instant: paid from the wallet now.",
        )
        passengers = PassengerInputSerializer(  # type: ignore[call-arg]  # ListSerializer kwargs
            many=True,
            min_length=1,
            max_length=MAX_PASSENGERS,
            help_text="Every passenger of the offer, once.",
        )
        payments = BalancePaymentInputSerializer(  # type: ignore[call-arg]  # ListSerializer kwargs
            many=True,
            required=False,
            min_length=1,
            max_length=1,
            help_text="Required for instant (exactly one); ignored for hold.",
        )
        services = services_field(
            "Extras bought with an instant booking (bags from the offer's available_services, "
            "seats from its seat_maps); the payment is then the offer's total plus theirs.",
            required=False,
        )
        metadata = MetadataField(
            required=False,
            help_text=f"Free-form: at most {MAX_METADATA_KEYS} keys of at most "
            f"{MAX_METADATA_KEY_LENGTH} characters, values of at most "
            f"{MAX_METADATA_VALUE_LENGTH}. `client_id` (cli_…) here links the booking to that "
            "client too (the body's `client_id` is the way to; if both are given they must be "
            "the same).",
        )
        client_id = ClientIdField(
            required=False,
            allow_null=True,
            max_length=Client._meta.get_field("id").max_length,
            help_text="cli_… of an existing client of the team in this mode (POST /clients): "
            "the booking is made for it. Not given: the client whose e-mail is the lead adult "
            "passenger's (created from the passenger if new). Unknown: 404 client_not_found.",
        )

        problem_errors = {"passengers": InvalidPassengerData}

        def to_internal_value(self, data) -> dict:
            body = data if isinstance(data, dict) else {}
            metadata = self.checked("metadata", body)
            kind = self.checked("type", body)
            offer = booking_offer_get(
                team=self.context["team"],
                live_mode=self.context["live_mode"],
                offer_id=self.checked("offerId", body),
                type=kind,
            )
            client = self._client(body, metadata)
            self.share(
                passenger_types={p["id"]: PassengerType(p["type"]) for p in offer.passengers},
                departure_date=offer.first_departure.date(),
            )
            passengers = self.checked("passengers", body)
            self._check_passports(offer, passengers)
            self._check_documents_required(offer, passengers)
            payment = self._payment(body) if kind == Booking.Type.INSTANT else None
            return {
                "offer": offer,
                "type": kind,
                "passengers": passengers,
                "payment": payment,
                "metadata": metadata,
                "services": self.checked("services", body),
                "client": client,
            }

        def _client(self, body: dict, metadata: dict[str, str]) -> Client | None:
            """The client `client_id` names (the team's, in this mode), or None."""
            client_id = self.checked("client_id", body)
            if not client_id:
                return None
            if metadata.get("client_id", client_id) != client_id:
                raise serializers.ValidationError(
                    {"client_id": "Differs from metadata.client_id: give one client."}
                )
            return client_get(
                team=self.context["team"],
                live_mode=self.context["live_mode"],
                client_id=client_id,
            )

        @staticmethod
        def _check_passports(offer: BookableOffer, passengers: list[PassengerInput]) -> None:
            """International itineraries need a passport valid past the last flight."""
            if not airports.is_international(offer.airport_codes):
                return
            last_day = offer.last_arrival.date()
            for index, passenger in enumerate(passengers):
                if not any(
                    document["type"] == BookingPassenger.DocumentType.PASSPORT
                    and date.fromisoformat(document["expires_on"]) > last_day
                    for document in passenger.identity_documents
                ):
                    problem = f"A passport valid after {last_day.isoformat()} is required."
                    raise PassportRequired(
                        details={f"passengers[{index}].identity_documents": problem}
                    )

        @staticmethod
        def _check_documents_required(
            offer: BookableOffer, passengers: list[PassengerInput]
        ) -> None:
            """The airline's rule (`passenger_identity_documents_required`): every passenger
            carries a document of a type it takes."""
            if not offer.passenger_identity_documents_required:
                return
            allowed = offer.allowed_passenger_identity_document_types
            for index, passenger in enumerate(passengers):
                if not any(d["type"] in allowed for d in passenger.identity_documents):
                    raise InvalidPassengerData(
                        details={
                            f"passengers[{index}].identity_documents": "The airline requires "
                            "an identity document for every passenger: one of "
                            f"{', '.join(allowed)}."
                        }
                    )

        def _payment(self, body: dict) -> PaymentInput:
            """The one payment of an instant booking, its problems named `payment`."""
            field = cast(FirstProblemListSerializer, self.fields["payments"])
            payments = body.get("payments")
            if not isinstance(payments, list) or not (
                (field.min_length or 0) <= len(payments) <= (field.max_length or len(payments))
            ):
                raise serializers.ValidationError(
                    {
                        "payments": "Required for an instant booking: "
                        f"[{{type: {PaymentType.BALANCE}, amount, currency}}]."
                    }
                )
            return self.check("payment", cast(serializers.Field, field.child), payments[0])

    @extend_schema(
        operation_id="bookings_list",
        tags=["Bookings"],
        parameters=[FilterSerializer],
        responses={
            200: enveloped(
                BookingListItemSerializer(many=True),
                name="BookingListEnvelope",
                pagination=PaginationSerializer(),
            ),
            400: error_response("Invalid request parameters"),
        },
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data = filters.validated_data
        queryset = booking_list(
            team=request.user.team,
            live_mode=request.user.live_mode,
            statuses=data.get("status"),
            created_after=data.get("created_after"),
            created_before=data.get("created_before"),
        )
        items, pagination = paginate(queryset, page=data["page"], limit=data["limit"])
        return envelope([list_item(b) for b in items], pagination=pagination)

    @extend_schema(
        operation_id="bookings_create",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        examples=CREATE_EXAMPLES,
        responses={
            201: BookingSerializer,
            400: error_response(
                "Offer expired, Invalid passenger data, Passport required, Payment amount mismatch"
            ),
            404: error_response("Offer not found, Client not found"),
            409: error_response("Offer already booked"),
            422: error_response(
                "Insufficient balance, wallet_restricted (in debt after a reversed recharge), "
                "No flight supplier connected (live mode)"
            ),
            502: error_response("Supplier error"),
        },
    )
    def post(self, request):
        team, live_mode = request.user.team, request.user.live_mode
        serializer = self.InputSerializer(
            data=request.data, context={"team": team, "live_mode": live_mode}
        )
        serializer.is_valid(raise_exception=True)
        booking = booking_create(
            team=team,
            live_mode=live_mode,
            **serializer.validated_data,
            idempotency_key=request.headers.get("Idempotency-Key", ""),
        )
        return Response(booking_object(booking), status=201)


class BookingDetailApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("DELETE",)  # waits on the flight supplier

    @extend_schema(
        operation_id="bookings_cancel",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            200: enveloped(CancelResultSerializer, name="BookingCancelEnvelope"),
            404: error_response("Booking not found"),
            409: error_response("Booking already cancelled"),
        },
    )
    def delete(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        booking, refund = booking_cancel(booking=booking)
        return envelope({"id": booking.id, "status": booking.status, "refund": refund})

    @extend_schema(
        operation_id="bookings_get",
        tags=["Bookings"],
        responses={200: BookingSerializer, 404: error_response("Booking not found")},
    )
    def get(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        return Response(booking_object(booking))


class BookingConfirmApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("PUT",)  # past its price guarantee, the order is read back first

    @extend_schema_serializer(component_name="BookingConfirmInput")
    class InputSerializer(FirstProblemSerializer):
        payment = BalancePaymentInputSerializer(
            help_text="The offer's original total and currency."
        )

    @extend_schema(
        operation_id="bookings_confirm",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=InputSerializer,
        responses={
            200: enveloped(BookingConfirmedSerializer, name="BookingConfirmEnvelope"),
            400: error_response("Payment amount mismatch"),
            404: error_response("Booking not found"),
            409: error_response(
                "Booking already confirmed; or price_changed: the airline changed the hold's "
                "price (its price guarantee over), `details` carry the new total_amount, "
                "total_currency and client_amount; nothing was debited: confirm again with the "
                "new total"
            ),
            422: error_response(
                "Insufficient balance, wallet_restricted (in debt after a reversed recharge)"
            ),
            502: error_response("Supplier error (the hold's current price could not be read)"),
        },
    )
    def put(self, request, booking_id):
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
        )
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        booking = booking_confirm(booking=booking, **serializer.validated_data)
        booking = booking_get(
            team=request.user.team, live_mode=request.user.live_mode, booking_id=booking.id
        )  # ticketing may already have run
        return envelope(
            {
                "id": booking.id,
                "booking_reference": booking.booking_reference,
                "status": booking.status,
                "documents": [
                    {"type": d.type, "unique_identifier": d.unique_identifier}
                    for d in booking.documents.all()
                ],
            }
        )


CANCELLATION_EXAMPLE: dict[str, object] = {
    "id": "bcn_01m84t2f0x7h3q9c5v6b8n4k2d",
    "booking_id": "ord_01m84s0sqr83c1tmwt646fcae0",
    "status": "quoted",
    "refund_amount": "1003.85",
    "refund_currency": "EUR",
    "refund_to": "balance",
    "penalty_amount": "150.00",
    "penalty_currency": "EUR",
    "airline_credits": [],
    "quoted_refund_amount": "1003.85",
    "wallet_credit_amount": "6172.03",
    "wallet_credit_currency": "BRL",
    "transaction_id": None,
    "expires_at": "2027-02-10T09:45:12Z",
    "confirmed_at": None,
    "created_at": "2027-02-10T09:30:12Z",
}
VOUCHER_EXAMPLE = {
    **CANCELLATION_EXAMPLE,
    "status": "confirmed",
    "refund_to": "voucher",
    "airline_credits": [
        {
            "id": "acd_0000AuiZQIN1qg4B78P79U",
            "credit_amount": "1003.85",
            "credit_currency": "EUR",
            "credit_code": "0471234567890",
            "credit_name": "Voucher",
            "type": "mco",
            "passenger_id": None,
            "issued_on": "2027-02-10",
            "expires_at": "2028-02-10T09:31:05Z",
        }
    ],
    "wallet_credit_amount": "0.00",
    "confirmed_at": "2027-02-10T09:31:05Z",
}
CANCELLATION_EXAMPLES = [
    OpenApiExample("Quoted, refund to the balance", value=CANCELLATION_EXAMPLE, response_only=True),
    OpenApiExample("Confirmed, refund to a voucher", value=VOUCHER_EXAMPLE, response_only=True),
]


def _own_booking(request, booking_id):
    return booking_get(
        team=request.user.team, live_mode=request.user.live_mode, booking_id=booking_id
    )


def _cancellation_post_schema(
    *,
    operation_id: str,
    status: int,
    envelope_name: str,
    not_found: str,
    conflict: str,
    failure: str,
):
    """The schema of the two POSTs on Cancellations (ask for a quote, confirm one): no body,
    `Idempotency-Key`, the Cancellation in the envelope with the same examples, a supplier
    that must be connected in live mode; they differ in their status and their errors."""
    return extend_schema(
        operation_id=operation_id,
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=None,
        examples=CANCELLATION_EXAMPLES,
        responses={
            status: enveloped(CancellationSerializer, name=envelope_name),
            404: error_response(not_found),
            409: error_response(conflict),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response(failure),
        },
    )


class BookingCancellationsApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("POST",)  # waits on the flight supplier

    @extend_schema(
        operation_id="bookings_cancellations_list",
        tags=["Bookings"],
        responses={
            200: enveloped(CancellationSerializer(many=True), name="CancellationListEnvelope"),
            404: error_response("Booking not found"),
        },
    )
    def get(self, request, booking_id):
        booking = _own_booking(request, booking_id)
        return envelope(
            [cancellation_object(c) for c in booking_cancellation_list(booking=booking)]
        )

    @_cancellation_post_schema(
        operation_id="bookings_cancellations_create",
        status=201,
        envelope_name="CancellationEnvelope",
        not_found="Booking not found",
        conflict="Booking already cancelled, not cancellable, outcome unknown, or a "
        "cancellation being confirmed",
        failure="Supplier error",
    )
    def post(self, request, booking_id):
        quoted = booking_cancellation_quote(booking=_own_booking(request, booking_id))
        return envelope(cancellation_object(quoted), status=201)


class BookingCancellationConfirmApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("POST",)  # waits on the flight supplier

    @_cancellation_post_schema(
        operation_id="bookings_cancellations_confirm",
        status=200,
        envelope_name="CancellationConfirmEnvelope",
        not_found="Booking or cancellation not found",
        conflict="cancellation_expired, cancellation_superseded, cancellation_in_progress, "
        "booking already cancelled or not cancellable",
        failure="Supplier error; cancellation_outcome_unknown: the answer was lost, nothing "
        "was credited, the reconcile job settles it",
    )
    def post(self, request, booking_id, cancellation_id):
        confirmed = booking_cancellation_confirm(
            booking=_own_booking(request, booking_id), cancellation_id=cancellation_id
        )
        return envelope(cancellation_object(confirmed))


AIRLINE_CHANGE_SLICE: dict[str, object] = {
    "id": "sli_01m84s0sqr2j8w1b9cq0v5m3ta",
    "origin": {
        "iata_code": "GRU",
        "name": "São Paulo/Guarulhos International Airport",
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
    "duration": "PT10H30M",
    "fare_brand_name": "Classic",
    "segments": [
        {
            "id": "seg_01m84s0sqr4t6y8u0p2q4s6v8x",
            "origin": {"iata_code": "GRU", "name": "Guarulhos", "terminal": "3"},
            "destination": {"iata_code": "LIS", "name": "Humberto Delgado", "terminal": "1"},
            "departing_at": "2027-03-10T16:25:00",
            "arriving_at": "2027-03-11T05:55:00",
            "operating_carrier": {
                "iata_code": "TP",
                "name": "TAP Air Portugal",
                "logo_symbol_url": None,
            },
            "marketing_carrier": {"iata_code": "TP", "name": "TAP Air Portugal"},
            "operating_carrier_flight_number": "88",
            "marketing_carrier_flight_number": "88",
            "aircraft": {"iata_code": "339", "name": "Airbus A330-900neo"},
            "duration": "PT10H30M",
            "distance": "7935.2",
            "passengers": [
                {
                    "passenger_id": "pas_01m84s0sqr83c1tmwt646fcae1",
                    "cabin_class": "economy",
                    "seat": None,
                    "baggages": [{"type": "checked", "quantity": 1}],
                }
            ],
        }
    ],
}


def _later_slice(slice_: dict, departing: str, arriving: str) -> dict:
    segments = cast(list, slice_["segments"])
    return {
        **slice_,
        "id": "sli_01m84t9w2e4r6t8y0u2i4o6p8a",
        "segments": [
            {
                **segments[0],
                "id": "seg_01m84t9w2e7h9k1m3n5q7s9u1w",
                "departing_at": departing,
                "arriving_at": arriving,
            }
        ],
    }


AIRLINE_CHANGE_EXAMPLE: dict[str, object] = {
    "id": "aic_01m84t9w2e0a2c4e6g8j0l2n4q",
    "booking_id": "ord_01m84s0sqr83c1tmwt646fcae0",
    "added": [_later_slice(AIRLINE_CHANGE_SLICE, "2027-03-10T19:00:00", "2027-03-11T08:30:00")],
    "removed": [AIRLINE_CHANGE_SLICE],
    "available_actions": ["accept", "cancel", "change"],
    "action_taken": None,
    "action_taken_at": None,
    "created_at": "2027-02-20T11:04:37Z",
}
AIRLINE_CHANGE_EXAMPLES = [
    OpenApiExample("Detected, unanswered", value=AIRLINE_CHANGE_EXAMPLE, response_only=True),
    OpenApiExample(
        "Accepted",
        value={
            **AIRLINE_CHANGE_EXAMPLE,
            "available_actions": [],
            "action_taken": "accepted",
            "action_taken_at": "2027-02-20T14:12:03Z",
        },
        response_only=True,
    ),
]


class BookingAirlineChangesApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("GET",)  # a test booking's list asks the sandbox first

    @extend_schema(
        operation_id="bookings_airline_changes_list",
        tags=["Bookings"],
        examples=AIRLINE_CHANGE_EXAMPLES[:1],
        responses={
            200: enveloped(AirlineChangeSerializer(many=True), name="AirlineChangeListEnvelope"),
            404: error_response("Booking not found"),
        },
    )
    def get(self, request, booking_id):
        booking = _own_booking(request, booking_id)
        return envelope(
            [airline_change_object(c) for c in booking_airline_change_list(booking=booking)]
        )


class BookingAirlineChangeAcceptApi(ApiView):
    permission_resource = "bookings"
    supplier_methods = ("POST",)  # waits on the flight supplier

    @extend_schema(
        operation_id="bookings_airline_changes_accept",
        tags=["Bookings"],
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=None,
        examples=AIRLINE_CHANGE_EXAMPLES[1:],
        responses={
            200: enveloped(AirlineChangeSerializer, name="AirlineChangeEnvelope"),
            404: error_response("Booking or airline change not found"),
            409: error_response(
                "airline_change_already_actioned, airline_change_action_unavailable"
            ),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response(
                "Supplier error; airline_change_not_accepted: the supplier did not confirm it, "
                "nothing changed on the booking"
            ),
        },
    )
    def post(self, request, booking_id, change_id):
        booking = _own_booking(request, booking_id)
        change = booking_airline_change_accept(booking=booking, change_id=change_id)
        return envelope(airline_change_object(change))
