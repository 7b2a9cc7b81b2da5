"""Bookings as rows, for tests of what reads them (pages, lists, retention). A booking made
through the API (bookings/tests/helpers.py: `book`) is what tests of the rules use."""

from datetime import timedelta
from decimal import Decimal

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from agencies.tests.factories import ClientFactory
from bookings.models import (
    Booking,
    BookingAirlineChange,
    BookingCancellation,
    BookingChangeOffer,
    BookingChangeRequest,
    BookingDocument,
    BookingEmail,
    BookingPassenger,
    BookingServicesPurchase,
)

DEPARTURE = "2027-01-15T08:00:00-03:00"
ARRIVAL = "2027-01-15T09:45:00-03:00"


def _one_way_slice() -> list[dict]:
    """A GRU–BSB one-way slice of one GOL segment, in the API's shape."""
    segment = {
        "id": "seg_factory",
        "origin": {
            "iata_code": "GRU",
            "name": "São Paulo/Guarulhos",
            "time_zone": "America/Sao_Paulo",
        },
        "destination": {"iata_code": "BSB", "name": "Brasília", "time_zone": "America/Sao_Paulo"},
        "departing_at": DEPARTURE,
        "arriving_at": ARRIVAL,
        "marketing_carrier": {"iata_code": "G3", "name": "GOL"},
        "operating_carrier": {"iata_code": "G3", "name": "GOL"},
        "marketing_carrier_flight_number": "1400",
        "duration": "PT1H45M",
        "passengers": [],
    }
    return [
        {"origin": segment["origin"], "destination": segment["destination"], "segments": [segment]}
    ]


class BookingFactory(DjangoModelFactory):
    """A pending hold of a GRU–BSB one-way in reais, for a client of the team (live mode)."""

    class Meta:
        model = Booking

    client = factory.SubFactory(ClientFactory)
    team = factory.SelfAttribute("client.team")
    live_mode = factory.SelfAttribute("client.live_mode")
    offer_id = factory.Sequence(lambda n: f"off_factory{n:05d}")
    type = Booking.Type.HOLD
    supplier = "sandbox"
    booking_reference = factory.Sequence(lambda n: f"FB{n:04d}")
    total_amount = Decimal("612.40")
    total_currency = "BRL"
    base_amount = Decimal("520.00")
    tax_amount = Decimal("92.40")
    exchange_rate = Decimal("1")
    base_cost_brl = Decimal("612.40")
    markup_amount = Decimal("0.00")
    fee_amount = Decimal("0.00")
    client_amount = Decimal("612.40")
    owner = factory.LazyFunction(lambda: {"iata_code": "G3", "name": "GOL"})
    slices = factory.LazyFunction(_one_way_slice)
    conditions = factory.LazyFunction(
        lambda: {
            "refund_before_departure": {
                "allowed": False,
                "penalty_amount": None,
                "penalty_currency": None,
            },
            "change_before_departure": {
                "allowed": False,
                "penalty_amount": None,
                "penalty_currency": None,
            },
        }
    )
    departing_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=50))
    payment_required_by = factory.LazyFunction(lambda: timezone.now() + timedelta(hours=24))


class BookingPassengerFactory(DjangoModelFactory):
    """The booking's lead adult passenger."""

    class Meta:
        model = BookingPassenger

    booking = factory.SubFactory(BookingFactory)
    position = 0
    passenger_id = factory.Sequence(lambda n: f"pas_factory{n:05d}")
    type = "adult"
    title = "ms"
    given_name = "Ana"
    family_name = "Souza"
    gender = "f"
    born_on = factory.LazyFunction(lambda: timezone.now().date().replace(year=1990))
    email = "ana@example.com"
    phone_number = "+5511987654321"


class BookingDocumentFactory(DjangoModelFactory):
    """An e-ticket of a passenger (13 digits, GOL's 127 prefix)."""

    class Meta:
        model = BookingDocument

    booking = factory.SubFactory(BookingFactory, status=Booking.Status.TICKETED)
    passenger_id = factory.Sequence(lambda n: f"pas_factory{n:05d}")
    unique_identifier = factory.Sequence(lambda n: f"127{n:010d}")


class BookingEmailFactory(DjangoModelFactory):
    """The booking-confirmation e-mail, written and not yet sent."""

    class Meta:
        model = BookingEmail

    booking = factory.SubFactory(BookingFactory)
    kind = BookingEmail.Kind.CREATED


