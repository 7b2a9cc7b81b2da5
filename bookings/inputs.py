"""What the booking services take from a request, typed: the passengers and the payment of
POST /bookings and PUT /bookings/:id/confirm, as their input serializers make them from the body
(bookings/apis.py), and the one rule both services apply to a payment."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TypedDict

from django.db import models

from bookings.errors import PaymentAmountMismatch
from flights.models import PassengerType


class IdentityDocument(TypedDict):
    """As stored on the passenger (and sent to the supplier)."""

    type: str  # a BookingPassenger.DocumentType
    unique_identifier: str
    issuing_country_code: str  # ISO 3166-1 alpha-2
    expires_on: str  # YYYY-MM-DD


class LoyaltyAccount(TypedDict):
    airline_iata_code: str
    account_number: str


@dataclass(frozen=True)
class PassengerInput:
    """One of the offer's passengers, as the booking stores it."""

    id: str  # the offer's pas_
    type: PassengerType  # the offer's, for this id
    title: str  # a BookingPassenger.Title, or "" when not given
    given_name: str
    family_name: str
    gender: str  # a BookingPassenger.Gender
    born_on: date
    email: str
    phone_number: str
    identity_documents: list[IdentityDocument]
    loyalty_programme_accounts: list[LoyaltyAccount]
    infant_passenger_id: str  # the pas_ of the infant this adult carries, or ""


class PaymentType(models.TextChoices):
    BALANCE = "balance"  # from the wallet: the only way to pay


@dataclass(frozen=True)
class PaymentInput:
    """`{type: balance, amount, currency}`."""

    amount: Decimal
    currency: str | None  # as given (None when it is not text): payment_check compares it


def payment_check(*, payment: PaymentInput | None, amount: Decimal, currency: str) -> None:
    """The payment must be exactly the original total and currency (of the offer being booked,
    or of the hold being confirmed)."""
    if payment is None or payment.amount != amount or payment.currency != currency:
        raise PaymentAmountMismatch(
            details={"expected_amount": f"{amount:.2f}", "expected_currency": currency}
        )
