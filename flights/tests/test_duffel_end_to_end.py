"""A live team on Duffel, end to end: `connect_supplier` with DUFFEL_BASE_URL pointing at a
Duffel-shaped local server (fake_duffel, real HTTP on a free port), then the API with the live
key: search, hold, confirm (tickets issued by the task), instant booking, cancellations. Each
answer has the spec's shape, the wallet moves by the right amounts, the ledger checks out, and
the server saw Duffel's documented requests (it refuses anything else: a wrong token, a missing
`Duffel-Version: v2`, a body not wrapped in `data`, a passenger id not from the offer, a
payment that is not the order's total)."""

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from bookings.models import Booking
from flights.tests import duffel_kit
from flights.tests.duffel_kit import TOKEN, brl, departure, payment, person, search
from flights.tests.fake_duffel import FakeDuffel
from tests.kit.factories import fund
from wallet.models import Transaction, Wallet

pytestmark = pytest.mark.django_db

SPEC_REFUND = ("amount", "currency", "penalty_amount", "penalty_currency")


duffel = duffel_kit.duffel  # the fake Duffel, the team connected to it for live mode


def test_search_hold_confirm_instant_and_cancel_on_duffel(
    duffel, live_client, test_client, team, django_capture_on_commit_callbacks
):
    fund(team, "50000.00")

    # --- Search: Duffel's offers, in their own currencies, priced in BRL -----------------------
    result = search(live_client, [{"type": "adult", "count": 1}, {"type": "child", "count": 1}])
    assert result["id"].startswith("orq_")
    by_currency = {o["total_currency"]: o for o in result["offers"]}
    assert set(by_currency) == {"USD", "EUR"}
    dollars, euros = by_currency["USD"], by_currency["EUR"]
    # (400 + 300) USD + 15 % taxes, at the static USD rate.
    assert (dollars["total_amount"], dollars["base_amount"], dollars["tax_amount"]) == (
        "805.00",
        "700.00",
        "105.00",
    )
    assert dollars["owner"]["iata_code"] == "ZZ"
    assert dollars["payment_requirements"]["requires_instant_payment"] is False
    assert dollars["payment_requirements"]["payment_required_by"] is not None
    assert euros["payment_requirements"] == {
        "requires_instant_payment": True,
        "price_guarantee_expires_at": None,
        "payment_required_by": None,
    }
    rate = Decimal(str(dollars["exchange_rate_used"]))
    assert Decimal(dollars["base_cost_brl"]) == brl(Decimal("805.00") * rate)
    adult_id, child_id = (p["id"] for p in dollars["passengers"])
    # A test key never reaches Duffel.
    seen = len(duffel.state.requests)
    assert (
        test_client.post(
            "/api/v1/flights/search",
            {
                "type": "one_way",
                "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": departure(60)}],
                "passengers": [{"type": "adult", "count": 1}],
            },
            format="json",
        ).status_code
        == 200
    )
    assert len(duffel.state.requests) == seen

    # --- Hold, then confirm: the debit, then the tickets ---------------------------------------
    held = live_client.post(
        "/api/v1/bookings",
        {
            "offerId": dollars["id"],
            "type": "hold",
            "passengers": [
                person(adult_id, given="Marina", born="1988-07-14"),
                person(child_id, given="Theo", born="2018-05-02", gender="m", title="mr"),
            ],
        },
        format="json",
    )
    assert held.status_code == 201, held.content
    hold = held.json()
    assert hold["status"] == "pending" and hold["type"] == "hold" and hold["live_mode"] is True
    assert hold["payment_status"]["awaiting_payment"] is True
    assert hold["payment_status"]["payment_required_by"] is not None
    assert not Transaction.objects.filter(type="debit").exists()
    [duffel_hold] = duffel.state.orders.values()
    assert duffel_hold["type"] == "hold" and duffel_hold["payments"] == []
    assert hold["booking_reference"] == duffel_hold["booking_reference"]
    # Duffel's passenger ids from the offer request (the child searched by age).
    searched = duffel.state.offers[duffel_hold["offer_id"]]["_passengers"]
    assert [(p["id"], p["type"]) for p in duffel_hold["passengers"]] == [
        (searched[0]["id"], "adult"),
        (searched[1]["id"], "child"),
    ]
    assert duffel_hold["metadata"] in ({}, {"booking_id": hold["id"]})

    with django_capture_on_commit_callbacks(execute=True):
        confirmed = live_client.put(
            f"/api/v1/bookings/{hold['id']}/confirm", {"payment": payment(dollars)}, format="json"
        )
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["data"]["status"] == "confirmed"
    ticketed = live_client.get(f"/api/v1/bookings/{hold['id']}").json()
    assert ticketed["status"] == "ticketed"
    assert sorted(d["passenger_id"] for d in ticketed["documents"]) == sorted([adult_id, child_id])
    assert all(len(d["unique_identifier"]) == 13 for d in ticketed["documents"])
    assert [p["amount"] for p in duffel_hold["payments"]] == ["805.00"]  # paid once, in USD
    assert duffel_hold["payment_status"]["awaiting_payment"] is False
    hold_debit = Transaction.objects.get(type="debit", reference_id=hold["id"])
    assert hold_debit.amount == Decimal(dollars["base_cost_brl"])

    # --- Instant booking of the EUR offer (instant payment only) -------------------------------
    adult_only = search(live_client, [{"type": "adult", "count": 1}])
    fare = next(o for o in adult_only["offers"] if o["total_currency"] == "EUR")
    booked = live_client.post(
        "/api/v1/bookings",
        {
            "offerId": fare["id"],
            "type": "instant",
            "passengers": [person(fare["passengers"][0]["id"], given="Marina", born="1988-07-14")],
            "payments": [payment(fare)],
        },
        format="json",
    )
    assert booked.status_code == 201, booked.content
    instant = booked.json()
    assert instant["status"] == "ticketed" and len(instant["documents"]) == 1
    assert instant["total_currency"] == "EUR" and instant["total_amount"] == "437.00"
    instant_debit = Transaction.objects.get(type="debit", reference_id=instant["id"])
    assert instant_debit.amount == Decimal(fare["base_cost_brl"])

    # --- Cancellations: refundable (minus the penalty), not refundable, a pending hold ---------
    cancelled = live_client.delete(f"/api/v1/bookings/{hold['id']}")
    assert cancelled.status_code == 200, cancelled.content
    data = cancelled.json()["data"]
    assert {**data, "refund": {k: data["refund"][k] for k in SPEC_REFUND}} == {
        "id": hold["id"],
        "status": "cancelled",
        "refund": {
            "amount": "755.00",  # 805.00 minus the 50.00 penalty, in USD
            "currency": "USD",
            "penalty_amount": "50.00",
            "penalty_currency": "USD",
        },
    }
    assert data["refund"]["refund_to"] == "balance"
    refund = Transaction.objects.get(type="credit", reference_type="refund")
    assert refund.reference_id == hold["id"]
    assert refund.amount == brl(Decimal("755.00") * rate)
    assert duffel_hold["cancelled_at"] is not None

    kept = live_client.delete(f"/api/v1/bookings/{instant['id']}").json()["data"]
    assert kept["status"] == "cancelled" and kept["refund"]["amount"] == "0.00"
    assert Transaction.objects.filter(type="credit", reference_type="refund").count() == 1

    another = search(live_client, [{"type": "adult", "count": 1}])
    holdable = next(o for o in another["offers"] if o["total_currency"] == "USD")
    pending = live_client.post(
        "/api/v1/bookings",
        {
            "offerId": holdable["id"],
            "type": "hold",
            "passengers": [
                person(holdable["passengers"][0]["id"], given="Marina", born="1988-07-14")
            ],
        },
        format="json",
    ).json()
    free = live_client.delete(f"/api/v1/bookings/{pending['id']}").json()["data"]
    assert {k: free["refund"][k] for k in SPEC_REFUND} == {
        "amount": "0.00",
        "currency": "USD",
        "penalty_amount": None,
        "penalty_currency": None,
    }
    assert all(order["cancelled_at"] for order in duffel.state.orders.values())
    assert len(duffel.state.orders) == 3

    # --- The money, in the end --------------------------------------------------------------
    expected = Decimal("50000.00") - hold_debit.amount - instant_debit.amount + refund.amount
    assert Wallet.objects.get(team=team).balance == expected
    assert set(Booking.objects.values_list("status", flat=True)) == {"cancelled"}
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()
    # Only Duffel's documented endpoints were called.
    called = {
        (method, re.sub(r"/(ord|ore)_\w+", "/{id}", path.split("?")[0]))
        for method, path in duffel.state.requests
    }
    assert called == {
        ("POST", "/air/offer_requests"),
        ("POST", "/air/orders"),
        ("GET", "/air/orders/{id}"),
        ("POST", "/air/payments"),
        ("POST", "/air/order_cancellations"),
        ("POST", "/air/order_cancellations/{id}/actions/confirm"),
    }


