"""Capture the schema's examples from the sandbox: an agency's journey with a test key, each
operation's request and answer kept as it really was, written to api/api_examples.json (which
the schema reads). Development only: it refuses to run outside the test settings (an in-memory
database it migrates itself).

    DJANGO_SETTINGS_MODULE=config.settings.test .venv/bin/python -m tests.tools.capture_api_examples
"""

import json
import os
import sys
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import django

EXAMPLES_FILE = Path(__file__).resolve().parents[2] / "api" / "api_examples.json"


def main() -> None:
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import override_settings

    from tests.kit.factories import make_team
    from tests.kit.receiver import Receiver

    if settings.DATABASES["default"]["NAME"] != ":memory:":
        sys.exit("Run with DJANGO_SETTINGS_MODULE=config.settings.test")
    call_command("migrate", verbosity=0)
    receiver = Receiver().start()
    try:
        with override_settings(
            WEBHOOKS_ALLOWED_NETWORKS=["127.0.0.0/8"], ALLOWED_HOSTS=["testserver"]
        ):
            os.environ["REQUESTS_CA_BUNDLE"] = receiver.ca_path
            examples = _journey(make_team("Demo Travel"), receiver.url)
    finally:
        receiver.stop()
    EXAMPLES_FILE.write_text(json.dumps(examples, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(examples)} operations written to {EXAMPLES_FILE}")


def _journey(team, receiver_url: str) -> dict:
    from rest_framework.test import APIClient

    from bookings.apis import PASSENGER_EXAMPLE

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team.test_key}")
    examples: dict[str, dict] = {}

    def call(operation, method, path, body=None, **query):
        response = getattr(client, method)(f"/api/v1{path}", body or query or None, format="json")
        assert response.status_code < 300, (operation, response.status_code, response.content)
        examples[operation] = {"status": str(response.status_code), "response": response.json()}
        if body is not None:
            examples[operation]["request"] = body
        return response.json()

    call("wallet_balance", "get", "/wallet/balance")
    pix = call(
        "wallet_recharge_create",
        "post",
        "/wallet/recharge",
        {"amount": "250.00", "currency": "BRL", "payment_method": "pix"},
    )["data"]
    call(
        "wallet_recharge_simulate_payment", "post", f"/wallet/recharge/{pix['id']}/simulate-payment"
    )
    call("wallet_recharge_get", "get", f"/wallet/recharge/{pix['id']}")
    boleto = client.post(
        "/api/v1/wallet/recharge",
        {"amount": "1000.00", "currency": "BRL", "payment_method": "boleto"},
        format="json",
    ).json()["data"]
    call("wallet_recharge_cancel", "delete", f"/wallet/recharge/{boleto['id']}")
    call("wallet_transactions", "get", "/wallet/transactions", type="credit")
    _withdrawals(call, client, team.team)

    departure = date.today() + timedelta(days=60)
    search = {
        "type": "round_trip",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [
            {"origin": "SAO", "destination": "RIO", "departureDate": str(departure)},
            {
                "origin": "RIO",
                "destination": "SAO",
                "departureDate": str(departure + timedelta(14)),
            },
        ],
    }
    result = call("flights_search", "post", "/flights/search", search)
    result["offers"] = result["offers"][:1]  # one offer is example enough
    examples["flights_search"]["response"] = result
    offers = client.post("/api/v1/flights/search", search, format="json").json()["offers"]

    def passenger(offer):
        return {**PASSENGER_EXAMPLE, "id": offer["passengers"][0]["id"]}

    def affordable(instant):
        return next(
            o
            for o in offers
            if o["payment_requirements"]["requires_instant_payment"] is instant
            and Decimal(o["base_cost_brl"]) < Decimal("5000.00")
        )

    customer = call(
        "clients_create",
        "post",
        "/clients",
        {
            "full_name": "Ana Souza",
            "email": "ana@example.com",
            "phone_number": "+5511987654321",
            "tax_id": "390.533.447-05",
            "postal_code": "01310-100",
            "street": "Avenida Paulista",
            "street_number": "1578",
            "complement": "Apto 42",
            "district": "Bela Vista",
            "city": "São Paulo",
            "state": "SP",
            "metadata": {"crm_id": "C-1029"},
        },
    )["data"]
    call(
        "clients_update",
        "patch",
        f"/clients/{customer['id']}",
        {"phone_number": "+5521998765432", "metadata": {"segment": "corporate"}},
    )
    call("clients_get", "get", f"/clients/{customer['id']}")
    call("clients_list", "get", "/clients", q="390.533.447")

    held_offer = affordable(False)
    hold = call(
        "bookings_create",
        "post",
        "/bookings",
        {
            "offerId": held_offer["id"],
            "type": "hold",
            "passengers": [passenger(held_offer)],
            "client_id": customer["id"],
            "metadata": {"client_reference": "PED-2291"},
        },
    )
    payment = {
        "type": "balance",
        "amount": held_offer["total_amount"],
        "currency": held_offer["total_currency"],
    }
    call("bookings_confirm", "put", f"/bookings/{hold['id']}/confirm", {"payment": payment})
    call("bookings_get", "get", f"/bookings/{hold['id']}")
    call("bookings_list", "get", "/bookings", status="ticketed")
    quote = call("bookings_cancellations_create", "post", f"/bookings/{hold['id']}/cancellations")
    call("bookings_cancellations_list", "get", f"/bookings/{hold['id']}/cancellations")
    call(
        "bookings_cancellations_confirm",
        "post",
        f"/bookings/{hold['id']}/cancellations/{quote['data']['id']}/confirm",
    )
    instant_offer = affordable(True)
    instant = client.post(
        "/api/v1/bookings",
        {
            "offerId": instant_offer["id"],
            "type": "instant",
            "passengers": [passenger(instant_offer)],
            "payments": [
                {
                    "type": "balance",
                    "amount": instant_offer["total_amount"],
                    "currency": instant_offer["total_currency"],
                }
            ],
        },
        format="json",
    ).json()
    call("bookings_cancel", "delete", f"/bookings/{instant['id']}")
    # The sandbox's schedule-change scenario (docs/sandbox.md): a change to list and accept.
    changed_offer = next(
        o
        for o in offers
        if o["payment_requirements"]["requires_instant_payment"]
        and o["id"] != instant_offer["id"]
        and Decimal(o["base_cost_brl"]) < Decimal("5000.00")
    )
    changed = client.post(
        "/api/v1/bookings",
        {
            "offerId": changed_offer["id"],
            "type": "instant",
            "passengers": [{**passenger(changed_offer), "family_name": "Schedulechange"}],
            "payments": [
                {
                    "type": "balance",
                    "amount": changed_offer["total_amount"],
                    "currency": changed_offer["total_currency"],
                }
            ],
        },
        format="json",
    ).json()
    change = call(
        "bookings_airline_changes_list", "get", f"/bookings/{changed['id']}/airline_changes"
    )["data"][0]
    call(
        "bookings_airline_changes_accept",
        "post",
        f"/bookings/{changed['id']}/airline_changes/{change['id']}/accept",
    )
    booked_ids = {instant_offer["id"], changed_offer["id"]}
    _extras(call, client, [o for o in offers if o["id"] not in booked_ids], passenger, examples)
    one_way = {**search, "type": "one_way", "slices": search["slices"][:1]}
    changeable = next(  # from a search of its own: the journey books the others' offers
        o
        for o in client.post("/api/v1/flights/search", one_way, format="json").json()["offers"]
        if o["conditions"]["change_before_departure"]["allowed"]
        and Decimal(o["base_cost_brl"]) < Decimal("5000.00")
    )
    booked = client.post(
        "/api/v1/bookings",
        {
            "offerId": changeable["id"],
            "type": "instant",
            "passengers": [passenger(changeable)],
            "payments": [
                {
                    "type": "balance",
                    "amount": changeable["total_amount"],
                    "currency": changeable["total_currency"],
                }
            ],
        },
        format="json",
    ).json()
    outbound = booked["slices"][0]
    asked = call(
        "bookings_change_requests_create",
        "post",
        f"/bookings/{booked['id']}/change_requests",
        {
            "slices": {
                "remove": [{"slice_id": outbound["id"]}],
                "add": [
                    {
                        "origin": outbound["origin"]["iata_code"],
                        "destination": outbound["destination"]["iata_code"],
                        "departure_date": str(departure + timedelta(3)),
                        "cabin_class": "economy",
                    }
                ],
            }
        },
    )
    change_offer = asked["data"]["change_offers"][0]
    call(
        "bookings_changes_create",
        "post",
        f"/bookings/{booked['id']}/changes",
        {
            "change_offer_id": change_offer["id"],
            "payment": {
                "type": "balance",
                "amount": change_offer["change_total_amount"],
                "currency": change_offer["change_total_currency"],
            },
        },
    )

    hook = call(
        "webhooks_create",
        "post",
        "/webhooks",
        {"url": receiver_url, "events": ["booking.ticketed", "wallet.debit"]},
    )["data"]
    call("webhooks_list", "get", "/webhooks")
    call("webhooks_retrieve", "get", f"/webhooks/{hook['id']}")
    call("webhooks_update", "put", f"/webhooks/{hook['id']}", {"events": ["booking.ticketed"]})
    events = call("events_list", "get", "/events", type="booking.ticketed")
    call("events_retrieve", "get", f"/events/{events['data'][0]['id']}")
    call(
        "webhooks_recover",
        "post",
        f"/webhooks/{hook['id']}/recover",
        {"since": events["data"][0]["created_at"]},
    )
    call(
        "webhooks_rotate_secret",
        "post",
        f"/webhooks/{hook['id']}/rotate_secret",
        {"expire_previous_in_hours": 24},
    )
    call("webhooks_test", "post", f"/webhooks/{hook['id']}/test")
    call("webhooks_delete", "delete", f"/webhooks/{hook['id']}")
    examples["webhooks_create"]["response"]["data"]["secret"] = "whsec_…"
    examples["webhooks_rotate_secret"]["response"]["data"]["secret"] = "whsec_…"
    _reports(examples)
    examples["events"] = _one_event_of_each_type(team, client, offers, passenger)
    return examples