class BookingCancellationFactory(DjangoModelFactory):
    """A sandbox cancellation quote of a ticketed booking, refunding to the balance."""

    class Meta:
        model = BookingCancellation

    booking = factory.SubFactory(BookingFactory, status=Booking.Status.TICKETED)
    supplier_cancellation_id = factory.Sequence(lambda n: f"sbx_ocq_factory{n:05d}")
    status = BookingCancellation.Status.QUOTED
    refund_amount = Decimal("100.00")
    refund_currency = "BRL"
    refund_to = "balance"
    quoted_refund_amount = Decimal("100.00")
    wallet_credit_amount = Decimal("100.00")
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=15))


class BookingAirlineChangeFactory(DjangoModelFactory):
    """An unanswered schedule change of a ticketed booking: its flight 2 h 35 min later."""

    class Meta:
        model = BookingAirlineChange

    booking = factory.SubFactory(BookingFactory, status=Booking.Status.TICKETED)
    supplier_change_id = factory.Sequence(lambda n: f"aic_supplier_factory{n:05d}")
    removed = factory.LazyFunction(_one_way_slice)
    added = factory.LazyFunction(
        lambda: [
            {
                **slice_,
                "segments": [
                    {
                        **segment,
                        "departing_at": "2027-01-15T10:35:00-03:00",
                        "arriving_at": "2027-01-15T12:20:00-03:00",
                    }
                    for segment in slice_["segments"]
                ],
            }
            for slice_ in _one_way_slice()
        ]
    )
    available_actions = factory.LazyFunction(lambda: ["accept", "cancel", "change"])


class BookingServicesPurchaseFactory(DjangoModelFactory):
    """One checked bag bought after the sale of a ticketed booking, waiting for the supplier's
    answer (debited already)."""

    class Meta:
        model = BookingServicesPurchase

    booking = factory.SubFactory(BookingFactory, status=Booking.Status.TICKETED)
    services = factory.LazyFunction(lambda: [{"id": "ase_factory", "quantity": 1}])
    total_amount = Decimal("150.00")
    total_currency = "BRL"
    base_cost_brl = Decimal("150.00")
    markup_amount = Decimal("0.00")
    client_amount = Decimal("150.00")
    expected_order_total = Decimal("762.40")


class BookingChangeRequestFactory(DjangoModelFactory):
    """A sandbox change request of a ticketed booking (its offers: BookingChangeOfferFactory)."""

    class Meta:
        model = BookingChangeRequest

    booking = factory.SubFactory(BookingFactory, status=Booking.Status.TICKETED)
    supplier_request_id = factory.Sequence(lambda n: f"sbx_ocr_factory{n:05d}")
    slices = factory.LazyAttribute(
        lambda o: {
            "remove": [{"slice_id": o.booking.slices[0].get("id", "")}],
            "add": [
                {
                    "origin": "GRU",
                    "destination": "BSB",
                    "departure_date": "2027-01-20",
                    "cabin_class": "economy",
                }
            ],
        }
    )


class BookingChangeOfferFactory(DjangoModelFactory):
    """An offer of a change request: a difference of 120.00 to pay, priced at the booking's
    rate, no markup, no fee."""

    class Meta:
        model = BookingChangeOffer

    change_request = factory.SubFactory(BookingChangeRequestFactory)
    booking = factory.SelfAttribute("change_request.booking")
    supplier_offer_id = factory.Sequence(lambda n: f"sbx_oco_factory{n:05d}")
    slices = factory.LazyAttribute(
        lambda o: {"add": [o.booking.slices[0]], "remove": [o.booking.slices[0]]}
    )
    change_total_amount = Decimal("120.00")
    change_total_currency = factory.SelfAttribute("booking.total_currency")
    penalty_amount = Decimal("50.00")
    penalty_currency = factory.SelfAttribute("booking.total_currency")
    new_total_amount = factory.LazyAttribute(lambda o: o.booking.total_amount + Decimal("120.00"))
    new_total_currency = factory.SelfAttribute("booking.total_currency")
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=15))
    exchange_rate = factory.SelfAttribute("booking.exchange_rate")
    change_cost_brl = factory.LazyAttribute(
        lambda o: (Decimal("120.00") * o.booking.exchange_rate).quantize(Decimal("0.01"))
    )
    markup_amount = Decimal("0.00")
    fee_amount = Decimal("0.00")
    client_change_amount = factory.SelfAttribute("change_cost_brl")
