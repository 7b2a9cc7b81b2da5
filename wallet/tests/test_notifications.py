"""Inbound Asaas payment notifications: POST /api/v1/payments/asaas/notifications.

The recharge is created for real through recharge_create, with Asaas's HTTP API mocked by
`responses`; the notification then goes through the test client like Asaas's webhook would
(https://docs.asaas.com/docs/payment-events): a JSON event with a unique `id`, authenticated by
the `asaas-access-token` header. Before anything is credited the payment is read back with
`GET /v3/payments/{id}` (https://docs.asaas.com/reference/retrieve-a-single-payment), answered
here by recorded bodies in Asaas's documented payment shape (payment_body)."""

import html
import json
import threading
from datetime import timedelta
from decimal import Decimal
from io import StringIO
from unittest.mock import ANY

import pytest
import requests
from django.core.management import call_command
from django.db import connection
from django.test import Client

from agencies.models import User
from tests.kit.marks import needs_postgresql
from wallet.emails import notification_alert_send, notification_alerts_requeue
from wallet.models import ProviderNotification, Recharge, Transaction, Wallet
from wallet.services import recharge_create, recharge_expire
from wallet.tests.asaas import (
    API_KEY,
    BASE_URL,
    EVENT_ID,
    NOTIFICATIONS_URL,
    PAYMENT_ID,
    SUPPORT,
    WEBHOOK_TOKEN,
    add_read_back,
    asaas_json,
    asaas_payment,
    calls_to,
    error_body,
    event_body,
    notify,
    pending_recharge,
)
from webhooks.models import Event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("support_alerts")]

UNAUTHORIZED = {
    "success": False,
    "error": {
        "code": "unauthorized",
        "message": "Unauthorized",
        "details": None,
        "request_id": ANY,
        "doc_url": "http://testserver/api/v1/docs/errors/unauthorized",
    },
}
RETRY_LATER = {
    "success": False,
    "error": {
        "code": "payment_provider_error",
        "message": "The payment provider is unavailable; try again later",
        "details": None,
        "request_id": ANY,
        "doc_url": "http://testserver/api/v1/docs/errors/payment_provider_error",
    },
}


@pytest.fixture
def deliver(client, django_capture_on_commit_callbacks):
    """POST a notification as Asaas does, then run what the request queued after its commit
    (the support alert task, eager in tests), as a real worker would."""

    def deliver(body, *, token: str | None = WEBHOOK_TOKEN):
        with django_capture_on_commit_callbacks(execute=True):
            return notify(client, body, token=token)

    return deliver


def add_not_found(rsps, payment_id: str):
    rsps.get(
        f"{BASE_URL}/payments/{payment_id}",
        status=404,
        body=asaas_json(error_body("invalid_object", "Cobrança não encontrada.")),
        content_type="application/json",
    )


def read_backs(rsps, payment_id: str = PAYMENT_ID) -> list:
    return calls_to(rsps, "GET", f"/payments/{payment_id}")


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