def _reports(examples) -> None:
    """The sales report and the NFS-e export of an agency with a markup and a fee, its clients
    given a CPF and a CNPJ and its municipal service code set, as an agency sets them: two
    instant bookings today."""
    from decimal import Decimal

    from django.utils import timezone
    from rest_framework.test import APIClient

    from agencies.models import Client
    from bookings.apis import PASSENGER_EXAMPLE
    from core.timestamps import business_date
    from tests.kit.factories import make_team

    made = make_team("Viagens Aurora", markup_percent=Decimal("10.00"), fee=Decimal("25.00"))
    made.team.municipal_service_code = "09.02"
    made.team.municipal_service_name = "Agenciamento de viagens"
    made.team.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {made.test_key}")
    departure = date.today() + timedelta(days=45)
    search = {
        "type": "one_way",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [{"origin": "GRU", "destination": "SSA", "departureDate": str(departure)}],
    }
    offers = client.post("/api/v1/flights/search", search, format="json").json()["offers"]
    booked = []
    for offer, (given, email) in zip(
        offers, (("Ana", "ana@example.com"), ("Bruno", "bruno@example.com")), strict=False
    ):
        person = {
            **PASSENGER_EXAMPLE,
            "id": offer["passengers"][0]["id"],
            "given_name": given,
            "email": email,
        }
        body = {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [person],
            "payments": [
                {
                    "type": "balance",
                    "amount": offer["total_amount"],
                    "currency": offer["total_currency"],
                }
            ],
        }
        response = client.post("/api/v1/bookings", body, format="json")
        assert response.status_code == 201, response.content
        booked.append(response.json())
    for booking, tax_id in zip(booked, ("52998224725", "11222333000181"), strict=True):
        Client.objects.filter(bookings__pk=booking["id"]).update(tax_id=tax_id)
    today = business_date(timezone.now())
    period = {"start_date": today.replace(day=1).isoformat(), "end_date": today.isoformat()}
    response = client.get("/api/v1/reports/sales", period)
    assert response.status_code == 200, response.content
    examples["reports_sales"] = {"status": "200", "response": response.json()}
    response = client.get("/api/v1/reports/nfse", period)
    assert response.status_code == 200, response.content
    examples["reports_nfse"] = {"status": "200", "response": response.content.decode("utf-8")}