def test_the_fake_refuses_what_duffel_refuses(duffel):
    import requests

    url = f"{duffel.base_url}/air/orders"
    v2 = {"Duffel-Version": "v2"}

    wrong_token = requests.get(url, headers={"Authorization": "Bearer nope", **v2}, timeout=5)
    no_version = requests.get(url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5)
    not_wrapped = requests.post(
        url,
        json={"type": "hold", "selected_offers": ["off_x"]},
        headers={"Authorization": f"Bearer {TOKEN}", **v2},
        timeout=5,
    )

    assert wrong_token.status_code == 401
    assert wrong_token.json()["errors"][0]["code"] == "access_token_not_found"
    assert no_version.status_code == 400
    assert not_wrapped.status_code == 422
    assert not_wrapped.json()["meta"]["request_id"] == not_wrapped.headers["x-request-id"]


# --- Uncertain answers, for real over HTTP: what the reconciliation will see ------------------


@pytest.fixture
def fake():
    with FakeDuffel(token=TOKEN) as server:
        yield server


def order_for(supplier, family_name: str, *, instant: bool, booking_id: str):
    from datetime import date as day

    from flights.suppliers.base import OrderPassenger, SearchRequest, SearchSlice

    search = SearchRequest(
        slices=(SearchSlice("GRU", "LIS", ("GRU",), ("LIS",), day(2027, 3, 10)),),
        passengers=("adult",),
    )
    offer = next(o for o in supplier.search(search) if o.requires_instant_payment == instant)
    passenger = OrderPassenger(
        supplier_passenger_id=offer.supplier_passenger_ids[0],
        type="adult",
        title="ms",
        given_name="Marina",
        family_name=family_name,
        gender="f",
        born_on=day(1988, 7, 14),
        email="marina@example.com",
        phone_number="+5511987654321",
        identity_documents=(  # TAP's offers want one (passenger_identity_documents_required)
            {
                "type": "passport",
                "unique_identifier": "FZ482911",
                "issuing_country_code": "BR",
                "expires_on": "2034-05-20",
            },
        ),
    )
    return (
        offer,
        [passenger],
        lambda: supplier.create_order(
            offer=offer,
            passengers=[passenger],
            instant=instant,
            amount=offer.total_amount,
            currency=offer.total_currency,
            booking_id=booking_id,
        ),
    )