def assert_rejected(
    response, reason: str, mailoutbox, *, event_id: str = EVENT_ID, ledger_rows: int = 0
):
    """The notification is acknowledged (Asaas must not resend it), stored as rejected with
    its reason, credits nothing (the ledger holds only the `ledger_rows` made before it), and
    support got exactly one e-mail about it."""
    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "rejected", "reason": reason}
    row = ProviderNotification.objects.get(event_id=event_id)
    assert (row.state, row.reason) == ("rejected", reason)
    assert row.detail
    assert row.alert_sent_at is not None and row.alert_sent_to == SUPPORT
    assert Transaction.objects.count() == ledger_rows
    [mail] = mailoutbox
    assert mail.to == [SUPPORT]
    assert mail.subject.startswith("Notificação de pagamento rejeitada: ")
    assert row.get_reason_display() in mail.subject
    assert event_id in mail.body and row.payment_id in mail.body
    assert row.detail in mail.body
    assert f"/admin/wallet/providernotification/{row.pk}/change/" in mail.body
    [html_body] = [content for content, mime in mail.alternatives if mime == "text/html"]
    assert row.get_reason_display() in html.unescape(html_body)
    return row


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
    recharge = pending_recharge(asaas, team)

    response = notify(client, event_body(recharge), token=token)

    assert response.status_code == 401
    assert response.json() == UNAUTHORIZED
    assert_nothing_credited(recharge)
    assert not ProviderNotification.objects.exists()
    assert read_backs(asaas) == []  # an unauthenticated request never makes us call Asaas


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
            '{"id": "evt_' + "1" * 200 + '", "event": "PAYMENT_RECEIVED",'
            ' "payment": {"id": "pay_080225913252", "value": 250.0}}',
            id="id-too-long",
        ),
    ],
)
def test_an_authentic_but_unusable_body_is_dropped_with_200_not_a_crash(asaas, team, client, body):
    """With the right token, a body that can never be used is answered 200 "rejected" (Asaas
    would otherwise retry it and then pause the whole notification queue), nothing stored."""
    recharge = pending_recharge(asaas, team)

    response = notify(client, body)

    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "rejected", "reason": "unusable_event"}
    assert_nothing_credited(recharge)
    assert not ProviderNotification.objects.exists()
    assert read_backs(asaas) == []


@pytest.mark.parametrize("where", ["id", "payment.id", "event"])
def test_a_nul_in_an_id_is_dropped_with_200_not_a_500(asaas, team, client, where):
    """The review's finding: a NUL in a notification's ids gave 500 (PostgreSQL refuses it in
    text), which Asaas retries and then pauses the queue over."""
    recharge = pending_recharge(asaas, team)
    event = json.loads(event_body(recharge))
    if where == "payment.id":
        event["payment"]["id"] += "\u0000"
    else:
        event[where] += "\u0000"

    response = notify(client, json.dumps(event))

    assert response.status_code == 200
    assert response.json()["result"] == "rejected"
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
            "error": {
                "code": "not_found",
                "message": "Not found",
                "details": None,
                "request_id": response["X-Request-Id"],
                "doc_url": "http://testserver/api/v1/docs/errors/not_found",
            },
        }


def test_get_is_405_in_the_error_shape(asaas, client):
    response = client.get(NOTIFICATIONS_URL, headers={"asaas-access-token": WEBHOOK_TOKEN})

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_unconfigured_asaas_asks_for_a_retry(asaas, settings, team, client):
    """Without the token we cannot authenticate anything; Asaas keeps the event and retries."""
    recharge = pending_recharge(asaas, team)
    settings.ASAAS_WEBHOOK_TOKEN = ""

    response = notify(client, event_body(recharge), token="")

    assert response.status_code == 503
    assert response.json()["success"] is False
    assert_nothing_credited(recharge)


# --- Verified payments: credited once, for the recharge amount ----------------------------------


def test_payment_received_is_read_back_and_credits_the_recharge(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, value=Decimal("250.0"))
    assert balance_of(team) == Decimal("0.00")

    response = deliver(event_body(recharge, value=Decimal("250.0")))

    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "paid"}
    completed = assert_credited_once(recharge, "250.00")
    assert completed.previous_attributes["status"] == "pending"
    [read_back] = read_backs(asaas)
    assert read_back.request.headers["access_token"] == API_KEY
    [stored] = ProviderNotification.objects.all()
    assert (stored.provider, stored.event_id, stored.event_type) == (
        "asaas",
        EVENT_ID,
        "PAYMENT_RECEIVED",
    )
    assert (stored.state, stored.reason, stored.payment_id) == ("paid", "", PAYMENT_ID)
    assert stored.recharge_id == recharge.id
    assert (stored.provider_status, stored.provider_value, stored.provider_reference) == (
        "RECEIVED",
        "250.0",
        recharge.id,
    )
    assert stored.payload["payment"]["externalReference"] == recharge.id
    assert stored.alert_sent_at is None
    assert mailoutbox == []


