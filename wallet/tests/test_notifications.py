"""Inbound Asaas payment notifications: POST /api/v1/payments/asaas/notifications.

The recharge is created for real through recharge_create, with Asaas's HTTP API mocked by
`responses`; the notification then goes through the test client like Asaas's webhook would
(https://docs.asaas.com/docs/payment-events): a JSON event with a unique `id`, authenticated by
the `asaas-access-token` header."""

import threading
from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
import responses
from django.core.management import call_command
from django.db import connection
from django.test import Client

from wallet.models import ProviderNotification, Recharge, Transaction, Wallet
from wallet.services import recharge_create, recharge_expire
from wallet.tests.test_asaas import (
    API_KEY,
    BASE_URL,
    CUSTOMER_ID,
    PAYMENT_ID,
    SAO_PAULO,
    WEBHOOK_TOKEN,
    add_pix_charge,
    asaas_json,
    payment_body,
)
from webhooks.models import Event

pytestmark = pytest.mark.django_db

URL = "/api/v1/payments/asaas/notifications"
EVENT_ID = "evt_05b708f961d739ea7eba7e4db318f621&368604920"
UNAUTHORIZED = {
    "success": False,
    "error": {"code": "unauthorized", "message": "Unauthorized", "details": None},
}


@pytest.fixture
def asaas(settings):
    settings.PAYMENT_PROVIDER = "asaas"
    settings.ASAAS_API_KEY = API_KEY
    settings.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN
    settings.ASAAS_BASE_URL = BASE_URL
    with responses.RequestsMock(assert_all_requests_are_fired=True) as rsps:
        yield rsps


def pending_recharge(rsps, team, amount: str = "250.00", payment_id: str = PAYMENT_ID):
    """A live PIX recharge whose charge Asaas created (its HTTP API answered by `rsps`)."""
    add_pix_charge(rsps, team, payment_id)
    recharge = recharge_create(
        team=team, live_mode=True, amount=Decimal(amount), payment_method="pix"
    )
    assert recharge.status == Recharge.Status.PENDING
    assert recharge.provider_charge_id == payment_id
    return recharge


def event_body(
    recharge,
    *,
    event: str = "PAYMENT_RECEIVED",
    event_id: str = EVENT_ID,
    status: str = "RECEIVED",
    payment_id: str | None = None,
    value: Decimal | None = None,
) -> str:
    payment = payment_body(
        payment_id=payment_id or recharge.provider_charge_id,
        customer=CUSTOMER_ID,
        value=recharge.amount if value is None else value,
        billing_type="PIX",
        due_date=recharge.expires_at.astimezone(SAO_PAULO).date().isoformat(),
        external_reference=recharge.id,
        status=status,
    )
    return asaas_json(
        {"id": event_id, "event": event, "dateCreated": "2026-11-23 15:12:44", "payment": payment}
    )


def notify(client, body, *, token: str | None = WEBHOOK_TOKEN):
    headers = {} if token is None else {"asaas-access-token": token}
    return client.post(URL, data=body, content_type="application/json", headers=headers)


def balance_of(team) -> Decimal:
    return Wallet.objects.get(team=team).balance


def events(team, type_: str) -> list:
    return list(Event.objects.filter(team=team, type=type_))


def assert_nothing_credited(recharge, *, status=Recharge.Status.PENDING):
    recharge.refresh_from_db()
    assert recharge.status == status
    assert recharge.transaction_id is None and recharge.paid_at is None
    assert not Transaction.objects.filter(reference_id=recharge.id).exists()
    assert balance_of(recharge.team) == Decimal("0.00")
    assert events(recharge.team, "wallet.credit") == []
    assert events(recharge.team, "wallet.recharge.completed") == []


def assert_credited_once(recharge, amount: str):
    recharge.refresh_from_db()
    assert recharge.status == Recharge.Status.COMPLETED
    [txn] = Transaction.objects.filter(reference_id=recharge.id)
    assert (txn.type, txn.reference_type, txn.live_mode) == ("credit", "recharge", True)
    assert txn.amount == Decimal(amount)
    assert txn.payment_method == "pix"
    assert recharge.transaction_id == txn.id
    assert recharge.paid_at is not None
    assert recharge.paid_amount == Decimal(amount)
    assert balance_of(recharge.team) == Decimal(amount)
    assert txn.balance_after == Decimal(amount)
    [credit] = events(recharge.team, "wallet.credit")
    assert credit.data_object["id"] == txn.id
    assert credit.data_object["reference_id"] == recharge.id
    [completed] = events(recharge.team, "wallet.recharge.completed")
    assert completed.data_object["id"] == recharge.id
    assert completed.data_object["status"] == "completed"
    assert completed.data_object["transaction_id"] == txn.id
    return completed


