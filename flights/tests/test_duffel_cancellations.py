"""Cancellations over the API against the Duffel-shaped server (fake_duffel, real HTTP): a quote
(`POST /bookings/:id/cancellations`), its confirmation, settled on what Duffel *confirmed*
refunding, with the scenarios of the fake (by the first passenger's family name): a refund lower
than the stored conditions, a refund that drops between quote and confirmation, a voucher, a
quote that expires, a confirmation whose answer is lost (settled once by the reconcile job). The
ledger checks out after each."""

from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from bookings.models import Booking, BookingCancellation
from flights.tests import duffel_kit
from flights.tests.duffel_kit import brl, payment, person, search
from tests.kit.factories import fund
from wallet.models import Transaction

pytestmark = pytest.mark.django_db
duffel = duffel_kit.duffel  # the fake Duffel, the team connected to it for live mode


def ticketed_usd(client, family_name: str) -> dict:
    """An instant booking of the fake's refundable USD fare (penalty 50.00), paid and ticketed,
    its passenger named `family_name` (the fake's scenario)."""
    offer = next(
        o
        for o in search(client, [{"type": "adult", "count": 1}])["offers"]
        if o["total_currency"] == "USD"
    )
    passenger = {
        **person(offer["passengers"][0]["id"], given="Marina", born="1988-07-14"),
        "family_name": family_name,
    }
    response = client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [passenger],
            "payments": [payment(offer)],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    booking = response.json()
    assert booking["status"] == "ticketed"
    return booking


def quote(client, booking_id: str, **headers):
    return client.post(f"/api/v1/bookings/{booking_id}/cancellations", **headers)


def confirm(client, booking_id: str, cancellation_id: str, **headers):
    return client.post(
        f"/api/v1/bookings/{booking_id}/cancellations/{cancellation_id}/confirm", **headers
    )


def refunds(booking_id: str) -> list[Decimal]:
    return [
        t.amount
        for t in Transaction.objects.filter(
            type="credit", reference_type="refund", reference_id=booking_id
        )
    ]


def assert_ledger_clean() -> None:
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()


def rate_of(booking_id: str) -> Decimal:
    return Booking.objects.get(pk=booking_id).exchange_rate


def per_conditions(booking: dict) -> Decimal:
    """The refund the conditions stored at search promise: the total minus 50.00."""
    assert booking["conditions"]["refund_before_departure"]["penalty_amount"] == "50.00"
    return Decimal(booking["total_amount"]) - Decimal("50.00")


def half(amount: Decimal) -> Decimal:
    return brl(amount / 2)