@pytest.mark.parametrize(
    "value",
    [
        pytest.param('"1e6"', id="string-1e6"),
        pytest.param("1e6", id="number-1e6"),
        pytest.param("100.001", id="three-decimals"),
        pytest.param('"abc"', id="not-a-number"),
        pytest.param("-250.0", id="negative"),
        pytest.param("null", id="null"),
    ],
)
def test_the_notification_value_is_never_what_is_credited(asaas, team, deliver, mailoutbox, value):
    """The bug this fixes: a 100.00 recharge was credited 1,000,000.00 because the notification
    said `"value": "1e6"`. Whatever the notification says, what Asaas says is checked and the
    recharge amount is what is credited."""
    recharge = pending_recharge(asaas, team, amount="100.00")
    add_read_back(asaas, recharge, value=Decimal("100.00"))
    body = event_body(recharge).replace('"value": 100.00,', f'"value": {value},', 1)
    assert f'"value": {value},' in body

    response = deliver(body)

    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "paid"}
    assert_credited_once(recharge, "100.00")
    assert mailoutbox == []


def test_the_same_event_again_changes_nothing(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge)
    body = event_body(recharge)
    assert deliver(body).status_code == 200

    again = deliver(body)

    assert again.status_code == 200
    assert again.json() == {"received": True, "result": "duplicate"}
    assert_credited_once(recharge, "250.00")
    assert ProviderNotification.objects.count() == 1
    assert len(read_backs(asaas)) == 1  # an applied event id is not even read back again
    assert mailoutbox == []


def test_confirmed_after_received_credits_once(asaas, team, deliver):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status="RECEIVED")
    add_read_back(asaas, recharge, status="CONFIRMED")
    assert deliver(event_body(recharge)).status_code == 200

    confirmed = deliver(
        event_body(
            recharge,
            event="PAYMENT_CONFIRMED",
            event_id="evt_d26e303b238e509335ac9ba210e51b0f&368604921",
            status="CONFIRMED",
        ),
    )

    assert confirmed.status_code == 200
    assert confirmed.json()["result"] == "paid"
    assert_credited_once(recharge, "250.00")
    assert ProviderNotification.objects.filter(state="paid").count() == 2


def test_payment_after_expiry_is_still_credited(asaas, team, deliver):
    """Real money is never dropped: a PIX paid after our 30 minutes is credited."""
    recharge = pending_recharge(asaas, team)
    assert recharge_expire(recharge=recharge, now=recharge.expires_at + timedelta(minutes=1))
    recharge.refresh_from_db()
    assert recharge.status == Recharge.Status.EXPIRED
    add_read_back(asaas, recharge)

    response = deliver(event_body(recharge))

    assert response.status_code == 200
    completed = assert_credited_once(recharge, "250.00")
    assert completed.previous_attributes["status"] == "expired"


# --- Rejected: nothing credited, stored with the reason, support alerted once -------------------


@pytest.mark.parametrize(
    ("asaas_value", "expected"),
    [
        pytest.param(Decimal("1e6"), "1000000", id="1e6"),
        pytest.param(Decimal("100.001"), "100.001", id="100.001"),
        pytest.param(Decimal("99.99"), "99.99", id="a-cent-less"),
        pytest.param(Decimal("1000.00"), "1000.00", id="another-amount"),
    ],
)
def test_a_payment_of_another_value_at_asaas_is_rejected(
    asaas, team, deliver, mailoutbox, asaas_value, expected
):
    recharge = pending_recharge(asaas, team, amount="100.00")
    add_read_back(asaas, recharge, value=asaas_value)

    response = deliver(event_body(recharge, value=asaas_value))

    row = assert_rejected(response, "amount_mismatch", mailoutbox)
    assert_nothing_credited(recharge)
    assert row.recharge_id == recharge.id
    assert row.provider_value == expected
    assert row.detail == f"The provider says the payment is {expected}; the recharge is 100.00."