def _withdrawals(call, client, team) -> None:
    """The team's CNPJ and payout key (the panel's part), a withdrawal the sandbox completes at
    once, and one it fails (cents 66: credited back)."""
    from wallet.services import payout_key_register

    team.tax_id = "11.222.333/0001-81"
    team.save(update_fields=["tax_id"])
    payout_key_register(team=team, key_type="cnpj", key="11222333000181")
    done = call("wallet_withdrawals_create", "post", "/wallet/withdrawals", {"amount": "150.00"})
    call("wallet_withdrawals_get", "get", f"/wallet/withdrawals/{done['data']['id']}")
    failed = client.post("/api/v1/wallet/withdrawals", {"amount": "120.66"}, format="json")
    assert failed.json()["data"]["status"] == "failed", failed.content
    call("wallet_withdrawals_list", "get", "/wallet/withdrawals")


def _extras(call, client, offers, passenger, examples) -> None:
    """Bags and seats: an offer's, bought with an instant booking, then a bag added after it."""
    offer = next(
        o
        for o in offers
        if o["payment_requirements"]["requires_instant_payment"]
        and Decimal(o["base_cost_brl"]) < Decimal("4000.00")
        and not any(
            b["type"] == "checked" and b["quantity"]
            for b in o["slices"][0]["segments"][0]["passengers"][0]["baggages"]
        )
    )
    bags = call("offers_available_services", "get", f"/offers/{offer['id']}/available_services")
    maps = call("offers_seat_maps", "get", f"/offers/{offer['id']}/seat_maps")
    seat_map = maps["data"][0]
    seat = next(
        service
        for row in seat_map["cabins"][0]["rows"]
        for section in row["sections"]
        for element in section["elements"]
        for service in element.get("available_services") or []
        if Decimal(service["total_amount"]) > 0
    )
    # One map, its first rows, is example enough.
    seat_map["cabins"][0]["rows"] = seat_map["cabins"][0]["rows"][:4]
    examples["offers_seat_maps"]["response"]["data"] = [seat_map]
    bag = bags["data"][0]
    total = (
        Decimal(offer["total_amount"])
        + Decimal(bag["total_amount"])
        + Decimal(seat["total_amount"])
    )
    booking = client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [passenger(offer)],
            "payments": [
                {"type": "balance", "amount": f"{total:.2f}", "currency": offer["total_currency"]}
            ],
            "services": [{"id": bag["id"], "quantity": 1}, {"id": seat["id"], "quantity": 1}],
        },
        format="json",
    ).json()
    assert "id" in booking, booking
    more = call(
        "bookings_available_services", "get", f"/bookings/{booking['id']}/available_services"
    )["data"][0]
    call(
        "bookings_services_add",
        "post",
        f"/bookings/{booking['id']}/services",
        {
            "add_services": [{"id": more["id"], "quantity": 1}],
            "payment": {
                "type": "balance",
                "amount": more["total_amount"],
                "currency": more["total_currency"],
            },
        },
    )