# --- Authentication ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    [
        pytest.param(None, id="missing"),
        pytest.param("", id="empty"),
        pytest.param("whk-asaas-3b8f0c1e9d2a47e6b5c5", id="wrong"),
        pytest.param(API_KEY, id="the-api-key"),
    ],
)
def test_bad_token_is_rejected_and_changes_nothing(asaas, team, client, token):
    recharge = pending_recharge(asaas, team.team)

    response = notify(client, event_body(recharge), token=token)

    assert response.status_code == 401
    assert response.json() == UNAUTHORIZED
    assert_nothing_credited(recharge)
    assert not ProviderNotification.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("{not json", id="not-json"),
        pytest.param("", id="empty"),
        pytest.param("[]", id="array"),
        pytest.param('{"id": "evt_1", "event": "PAYMENT_RECEIVED"}', id="no-payment"),
        pytest.param(
            '{"id": "evt_1", "event": "PAYMENT_RECEIVED", "payment": []}', id="bad-payment"
        ),
        pytest.param(
            '{"id": {"x": 1}, "event": "PAYMENT_RECEIVED", "payment": {"id": "pay_080225913252"}}',
            id="id-not-a-string",
        ),
        pytest.param(
            '{"id": "evt_1", "event": "PAYMENT_RECEIVED",'
            ' "payment": {"id": "pay_080225913252", "value": "abc"}}',
            id="value-not-a-number",
        ),
        pytest.param(
            '{"id": "evt_1", "event": "PAYMENT_RECEIVED",'
            ' "payment": {"id": "pay_080225913252", "value": -250.0}}',
            id="negative-value",
        ),
        pytest.param(
            '{"id": "evt_' + "1" * 200 + '", "event": "PAYMENT_RECEIVED",'
            ' "payment": {"id": "pay_080225913252", "value": 250.0}}',
            id="id-too-long",
        ),
    ],
)
def test_malformed_body_is_an_error_not_a_crash(asaas, team, client, body):
    recharge = pending_recharge(asaas, team.team)

    response = notify(client, body)

    assert response.status_code in (400, 401)
    error = response.json()
    assert error["success"] is False
    assert set(error["error"]) == {"code", "message", "details"}
    assert_nothing_credited(recharge)
    assert not ProviderNotification.objects.exists()


def test_unknown_provider_is_404(asaas, team, client):
    for name in ("pagseguro", "sandbox"):
        response = client.post(
            f"/api/v1/payments/{name}/notifications",
            data="{}",
            content_type="application/json",
            headers={"asaas-access-token": WEBHOOK_TOKEN},
        )
        assert response.status_code == 404
        assert response.json() == {
            "success": False,
            "error": {"code": "not_found", "message": "Not found", "details": None},
        }


def test_get_is_405_in_the_error_shape(asaas, client):
    response = client.get(URL, headers={"asaas-access-token": WEBHOOK_TOKEN})

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_unconfigured_asaas_asks_for_a_retry(asaas, settings, team, client):
    """Without the token we cannot authenticate anything; Asaas keeps the event and retries."""
    recharge = pending_recharge(asaas, team.team)
    settings.ASAAS_WEBHOOK_TOKEN = ""

    response = notify(client, event_body(recharge), token="")

    assert response.status_code == 503
    assert response.json()["success"] is False
    assert_nothing_credited(recharge)


# --- Applying payments --------------------------------------------------------------------------


def test_payment_received_credits_the_recharge(asaas, team, client):
    recharge = pending_recharge(asaas, team.team)
    assert balance_of(team.team) == Decimal("0.00")

    response = notify(client, event_body(recharge, value=Decimal("250.0")))

    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "paid"}
    completed = assert_credited_once(recharge, "250.00")
    assert completed.previous_attributes["status"] == "pending"
    [stored] = ProviderNotification.objects.all()
    assert (stored.provider, stored.event_id, stored.event_type) == (
        "asaas",
        EVENT_ID,
        "PAYMENT_RECEIVED",
    )
    assert stored.recharge_id == recharge.id
    assert stored.payload["payment"]["externalReference"] == recharge.id


def test_the_same_event_again_changes_nothing(asaas, team, client):
    recharge = pending_recharge(asaas, team.team)
    body = event_body(recharge)
    assert notify(client, body).status_code == 200

    again = notify(client, body)

    assert again.status_code == 200
    assert again.json() == {"received": True, "result": "duplicate"}
    assert_credited_once(recharge, "250.00")
    assert ProviderNotification.objects.count() == 1


def test_confirmed_after_received_credits_once(asaas, team, client):
    recharge = pending_recharge(asaas, team.team)
    assert notify(client, event_body(recharge)).status_code == 200

    confirmed = notify(
        client,
        event_body(
            recharge,
            event="PAYMENT_CONFIRMED",
            event_id="evt_d26e303b238e509335ac9ba210e51b0f&368604921",
            status="CONFIRMED",
        ),
    )

    assert confirmed.status_code == 200
    assert_credited_once(recharge, "250.00")
    assert ProviderNotification.objects.count() == 2