def test_a_payment_asaas_does_not_know_is_rejected(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_not_found(asaas, PAYMENT_ID)

    response = deliver(event_body(recharge))

    row = assert_rejected(response, "payment_not_found", mailoutbox)
    assert_nothing_credited(recharge)
    assert row.provider_status == "" and row.provider_value == ""
    assert "(pagamento inexistente)" in mailoutbox[0].body


@pytest.mark.parametrize(
    "reference",
    ["rch_3f9a0c2b7d1e4a5f8b6c0d9e", "056984", ""],
    ids=["other-rch", "foreign", "none"],
)
def test_a_payment_for_another_reference_is_rejected(asaas, team, deliver, mailoutbox, reference):
    """Asaas says the payment is real and received, but not for this recharge."""
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, external_reference=reference)

    response = deliver(event_body(recharge))

    row = assert_rejected(response, "foreign_reference", mailoutbox)
    assert_nothing_credited(recharge)
    assert row.provider_reference == reference
    assert recharge.id in mailoutbox[0].body and team.name in mailoutbox[0].body


@pytest.mark.parametrize(
    ("status", "deleted"),
    [
        ("PENDING", False),
        ("OVERDUE", False),
        ("RECEIVED_IN_CASH", False),  # marked by hand in Asaas: no money reached the account
        ("AWAITING_RISK_ANALYSIS", False),
        ("REFUNDED", False),
        ("RECEIVED", True),  # a removed payment is not a payment
    ],
)
def test_a_payment_asaas_does_not_say_is_received_is_rejected(
    asaas, team, deliver, mailoutbox, status, deleted
):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status=status, deleted=deleted)

    response = deliver(event_body(recharge))  # claims PAYMENT_RECEIVED

    row = assert_rejected(response, "not_received", mailoutbox)
    assert_nothing_credited(recharge)
    assert row.provider_status == status
    assert status in row.detail


def test_a_payment_no_recharge_has_is_rejected(asaas, team, deliver, mailoutbox):
    """A real payment in our Asaas account that no recharge of ours holds (a charge created by
    hand in Asaas, or one whose creation crashed before we stored its id): support decides."""
    recharge = pending_recharge(asaas, team)
    stranger = "pay_999999999999"
    add_read_back(asaas, recharge, payment_id=stranger)

    response = deliver(event_body(recharge, payment_id=stranger))

    row = assert_rejected(response, "unknown_payment", mailoutbox)
    assert_nothing_credited(recharge)
    assert row.recharge_id is None and row.payment_id == stranger
    assert "Nenhuma de nossas recargas tem este id de pagamento." in mailoutbox[0].body


def test_asaas_answering_for_another_payment_is_rejected(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        body=asaas_json(asaas_payment(recharge, payment_id="pay_000000000001")),
        content_type="application/json",
    )

    response = deliver(event_body(recharge))

    assert_rejected(response, "payment_mismatch", mailoutbox)
    assert_nothing_credited(recharge)


def test_a_sandbox_charge_cannot_be_paid_by_an_asaas_notification(asaas, team, deliver, mailoutbox):
    """Test-mode recharges never touch Asaas; knowing their charge id must not credit them."""
    sandbox = recharge_create(
        team=team, live_mode=False, amount=Decimal("250.00"), payment_method="pix"
    )
    assert sandbox.provider == "sandbox"
    add_not_found(asaas, sandbox.provider_charge_id)

    response = deliver(event_body(sandbox))

    row = assert_rejected(response, "payment_not_found", mailoutbox)
    assert row.recharge_id is None
    sandbox.refresh_from_db()
    assert sandbox.status == Recharge.Status.PENDING
    assert not Transaction.objects.filter(reference_id=sandbox.id).exists()


def test_a_rejected_event_sent_again_is_stored_and_alerted_once(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status="PENDING")
    body = event_body(recharge)
    assert_rejected(deliver(body), "not_received", mailoutbox)

    again = deliver(body)

    assert again.json() == {"received": True, "result": "duplicate"}
    assert ProviderNotification.objects.count() == 1
    assert len(mailoutbox) == 1
    assert len(read_backs(asaas)) == 1


# --- Asaas unreachable: nothing applied, 5xx so that Asaas sends it again ----------------------


def _timeout(rsps):
    rsps.get(f"{BASE_URL}/payments/{PAYMENT_ID}", body=requests.ReadTimeout("Read timed out."))