@pytest.mark.parametrize(
    ("family_name", "instant", "code", "created"),
    [
        ("Lostanswer", True, "supplier_outcome_unknown", True),  # created, the answer lost
        ("Pending", False, "order_pending", True),  # 202: accepted, not confirmed
        ("Servererror", True, "supplier_outcome_unknown", False),  # 500, nothing created
    ],
)
def test_an_uncertain_order_is_found_by_its_booking_id_or_certainly_absent(
    fake, family_name, instant, code, created
):
    from flights.suppliers.base import SupplierOutcomeUnknown
    from flights.suppliers.duffel import DuffelSupplier

    supplier = DuffelSupplier(access_token=TOKEN, base_url=fake.base_url)
    started = datetime.now(UTC) - timedelta(seconds=1)
    # Another booking's order whose name the name filter also returns: the metadata decides.
    _, _, other = order_for(supplier, f"{family_name}s", instant=True, booking_id="ord_other")
    other()
    _, passengers, create = order_for(supplier, family_name, instant=instant, booking_id="ord_ours")

    with pytest.raises(SupplierOutcomeUnknown) as raised:
        create()

    assert raised.value.code == code
    found = supplier.find_order(booking_id="ord_ours", created_after=started, passengers=passengers)
    ours = [o for o in fake.state.orders.values() if o["metadata"] == {"booking_id": "ord_ours"}]
    if not created:
        assert found is None and ours == []
        return
    [order] = ours
    assert found.supplier_order_id == order["id"]
    assert found.booking_reference == order["booking_reference"]
    assert found.awaiting_payment is (not instant)
    assert len(found.documents) == (1 if instant else 0)