def _one_event_of_each_type(team, client, offers, passenger) -> dict:
    """Make the changes the journey did not (an expiry, a failure, a reversal, a low balance,
    an integration, a revoked key), then keep the latest event of each type, as delivered."""
    from datetime import timedelta

    from django.utils import timezone

    from agencies.models import ApiKey
    from agencies.services import api_key_revoke, integration_connect, integration_disconnect
    from bookings.models import Booking
    from bookings.services import booking_expire
    from tests.kit.factories import fund
    from wallet.models import Recharge
    from wallet.providers import ProviderPayment
    from wallet.services import (
        recharge_complete,
        recharge_create,
        recharge_expire,
        recharge_reversals_reconcile,
        wallet_debit,
    )
    from webhooks.models import Event, EventType
    from webhooks.payloads import event_object

    holdable = [o for o in offers if not o["payment_requirements"]["requires_instant_payment"]]
    expiring = client.post(
        "/api/v1/bookings",
        {"offerId": holdable[1]["id"], "type": "hold", "passengers": [passenger(holdable[1])]},
        format="json",
    ).json()
    later = timezone.now() + timedelta(days=4)
    booking_expire(booking=Booking.objects.get(pk=expiring["id"]), now=later)
    booked = set(Booking.objects.values_list("offer_id", flat=True))  # each offer books once
    failing = next(
        o
        for o in offers[2:]
        if o["id"] not in booked and Decimal(o["base_cost_brl"]) < Decimal("5000.00")
    )
    client.post(
        "/api/v1/bookings",
        {
            "offerId": failing["id"],
            "type": "instant",
            "passengers": [{**passenger(failing), "family_name": "Issuancefail"}],
            "payments": [
                {
                    "type": "balance",
                    "amount": failing["total_amount"],
                    "currency": failing["total_currency"],
                }
            ],
        },
        format="json",
    )
    pending = Recharge.objects.filter(team=team.team, status="pending").first()
    if pending is None:
        pending_id = client.post(
            "/api/v1/wallet/recharge",
            {"amount": "150.00", "currency": "BRL", "payment_method": "pix"},
            format="json",
        ).json()["data"]["id"]
        pending = Recharge.objects.get(pk=pending_id)
    recharge_expire(recharge=pending, now=later)
    # A live recharge refunded after its money was spent: a reversal and the debt it leaves,
    # which the next credit pays first.
    refunded = recharge_complete(
        recharge=recharge_create(
            team=team.team, live_mode=True, amount=Decimal("300.00"), payment_method="pix"
        )
    )
    wallet_debit(
        team=team.team,
        live_mode=True,
        amount=Decimal("200.00"),
        reference_type="booking",
        reference_id="ord_spent_example",
        description="Booking ord_spent_example (LA)",
    )
    recharge_reversals_reconcile(
        recharge=refunded,
        payment=ProviderPayment(
            id=refunded.provider_charge_id,
            status="REFUNDED",
            state="reversed",
            value=refunded.amount,
            external_reference=refunded.id,
            refunded=refunded.amount,
        ),
    )
    fund(team.team, "800.00", reference_id="rch_example")  # pays the 200.00 debt first
    wallet_debit(
        team=team.team,
        live_mode=True,
        amount=Decimal("150.00"),
        reference_type="booking",
        reference_id="ord_example",
        description="Booking ord_example (LA)",
    )
    integration = integration_connect(
        team=team.team,
        live_mode=True,
        provider="duffel",
        access_token="duffel_live_example",
    )
    integration_disconnect(integration=integration)
    api_key = ApiKey.objects.filter(team=team.team).first()
    assert api_key is not None
    api_key_revoke(api_key=api_key)

    events = {}
    for event_type in EventType.values:
        if event_type == EventType.WEBHOOK_TEST:
            continue
        latest = Event.objects.filter(team=team.team, type=event_type).order_by("-created_at")
        event = latest.first()
        if event is not None:
            events[event_type] = event_object(event, webhook_id="wh_01m84tymf0example0000000000")
    return events


if __name__ == "__main__":
    main()