def _connection_refused(rsps):
    rsps.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        body=requests.ConnectionError("Failed to establish a new connection: [Errno 111]"),
    )


def _server_error(rsps):
    rsps.get(f"{BASE_URL}/payments/{PAYMENT_ID}", status=500, body="")


def _bad_gateway_html(rsps):
    rsps.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        status=502,
        body="<html><body>502 Bad Gateway</body></html>",
        content_type="text/html",
    )


def _ok_but_not_json(rsps):
    rsps.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        body="<html>maintenance</html>",
        content_type="text/html",
    )


def _api_key_refused(rsps):
    rsps.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        status=401,
        body=asaas_json(error_body("invalid_access_token", "A chave de API fornecida é inválida")),
        content_type="application/json",
    )


def _value_not_a_number(recharge):
    def register(rsps):
        payment = asaas_payment(recharge)
        payment["value"] = "250.00"  # Asaas writes amounts as JSON numbers
        rsps.get(
            f"{BASE_URL}/payments/{PAYMENT_ID}",
            body=asaas_json(payment),
            content_type="application/json",
        )

    return register


def _value_nan(rsps):
    rsps.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        body='{"object": "payment", "id": "pay_080225913252", "status": "RECEIVED",'
        ' "value": NaN, "externalReference": "x", "deleted": false}',
        content_type="application/json",
    )


@pytest.mark.parametrize(
    "failure",
    [
        _timeout,
        _connection_refused,
        _server_error,
        _bad_gateway_html,
        _ok_but_not_json,
        _api_key_refused,
        "value-not-a-number",
        _value_nan,
    ],
    ids=lambda f: f if isinstance(f, str) else f.__name__.strip("_"),
)
def test_asaas_unreachable_answers_503_then_the_retry_credits_once(
    asaas, team, deliver, mailoutbox, caplog, failure
):
    recharge = pending_recharge(asaas, team)
    (_value_not_a_number(recharge) if failure == "value-not-a-number" else failure)(asaas)
    add_read_back(asaas, recharge)  # the next read back works (responses answers in order)
    body = event_body(recharge)

    response = deliver(body)

    assert response.status_code == 503
    assert response.json() == RETRY_LATER
    assert_nothing_credited(recharge)
    assert not ProviderNotification.objects.exists()  # the event id is not spent
    assert mailoutbox == []
    assert "Could not read back asaas payment pay_080225913252" in caplog.text

    retry = deliver(body)  # Asaas sends the same event again later

    assert retry.status_code == 200
    assert retry.json() == {"received": True, "result": "paid"}
    assert_credited_once(recharge, "250.00")
    assert deliver(body).json()["result"] == "duplicate"
    assert_credited_once(recharge, "250.00")
    assert len(read_backs(asaas)) == 2
    assert mailoutbox == []


# --- Failures, read back too --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "status", "deleted"),
    [
        ("PAYMENT_DELETED", "PENDING", True),
        ("PAYMENT_REFUNDED", "REFUNDED", False),
    ],
)
def test_a_confirmed_failure_fails_a_pending_recharge(
    asaas, team, deliver, mailoutbox, event, status, deleted
):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status=status, deleted=deleted)

    response = deliver(event_body(recharge, event=event, status=status))

    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "failed"}
    assert_nothing_credited(recharge, status=Recharge.Status.FAILED)
    assert recharge.failure_reason == event
    assert ProviderNotification.objects.get().state == "failed"
    assert mailoutbox == []


def test_a_deletion_asaas_does_not_confirm_is_rejected(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status="PENDING")

    response = deliver(event_body(recharge, event="PAYMENT_DELETED", status="PENDING"))

    row = assert_rejected(response, "not_failed", mailoutbox)
    assert_nothing_credited(recharge)  # still pending: the payer can still pay it
    assert "PAYMENT_DELETED" in row.detail and "PENDING" in row.detail