def test_a_refund_lower_than_the_conditions_credits_the_confirmed_amount(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Refundlow")

    quoted = quote(live_client, booking["id"], HTTP_IDEMPOTENCY_KEY="q-1")
    assert quoted.status_code == 201, quoted.content
    cancellation = quoted.json()["data"]
    # The conditions stored at search said the total minus 50.00; the airline says half of it.
    airline = half(per_conditions(booking))
    expected_brl = brl(airline * rate_of(booking["id"]))
    assert {k: cancellation[k] for k in ("status", "refund_amount", "refund_to")} == {
        "status": "quoted",
        "refund_amount": f"{airline}",
        "refund_to": "balance",
    }
    assert cancellation["penalty_amount"] == f"{Decimal(booking['total_amount']) - airline}"
    assert cancellation["wallet_credit_amount"] == f"{expected_brl}"
    assert cancellation["wallet_credit_currency"] == "BRL"
    assert cancellation["id"].startswith("bcn_")
    # The same key answers the same quote again, without asking Duffel twice.
    again = quote(live_client, booking["id"], HTTP_IDEMPOTENCY_KEY="q-1")
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["data"]["id"] == cancellation["id"]
    assert len(duffel.state.cancellations) == 1
    assert refunds(booking["id"]) == []  # a quote moves no money

    confirmed = confirm(live_client, booking["id"], cancellation["id"], HTTP_IDEMPOTENCY_KEY="c-1")
    assert confirmed.status_code == 200, confirmed.content
    data = confirmed.json()["data"]
    replayed = confirm(live_client, booking["id"], cancellation["id"], HTTP_IDEMPOTENCY_KEY="c-1")
    assert replayed["Idempotent-Replayed"] == "true" and replayed.json()["data"] == data
    assert data["status"] == "confirmed" and data["confirmed_at"]
    assert data["wallet_credit_amount"] == f"{expected_brl}"
    assert refunds(booking["id"]) == [expected_brl]
    assert data["transaction_id"] == Transaction.objects.get(reference_type="refund").id
    assert live_client.get(f"/api/v1/bookings/{booking['id']}").json()["status"] == "cancelled"
    # Confirming again (a retry without its key) answers the same, credits nothing more.
    assert confirm(live_client, booking["id"], cancellation["id"]).json()["data"] == data
    assert refunds(booking["id"]) == [expected_brl]
    listed = live_client.get(f"/api/v1/bookings/{booking['id']}/cancellations").json()
    assert [c["id"] for c in listed["data"]] == [cancellation["id"]]
    assert_ledger_clean()


def test_the_confirmed_refund_wins_over_the_quote(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Refunddrop")
    cancellation = quote(live_client, booking["id"]).json()["data"]
    promised = per_conditions(booking)
    assert cancellation["refund_amount"] == f"{promised}"

    data = confirm(live_client, booking["id"], cancellation["id"]).json()["data"]

    airline = half(promised)
    assert (data["refund_amount"], data["quoted_refund_amount"]) == (f"{airline}", f"{promised}")
    assert refunds(booking["id"]) == [brl(airline * rate_of(booking["id"]))]
    assert_ledger_clean()


def test_a_voucher_refund_credits_nothing_and_shows_the_credits(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Voucher")

    cancelled = live_client.delete(f"/api/v1/bookings/{booking['id']}")

    assert cancelled.status_code == 200, cancelled.content
    refund = cancelled.json()["data"]["refund"]
    value = f"{per_conditions(booking)}"
    assert (refund["amount"], refund["refund_to"], refund["wallet_credit_amount"]) == (
        value,
        "voucher",
        "0.00",
    )
    assert refund["transaction_id"] is None
    [credit] = refund["airline_credits"]
    assert (credit["credit_amount"], credit["credit_currency"], credit["credit_name"]) == (
        value,
        "USD",
        "Voucher",
    )
    assert refunds(booking["id"]) == []
    listed = live_client.get(f"/api/v1/bookings/{booking['id']}/cancellations").json()["data"]
    assert listed[0]["airline_credits"] == refund["airline_credits"]
    assert listed[0]["status"] == "confirmed"
    assert_ledger_clean()


def test_an_expired_or_superseded_quote_is_409(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Albuquerque")
    first = quote(live_client, booking["id"]).json()["data"]
    second = quote(live_client, booking["id"]).json()["data"]

    superseded = confirm(live_client, booking["id"], first["id"])
    assert superseded.status_code == 409
    assert superseded.json()["error"]["code"] == "cancellation_superseded"

    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        expired = confirm(live_client, booking["id"], second["id"])
        assert expired.status_code == 409
        assert expired.json()["error"]["code"] == "cancellation_expired"
        listed = live_client.get(f"/api/v1/bookings/{booking['id']}/cancellations").json()
        assert [c["status"] for c in listed["data"]] == ["expired", "expired"]
    assert refunds(booking["id"]) == []
    assert live_client.get(f"/api/v1/bookings/{booking['id']}").json()["status"] == "ticketed"
    assert not any(o["cancelled_at"] for o in duffel.state.orders.values())
    # A new quote goes through.
    third = quote(live_client, booking["id"]).json()["data"]
    assert confirm(live_client, booking["id"], third["id"]).json()["data"]["status"] == (
        "confirmed"
    )
    assert_ledger_clean()


def test_a_quote_the_airline_expires_early_is_409(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Quoteexpires")
    cancellation = quote(live_client, booking["id"]).json()["data"]
    with time_machine.travel(timezone.now() + timedelta(seconds=3)):
        refused = confirm(live_client, booking["id"], cancellation["id"])
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "cancellation_expired"
    assert refunds(booking["id"]) == []


def test_a_lost_confirmation_is_settled_once_by_the_reconcile_job(
    duffel, live_client, team, settings
):
    from bookings.services import (
        booking_cancellation_check,
        booking_cancellations_unsettled,
    )

    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Cancellost")
    cancellation = quote(live_client, booking["id"]).json()["data"]

    lost = confirm(live_client, booking["id"], cancellation["id"])

    assert lost.status_code == 502
    assert lost.json()["error"]["code"] == "cancellation_outcome_unknown"
    assert refunds(booking["id"]) == []  # nothing credited on a lost answer
    listed = live_client.get(f"/api/v1/bookings/{booking['id']}/cancellations").json()["data"]
    assert listed[0]["status"] == "unknown"
    assert live_client.get(f"/api/v1/bookings/{booking['id']}").json()["status"] == "ticketed"
    # Neither a new quote nor a new confirmation while it is unknown.
    assert quote(live_client, booking["id"]).json()["error"]["code"] == "cancellation_in_progress"
    assert (
        confirm(live_client, booking["id"], cancellation["id"]).json()["error"]["code"]
        == "cancellation_in_progress"
    )

    assert booking_cancellations_unsettled() == [cancellation["id"]]
    supplier_id = BookingCancellation.objects.get().supplier_cancellation_id
    orders_read = reads_of(duffel, "/air/orders/")
    assert booking_cancellation_check(cancellation_id=cancellation["id"]) == "confirmed"
    # Settled from the cancellation read back, not from the order.
    assert reads_of(duffel, f"/air/order_cancellations/{supplier_id}") == 1
    assert reads_of(duffel, "/air/orders/") == orders_read
    assert booking_cancellation_check(cancellation_id=cancellation["id"]) == "settled"
    assert booking_cancellations_unsettled() == []

    expected = brl(per_conditions(booking) * rate_of(booking["id"]))
    assert refunds(booking["id"]) == [expected]
    settled = live_client.get(f"/api/v1/bookings/{booking['id']}/cancellations").json()["data"]
    assert (settled[0]["status"], settled[0]["wallet_credit_amount"]) == (
        "confirmed",
        f"{expected}",
    )
    assert live_client.get(f"/api/v1/bookings/{booking['id']}").json()["status"] == "cancelled"
    assert BookingCancellation.objects.get().outcome_note == ""
    assert_ledger_clean()


def reads_of(duffel, path: str) -> int:
    """How many GETs the fake Duffel answered on paths starting with `path`."""
    return sum(
        1 for method, seen in duffel.state.requests if method == "GET" and seen.startswith(path)
    )


def duffel_get(duffel, path: str):
    import requests

    headers = {"Authorization": f"Bearer {duffel_kit.TOKEN}", "Duffel-Version": "v2"}
    return requests.get(f"{duffel.base_url}{path}", headers=headers, timeout=10)


def test_a_lost_confirmation_is_not_settled_on_a_read_back_that_fails(duffel, live_client, team):
    """The cancellation cannot be read back (Duffel answers 503): nothing is credited, the
    cancellation stays unknown with why; read back later, it is settled, once."""
    from bookings.services import booking_cancellation_check

    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Cancellost")
    cancellation = quote(live_client, booking["id"]).json()["data"]
    assert confirm(live_client, booking["id"], cancellation["id"]).status_code == 502
    supplier_id = BookingCancellation.objects.get().supplier_cancellation_id
    duffel.state.unavailable.add(f"/air/order_cancellations/{supplier_id}")

    assert booking_cancellation_check(cancellation_id=cancellation["id"]) == "unknown"
    assert refunds(booking["id"]) == []
    stored = BookingCancellation.objects.get()
    assert stored.status == "unknown" and stored.outcome_note.startswith("check failed")

    duffel.state.unavailable.clear()
    assert booking_cancellation_check(cancellation_id=cancellation["id"]) == "confirmed"
    assert booking_cancellation_check(cancellation_id=cancellation["id"]) == "settled"
    assert refunds(booking["id"]) == [brl(per_conditions(booking) * rate_of(booking["id"]))]
    assert_ledger_clean()


def test_the_fake_reads_order_cancellations_back_in_duffels_shapes(duffel, live_client, team):
    """`GET /air/order_cancellations/{id}` and `GET /air/order_cancellations?order_id=…`, as
    Duffel documents them: `{"data": OrderCancellation}`, and a page of them with
    `meta: {after, before, limit}`; an unknown id is Duffel's 404."""
    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Souza")
    first = quote(live_client, booking["id"]).json()["data"]
    second = quote(live_client, booking["id"]).json()["data"]
    assert confirm(live_client, booking["id"], second["id"]).status_code == 200
    ids = dict(BookingCancellation.objects.values_list("pk", "supplier_cancellation_id"))
    order_id = Booking.objects.get(pk=booking["id"]).supplier_order_id

    read = duffel_get(duffel, f"/air/order_cancellations/{ids[second['id']]}")
    assert read.status_code == 200
    data = read.json()["data"]
    assert data["id"] == ids[second["id"]] and data["order_id"] == order_id
    assert data["confirmed_at"] and data["refund_to"] == "balance"
    assert set(data) >= {
        "id",
        "order_id",
        "live_mode",
        "refund_amount",
        "refund_currency",
        "refund_to",
        "airline_credits",
        "expires_at",
        "confirmed_at",
        "created_at",
    }
    unconfirmed = duffel_get(duffel, f"/air/order_cancellations/{ids[first['id']]}").json()
    assert unconfirmed["data"]["confirmed_at"] is None

    listed = duffel_get(duffel, f"/air/order_cancellations?order_id={order_id}&limit=1")
    assert listed.status_code == 200
    page = listed.json()
    assert [c["id"] for c in page["data"]] == [ids[first["id"]]]
    assert page["meta"]["limit"] == 1 and page["meta"]["before"] is None
    after = page["meta"]["after"]
    rest = duffel_get(
        duffel, f"/air/order_cancellations?order_id={order_id}&limit=1&after={after}"
    ).json()
    assert [c["id"] for c in rest["data"]] == [ids[second["id"]]]
    assert rest["meta"]["after"] is None
    other = duffel_get(duffel, "/air/order_cancellations?order_id=ord_0000nothing").json()
    assert other["data"] == []

    missing = duffel_get(duffel, "/air/order_cancellations/ore_0000nothing")
    assert missing.status_code == 404
    assert missing.json()["errors"][0]["code"] == "not_found"


def test_an_order_cancelled_elsewhere_is_settled_from_its_cancellations(duffel, live_client, team):
    """Our confirmation's answer is lost (a 503) and the order is cancelled by another
    cancellation (Duffel's dashboard, say); the order's body does not say what was refunded:
    the job finds the order's confirmed cancellation in its list and settles that, once. While
    the list cannot be read, nothing is credited."""
    from bookings.services import booking_cancellation_check

    fund(team, "50000.00")
    booking = ticketed_usd(live_client, "Souza")
    ours = quote(live_client, booking["id"]).json()["data"]
    supplier_id = BookingCancellation.objects.get().supplier_cancellation_id
    duffel.state.unavailable.add(f"/air/order_cancellations/{supplier_id}/actions/confirm")
    assert confirm(live_client, booking["id"], ours["id"]).status_code == 502
    duffel.state.unavailable.clear()
    order_id = Booking.objects.get(pk=booking["id"]).supplier_order_id
    elsewhere = duffel.state.quote_cancellation({"order_id": order_id})
    duffel.state.confirm_cancellation(elsewhere["id"])
    duffel.state.orders_without_cancellation = True

    duffel.state.unavailable.add("/air/order_cancellations")
    assert booking_cancellation_check(cancellation_id=ours["id"]) == "unknown"
    assert refunds(booking["id"]) == []
    duffel.state.unavailable.clear()

    assert booking_cancellation_check(cancellation_id=ours["id"]) == "confirmed"
    assert reads_of(duffel, f"/air/order_cancellations?order_id={order_id}") >= 1
    settled = BookingCancellation.objects.get()
    assert settled.supplier_cancellation_id == elsewhere["id"]
    assert refunds(booking["id"]) == [brl(per_conditions(booking) * rate_of(booking["id"]))]
    assert booking_cancellation_check(cancellation_id=ours["id"]) == "settled"
    assert len(refunds(booking["id"])) == 1
    assert_ledger_clean()
