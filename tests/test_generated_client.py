"""The schema is enough to integrate: the published Python client (clients/python, generated
from the schema by openapi-python-client) runs an agency's whole journey against the running
service with typed models only (no hand-built dictionaries): balance, PIX and boleto recharges,
transactions, the three search types, a hold with an infant and passports, confirm, list, read,
cancel, an instant booking, webhooks and events."""

import importlib
import sys
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

PACKAGE = "agency_api"
CLIENT = Path(settings.BASE_DIR) / "clients" / "python"


@pytest.fixture(scope="module")
def api():
    """The published Python client (clients/python), imported as an integrator installs it;
    tests/test_published_clients.py fails when it is not the generation of the current schema."""
    sys.path.insert(0, str(CLIENT))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(CLIENT))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def module(api, path: str):
    return importlib.import_module(f"{PACKAGE}.{path}")


def test_an_agencys_journey_through_the_generated_client(
    api, live_server, team_keys, https_receiver
):
    models = module(api, "models")
    call = {
        name: module(api, f"api.{group}.{name}")
        for group, names in {
            "wallet": [
                "wallet_balance",
                "wallet_recharge_create",
                "wallet_recharge_get",
                "wallet_recharge_simulate_payment",
                "wallet_transactions",
            ],
            "flights": ["flights_search"],
            "bookings": [
                "bookings_create",
                "bookings_confirm",
                "bookings_list",
                "bookings_get",
                "bookings_cancel",
            ],
            "webhooks": ["webhooks_create", "webhooks_list", "webhooks_recover"],
            "events": ["events_list", "events_retrieve"],
            "clients": ["clients_create", "clients_update", "clients_get", "clients_list"],
        }.items()
        for name in names
    }
    client = api.AuthenticatedClient(base_url=f"{live_server.url}/api/v1", token=team_keys.test_key)

    # Webhooks first, so the journey's events are delivered to the agency's receiver.
    created_hook = call["webhooks_create"].sync(
        client=client,
        body=models.WebhookCreateRequest(
            url=https_receiver.url,
            events=[models.EventTypeEnum.BOOKING_CONFIRMED, models.EventTypeEnum.WALLET_DEBIT],
        ),
    )
    assert isinstance(created_hook, models.WebhookCreatedEnvelope), created_hook
    assert created_hook.data.secret.startswith("whsec_")

    balance = call["wallet_balance"].sync(client=client)
    assert isinstance(balance, models.BalanceEnvelope) and balance.data.balance == "5000.00"

    for method in (models.PaymentMethodEnum.PIX, models.PaymentMethodEnum.BOLETO):
        recharge = call["wallet_recharge_create"].sync(
            client=client,
            body=models.RechargeCreateRequest(
                amount="250.00",
                currency=models.CurrencyEnum.BRL,
                payment_method=method,
            ),
        )
        assert recharge is not None and recharge.data.status == models.RechargeStatusEnum.PENDING
        paid = call["wallet_recharge_simulate_payment"].sync(recharge.data.id, client=client)
        assert paid.data.status == models.RechargeStatusEnum.COMPLETED
        read = call["wallet_recharge_get"].sync(recharge.data.id, client=client)
        assert read.data.transaction_id == paid.data.transaction_id
    transactions = call["wallet_transactions"].sync(
        client=client, type_=models.WalletTransactionsType.CREDIT
    )
    assert transactions.data.summary.total_credits == "500.00"

    departure = date.today() + timedelta(days=60)

    def search(kind, slices, passengers):
        result = call["flights_search"].sync(
            client=client,
            body=models.SearchInputRequest(
                type_=kind,
                slices=[
                    models.SearchSliceInputRequest(
                        origin=o, destination=d, departure_date=departure + timedelta(days=n)
                    )
                    for o, d, n in slices
                ],
                passengers=[
                    models.SearchPassengerInputRequest(type_=t, count=c) for t, c in passengers
                ],
            ),
        )
        assert isinstance(result, models.SearchResult), result
        assert result.offers
        return result

    adult = [(models.PassengerTypeEnum.ADULT, 1)]
    search(models.TripTypeEnum.ONE_WAY, [("GRU", "GIG", 0)], adult)
    search(models.TripTypeEnum.MULTI_CITY, [("GRU", "LIS", 0), ("LIS", "MAD", 5)], adult)
    family = search(
        models.TripTypeEnum.ROUND_TRIP,
        [("SAO", "BUE", 0), ("BUE", "SAO", 14)],
        [(models.PassengerTypeEnum.ADULT, 1), (models.PassengerTypeEnum.INFANT_WITHOUT_SEAT, 1)],
    )

    def affordable(instant):  # the test wallet is a constant 5000.00
        return next(
            o
            for o in family.offers
            if o.payment_requirements.requires_instant_payment is instant
            and Decimal(o.base_cost_brl) < Decimal("5000.00")
        )

    offer = affordable(False)
    grown, infant = family.passengers
    passport = models.IdentityDocumentInputRequest(
        type_=models.IdentityDocumentInputTypeEnum.PASSPORT,
        unique_identifier="FX123456",
        issuing_country_code="BR",
        expires_on=date(2031, 1, 1),
    )

    def person(passenger, given, born, **extra):
        return models.PassengerInputRequest(
            id=passenger.id,
            given_name=given,
            family_name="Souza",
            gender=models.GenderEnum.F,
            born_on=born,
            email="ana@example.com",
            phone_number="+5511987654321",
            identity_documents=[passport],
            **extra,
        )

    customer = call["clients_create"].sync(
        client=client,
        body=models.ClientCreateRequest(
            full_name="Ana Souza",
            email="ana.souza@example.com",
            tax_id="390.533.447-05",
            postal_code="01310-100",
            state="SP",
            metadata=models.ClientCreateRequestMetadataType0.from_dict({"crm_id": "C-1029"}),
        ),
    )
    assert isinstance(customer, models.ClientEnvelope), customer
    assert customer.data.tax_id == "390.533.447-05"
    changed = call["clients_update"].sync(
        customer.data.id,
        client=client,
        body=models.PatchedClientUpdateRequest(city="São Paulo"),
    )
    assert changed.data.city == "São Paulo" and changed.data.metadata["crm_id"] == "C-1029"
    assert call["clients_get"].sync(customer.data.id, client=client).data.state == "SP"
    found = call["clients_list"].sync(client=client, q="39053344705")
    assert [c.id for c in found.data] == [customer.data.id]

    hold = call["bookings_create"].sync(
        client=client,
        body=models.BookingCreateInputRequest(
            offer_id=offer.id,
            type_=models.BookingTypeEnum.HOLD,
            passengers=[
                person(grown, "Ana", date(1990, 5, 1), infant_passenger_id=infant.id),
                person(infant, "Bia", departure - timedelta(days=200)),
            ],
            client_id=customer.data.id,
        ),
    )
    assert isinstance(hold, models.Booking), hold
    assert hold.status == models.BookingStatusEnum.PENDING and len(hold.passengers) == 2

    confirmed = call["bookings_confirm"].sync(
        hold.id,
        client=client,
        body=models.BookingConfirmInputRequest(
            payment=models.BalancePaymentInputRequest(
                type_=models.BalancePaymentInputTypeEnum.BALANCE,
                amount=offer.total_amount,
                currency=offer.total_currency,
            )
        ),
    )
    assert isinstance(confirmed, models.BookingConfirmEnvelope), confirmed
    read = call["bookings_get"].sync(hold.id, client=client)
    assert read.status == models.BookingStatusEnum.TICKETED and len(read.documents) == 2

    listed = call["bookings_list"].sync(client=client, status="ticketed")
    assert [item.id for item in listed.data] == [hold.id]
    assert listed.data[0].client.id == customer.data.id
    assert listed.data[0].flight_summary.airline == offer.owner.name

    cancelled = call["bookings_cancel"].sync(hold.id, client=client)
    assert isinstance(cancelled, models.BookingCancelEnvelope), cancelled
    assert cancelled.data.status == models.CancelResultStatusEnum.CANCELLED

    instant_offer = affordable(True)
    instant = call["bookings_create"].sync(
        client=client,
        body=models.BookingCreateInputRequest(
            offer_id=instant_offer.id,
            type_=models.BookingTypeEnum.INSTANT,
            passengers=[
                person(grown, "Ana", date(1990, 5, 1), infant_passenger_id=infant.id),
                person(infant, "Bia", departure - timedelta(days=200)),
            ],
            payments=[
                models.BalancePaymentInputRequest(
                    type_=models.BalancePaymentInputTypeEnum.BALANCE,
                    amount=instant_offer.total_amount,
                    currency=instant_offer.total_currency,
                )
            ],
        ),
    )
    assert (
        isinstance(instant, models.Booking) and instant.status == models.BookingStatusEnum.TICKETED
    )

    hooks = call["webhooks_list"].sync(client=client)
    assert [h.id for h in hooks.data] == [created_hook.data.id]
    events = call["events_list"].sync(client=client, type_="booking.confirmed")
    # Each event is its type's model, its object typed: no dictionary to dig in.
    assert all(isinstance(e, models.BookingConfirmedEvent) for e in events.data), events.data
    assert all(isinstance(e.data.object_, models.BookingEventObject) for e in events.data)
    assert {e.data.object_.id for e in events.data} >= {hold.id}
    assert {e.live_mode for e in events.data} == {False}  # a test key's events
    one = call["events_retrieve"].sync(events.data[0].id, client=client)
    assert isinstance(one.data, models.BookingConfirmedEvent)
    assert one.data.data.object_.status == models.BookingStatusEnum.CONFIRMED
    debits = call["events_list"].sync(client=client, type_="wallet.debit,booking.ticketed")
    kinds = {type(e).__name__: type(e.data.object_).__name__ for e in debits.data}
    assert kinds == {
        "WalletDebitEvent": "Transaction",
        "BookingTicketedEvent": "BookingEventObject",
    }, kinds
    recovered = call["webhooks_recover"].sync(
        created_hook.data.id,
        client=client,
        body=models.WebhookRecoverRequest(since=events.data[-1].created_at),
    )
    assert isinstance(recovered, models.WebhookRecoveredEnvelope) and recovered.data.queued >= 1