def test_payment_deleted_does_not_undo_a_completed_recharge(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge)  # received, then still received when the deletion comes
    add_read_back(asaas, recharge)
    assert deliver(event_body(recharge)).status_code == 200

    response = deliver(
        event_body(recharge, event="PAYMENT_DELETED", event_id="evt_deleted&368604922"),
    )

    assert_rejected(
        response, "not_failed", mailoutbox, event_id="evt_deleted&368604922", ledger_rows=1
    )
    assert_credited_once(recharge, "250.00")


def test_a_refund_after_the_credit_takes_the_money_back_and_alerts_support(
    asaas, team, deliver, mailoutbox
):
    """The money went back to the payer after the wallet was credited: the recharge stays
    completed (never failed), its credit stays, and a reversal debits it back (a new
    transaction, docs/reversals.md); support is told."""
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge)
    add_read_back(asaas, recharge, status="REFUNDED")
    assert deliver(event_body(recharge)).status_code == 200

    response = deliver(
        event_body(recharge, event="PAYMENT_REFUNDED", event_id="evt_refund&1", status="REFUNDED")
    )

    assert response.json() == {"received": True, "result": "reversed"}
    row = ProviderNotification.objects.get(event_id="evt_refund&1")
    assert (row.state, row.reason, row.provider_status) == ("reversed", "", "REFUNDED")
    recharge.refresh_from_db()
    assert recharge.status == Recharge.Status.COMPLETED
    [reversal] = recharge.reversals.all()
    assert (reversal.amount, reversal.debited_amount, reversal.debt_created) == (
        Decimal("250.00"),
        Decimal("250.00"),
        Decimal("0.00"),
    )
    assert list(
        Transaction.objects.filter(team=team)
        .order_by("sequence")
        .values_list("type", "reference_type", "amount", "balance_after")
    ) == [
        ("credit", "recharge", Decimal("250.00"), Decimal("250.00")),
        ("debit", "reversal", Decimal("250.00"), Decimal("0.00")),
    ]
    [mail] = mailoutbox
    assert "Recarga estornada depois do crédito" in mail.subject


def test_other_events_are_read_back_recorded_and_ignored(asaas, team, deliver, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status="PENDING")

    response = deliver(event_body(recharge, event="PAYMENT_CREATED", status="PENDING"))

    assert response.status_code == 200
    assert response.json() == {"received": True, "result": "ignored"}
    assert_nothing_credited(recharge)
    row = ProviderNotification.objects.get()
    assert (row.state, row.reason, row.provider_status) == ("ignored", "", "PENDING")
    assert mailoutbox == []


# --- The support alert --------------------------------------------------------------------------


def test_a_lost_alert_is_sent_by_the_sweep_once(asaas, team, client, mailoutbox):
    """The alert is a row before it is a message: if the message is lost (here: the request's
    after-commit callbacks never run, as when the broker is down), the sweep sends it."""
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status="PENDING")
    response = notify(client, event_body(recharge))
    assert response.json()["result"] == "rejected"
    row = ProviderNotification.objects.get()
    assert row.alert_sent_at is None and mailoutbox == []

    assert notification_alerts_requeue(now=row.received_at + timedelta(seconds=30)) == 0
    assert notification_alerts_requeue(now=row.received_at + timedelta(minutes=3)) == 1

    [mail] = mailoutbox
    assert EVENT_ID in mail.body
    row.refresh_from_db()
    assert row.alert_sent_at is not None
    assert notification_alerts_requeue(now=row.received_at + timedelta(minutes=10)) == 0
    assert notification_alert_send(notification_id=row.pk) is False  # a duplicate message
    assert len(mailoutbox) == 1


def test_without_the_setting_the_support_staff_are_alerted(
    asaas, settings, team, deliver, mailoutbox
):
    settings.SUPPORT_ALERT_EMAILS = []
    User.objects.create_superuser("root", "root@agency.example", "x")
    User.objects.create_user("desk", "desk@agency.example", "x", is_staff=True)
    User.objects.create_user("gone", "gone@agency.example", "x", is_staff=True, is_active=False)
    # An agency user (staff of a team) is not support: they never hear of other payments.
    User.objects.create_user("ana", "ana@alpha.example", "x", is_staff=True, team=team)
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status="PENDING")

    deliver(event_body(recharge))

    [mail] = mailoutbox
    assert mail.to == ["desk@agency.example", "root@agency.example"]
    row = ProviderNotification.objects.get()
    assert row.alert_sent_to == "desk@agency.example, root@agency.example"


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