def test_payment_after_expiry_is_still_credited(asaas, team, client):
    """Real money is never dropped: a PIX paid after our 30 minutes is credited."""
    recharge = pending_recharge(asaas, team.team)
    assert recharge_expire(recharge=recharge, now=recharge.expires_at + timedelta(minutes=1))
    recharge.refresh_from_db()
    assert recharge.status == Recharge.Status.EXPIRED

    response = notify(client, event_body(recharge))

    assert response.status_code == 200
    completed = assert_credited_once(recharge, "250.00")
    assert completed.previous_attributes["status"] == "expired"


def test_payment_deleted_fails_a_pending_recharge(asaas, team, client):
    recharge = pending_recharge(asaas, team.team)

    response = notify(client, event_body(recharge, event="PAYMENT_DELETED", status="PENDING"))

    assert response.status_code == 200
    assert response.json()["result"] == "failed"
    assert_nothing_credited(recharge, status=Recharge.Status.FAILED)
    assert recharge.failure_reason == "PAYMENT_DELETED"


def test_payment_deleted_does_not_undo_a_completed_recharge(asaas, team, client):
    recharge = pending_recharge(asaas, team.team)
    assert notify(client, event_body(recharge)).status_code == 200

    response = notify(
        client,
        event_body(recharge, event="PAYMENT_DELETED", event_id="evt_deleted&368604922"),
    )

    assert response.status_code == 200
    assert_credited_once(recharge, "250.00")


def test_other_events_are_recorded_and_ignored(asaas, team, client):
    recharge = pending_recharge(asaas, team.team)

    response = notify(client, event_body(recharge, event="PAYMENT_CREATED", status="PENDING"))

    assert response.status_code == 200
    assert response.json()["result"] == "ignored"
    assert_nothing_credited(recharge)


def test_unknown_charge_is_acknowledged_and_credits_nothing(asaas, team, client):
    recharge = pending_recharge(asaas, team.team)

    response = notify(client, event_body(recharge, payment_id="pay_999999999999"))

    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "unknown_charge"}
    assert_nothing_credited(recharge)
    assert ProviderNotification.objects.get().recharge_id is None


def test_a_sandbox_charge_cannot_be_paid_by_an_asaas_notification(asaas, team, client):
    """Test-mode recharges never touch Asaas; knowing their charge id must not credit them."""
    sandbox = recharge_create(
        team=team.team, live_mode=False, amount=Decimal("250.00"), payment_method="pix"
    )
    assert sandbox.provider == "sandbox"

    response = notify(client, event_body(sandbox))

    assert response.status_code == 200
    assert response.json()["result"] == "unknown_charge"
    sandbox.refresh_from_db()
    assert sandbox.status == Recharge.Status.PENDING
    assert not Transaction.objects.filter(reference_id=sandbox.id).exists()


# --- Concurrency (PostgreSQL) -------------------------------------------------------------------

THREADS = 8


def _send_concurrently(bodies: list[str]) -> list:
    """Each body from its own thread, client and database connection, all released at once."""
    barrier = threading.Barrier(len(bodies), timeout=30)
    results: list = [None] * len(bodies)

    def send(index: int) -> None:
        try:
            client = Client()
            barrier.wait()
            response = notify(client, bodies[index])
            results[index] = (response.status_code, response.json().get("result"))
        except Exception as exc:  # reported by the assertions below
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return results


def _check_ledger() -> str:
    out = StringIO()
    call_command("check_ledger", stdout=out)  # raises CommandError on any inconsistency
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicates_credit_once(asaas, team):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: concurrent transactions and row locks")
    recharge = pending_recharge(asaas, team.team)

    results = _send_concurrently([event_body(recharge)] * THREADS)

    assert sorted(results) == [(200, "duplicate")] * (THREADS - 1) + [(200, "paid")], results
    assert_credited_once(recharge, "250.00")
    assert ProviderNotification.objects.count() == 1
    assert "consistent" in _check_ledger()


@pytest.mark.django_db(transaction=True)
def test_concurrent_different_events_for_one_payment_credit_once(asaas, team):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: concurrent transactions and row locks")
    recharge = pending_recharge(asaas, team.team)
    bodies = [
        event_body(
            recharge,
            event="PAYMENT_RECEIVED" if i % 2 == 0 else "PAYMENT_CONFIRMED",
            event_id=f"evt_05b708f961d739ea7eba7e4db318f62{i}&36860492{i}",
            status="RECEIVED" if i % 2 == 0 else "CONFIRMED",
        )
        for i in range(THREADS)
    ]

    results = _send_concurrently(bodies)

    assert results == [(200, "paid")] * THREADS, results
    assert_credited_once(recharge, "250.00")
    assert ProviderNotification.objects.filter(recharge=recharge).count() == THREADS
    assert "consistent" in _check_ledger()