# --- Uncertain answers over the API: kept with their money, then settled once ----------------


def book_as(client, offer, family_name: str, type: str):
    passenger = {
        **person(offer["passengers"][0]["id"], given="Marina", born="1988-07-14"),
        "family_name": family_name,
    }
    body = {"offerId": offer["id"], "type": type, "passengers": [passenger]}
    if type == "instant":
        body["payments"] = [payment(offer)]
    response = client.post("/api/v1/bookings", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_uncertain_duffel_answers_are_settled_by_the_check_exactly_once(
    duffel, live_client, team, settings
):
    from bookings.services import booking_outcome_check

    fund(team, "50000.00")
    offers = search(live_client, [{"type": "adult", "count": 1}])["offers"]
    euros = next(o for o in offers if o["total_currency"] == "EUR")  # instant only
    lost = book_as(live_client, euros, "Lostanswer", "instant")
    offers = search(live_client, [{"type": "adult", "count": 1}])["offers"]
    euros = next(o for o in offers if o["total_currency"] == "EUR")
    never_made = book_as(live_client, euros, "Servererror", "instant")
    dollars = next(o for o in offers if o["total_currency"] == "USD")  # holdable
    pending = book_as(live_client, dollars, "Pending", "hold")

    # Paid instant bookings wait as confirmed, the hold as pending; nothing refunded yet.
    assert (lost["status"], never_made["status"], pending["status"]) == (
        "confirmed",
        "confirmed",
        "pending",
    )
    assert Booking.objects.filter(outcome_unknown_since__isnull=False).count() == 3
    assert Transaction.objects.filter(type="debit").count() == 2
    assert not Transaction.objects.filter(type="credit", reference_type="refund").exists()

    # Found by the booking id in the order's metadata: settled as the first answer would have.
    assert booking_outcome_check(booking_id=lost["id"]) == "ticketed"
    assert booking_outcome_check(booking_id=pending["id"]) == "held"
    # Certainly absent, but only failed once the grace period is over.
    assert booking_outcome_check(booking_id=never_made["id"]) == "unknown"
    settings.SUPPLIER_UNKNOWN_GRACE_SECONDS = 0
    assert booking_outcome_check(booking_id=never_made["id"]) == "failed"
    for booking_id in (lost["id"], pending["id"], never_made["id"]):
        assert booking_outcome_check(booking_id=booking_id) == "settled"  # once only

    ticketed = live_client.get(f"/api/v1/bookings/{lost['id']}").json()
    assert ticketed["status"] == "ticketed" and len(ticketed["documents"]) == 1
    [lost_order] = [
        o for o in duffel.state.orders.values() if o["metadata"] == {"booking_id": lost["id"]}
    ]
    assert ticketed["booking_reference"] == lost_order["booking_reference"]
    held = live_client.get(f"/api/v1/bookings/{pending['id']}").json()
    assert held["status"] == "pending" and held["payment_status"]["awaiting_payment"] is True
    failed = live_client.get(f"/api/v1/bookings/{never_made['id']}").json()
    assert failed["status"] == "failed"
    # One debit each for the instant bookings, one full refund for the one never made.
    [refund] = Transaction.objects.filter(type="credit", reference_type="refund")
    assert refund.reference_id == never_made["id"]
    assert (
        refund.amount == Transaction.objects.get(type="debit", reference_id=never_made["id"]).amount
    )
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()