@needs_postgresql("concurrent transactions and row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicates_credit_once(asaas, team, mailoutbox):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge)

    results = _send_concurrently([event_body(recharge)] * THREADS)

    assert sorted(results) == [(200, "duplicate")] * (THREADS - 1) + [(200, "paid")], results
    assert_credited_once(recharge, "250.00")
    assert ProviderNotification.objects.count() == 1
    assert "consistent" in _check_ledger()
    assert mailoutbox == []


@needs_postgresql("concurrent transactions and row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_different_events_for_one_payment_credit_once(asaas, team):
    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge)
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


@needs_postgresql("concurrent transactions and row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicates_of_a_rejected_event_alert_once(asaas, team, mailoutbox):
    recharge = pending_recharge(asaas, team, amount="100.00")
    add_read_back(asaas, recharge, value=Decimal("1e6"))

    results = _send_concurrently([event_body(recharge, value=Decimal("1e6"))] * THREADS)

    assert sorted(results) == [(200, "duplicate")] * (THREADS - 1) + [(200, "rejected")], results
    assert_nothing_credited(recharge)
    [row] = ProviderNotification.objects.all()
    assert (row.state, row.reason) == ("rejected", "amount_mismatch")
    assert row.alert_sent_at is not None
    assert len(mailoutbox) == 1


def test_a_payment_id_cannot_steer_the_read_back_elsewhere(asaas, team, deliver, mailoutbox):
    """The id comes from the notification: it is one path segment, escaped, never a path."""
    recharge = pending_recharge(asaas, team)
    crafted = "pay_1/../../customers?x=1"
    asaas.get(
        f"{BASE_URL}/payments/pay_1%2F..%2F..%2Fcustomers%3Fx%3D1",
        status=404,
        body=asaas_json(error_body("invalid_object", "Cobrança não encontrada.")),
        content_type="application/json",
    )

    response = deliver(event_body(recharge, payment_id=crafted))

    row = assert_rejected(response, "payment_not_found", mailoutbox)
    assert row.payment_id == crafted
    [call] = asaas.calls[-1:]
    assert call.request.path_url == "/v3/payments/pay_1%2F..%2F..%2Fcustomers%3Fx%3D1"
    assert_nothing_credited(recharge)


@needs_postgresql("concurrent transactions and row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_verify_again_and_a_new_event_credit_once(asaas, team):
    """Two support agents verify the same rejected notification again while Asaas's next event
    for the payment arrives: one credit, whatever the order."""
    from wallet.services import NotificationNotRejected, notification_verify_again

    recharge = pending_recharge(asaas, team)
    add_read_back(asaas, recharge, status="PENDING")
    assert notify(Client(), event_body(recharge)).json()["result"] == "rejected"
    rejected = ProviderNotification.objects.get()
    add_read_back(asaas, recharge, status="RECEIVED")  # from now on, Asaas says received
    barrier = threading.Barrier(3, timeout=30)
    results: list = [None] * 3

    def verify(index: int) -> None:
        try:
            barrier.wait()
            results[index] = notification_verify_again(notification=rejected).state
        except NotificationNotRejected:
            results[index] = "not_rejected"
        except Exception as exc:  # reported by the assertions below
            results[index] = exc
        finally:
            connection.close()

    def confirmed_event(index: int) -> None:
        try:
            barrier.wait()
            body = event_body(recharge, event="PAYMENT_CONFIRMED", event_id="evt_c&2")
            results[index] = notify(Client(), body).json()["result"]
        except Exception as exc:  # reported by the assertions below
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=verify, args=(i,)) for i in (0, 1)]
    threads.append(threading.Thread(target=confirmed_event, args=(2,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(results[:2]) == ["not_rejected", "paid"], results
    assert results[2] == "paid", results
    assert_credited_once(recharge, "250.00")
    assert "consistent" in _check_ledger()
