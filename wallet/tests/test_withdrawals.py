"""Withdrawals to the team's own account, over the API, against a stateful fake of Asaas's
transfer API (wallet/tests/asaas.py, FakeAsaasTransfers, built from Asaas's documented shapes):
everything of ours runs for real (services, views, the ledger, the outbox, the notification
endpoint). Every money path ends with the ledger check clean."""

from datetime import timedelta
from decimal import Decimal
from email.utils import formataddr
from io import StringIO

import pytest
import responses
import time_machine
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.test import Client as BrowserClient
from django.urls import reverse
from django.utils import timezone

from agencies.tests.factories import SupportUserFactory
from core.models import AuditEntry
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.models import PayoutKey, ProviderNotification, Transaction, Wallet, Withdrawal
from wallet.services import payout_key_register, withdrawals_check_open
from wallet.services.withdrawals import holder_is_team
from wallet.tests.asaas import (
    API_KEY,
    BASE_URL,
    OTHER_CNPJ,
    TEAM_CNPJ,
    WEBHOOK_TOKEN,
    FakeAsaasTransfers,
    notify,
)
from webhooks.models import Event

pytestmark = pytest.mark.django_db

WITHDRAWALS = "/api/v1/wallet/withdrawals"
KEY = "11222333000181"  # the team's CNPJ as its payout key


@pytest.fixture
def fake_asaas(settings):
    """Live mode uses Asaas, answered by the stateful fake (any other call fails)."""
    settings.PAYMENT_PROVIDER = "asaas"
    settings.ASAAS_API_KEY = API_KEY
    settings.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN
    settings.ASAAS_BASE_URL = BASE_URL
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        yield FakeAsaasTransfers(rsps)


@pytest.fixture
def payout_team(team):
    """The team with its CNPJ, its payout key and 1,000.00 in its live wallet."""
    team.tax_id = TEAM_CNPJ
    team.save(update_fields=["tax_id"])
    payout_key_register(team=team, key_type="cnpj", key=KEY)
    fund(team, "1000.00")
    return team


def withdraw(client, amount="300.00"):
    return client.post(WITHDRAWALS, {"amount": amount}, format="json")


def balance(team) -> Decimal:
    return Wallet.objects.get(team=team).balance


def movements(withdrawal_id: str) -> list[tuple[str, Decimal]]:
    rows = Transaction.objects.filter(reference_type="withdrawal", reference_id=withdrawal_id)
    return sorted((t.type, t.amount) for t in rows)


def event_types(withdrawal_id: str) -> list[str]:
    return [
        e.type
        for e in Event.objects.filter(type__startswith="wallet.withdrawal.").order_by(
            "created_at", "id"
        )
        if e.data_object["id"] == withdrawal_id
    ]


def assert_ledger_clean() -> None:
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()


def settle_by_event(client, fake, transfer_id, status, event, **kwargs):
    fake.settle(transfer_id, status, **kwargs)
    return notify(client, fake.event(transfer_id, event))


# --- The three journeys of the issue ---------------------------------------------------------


def test_a_withdrawal_completes_and_debits_once(
    live_client, client, payout_team, fake_asaas, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = withdraw(live_client)
    assert response.status_code == 201
    data = response.json()["data"]
    assert data["id"].startswith("wdr_") and data["status"] == "pending"
    assert data["destination"] == {
        "type": "pix",
        "pix_key_type": "cnpj",
        "pix_key": KEY,
        "holder_name": "Alpha Travel Ltda",
        "holder_tax_id": TEAM_CNPJ,
    }
    transfer = fake_asaas.only()
    assert transfer["externalReference"] == data["id"] and transfer["value"] == Decimal("300")
    assert balance(payout_team) == Decimal("700.00")

    # Asaas's events: processing, then done (the transfer is read back each time).
    assert settle_by_event(
        client, fake_asaas, transfer["id"], "BANK_PROCESSING", "TRANSFER_IN_BANK_PROCESSING"
    ).json() == {"received": True, "result": "transfer"}
    assert Withdrawal.objects.get(pk=data["id"]).status == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        done = settle_by_event(client, fake_asaas, transfer["id"], "DONE", "TRANSFER_DONE")
    assert done.status_code == 200
    read = live_client.get(f"{WITHDRAWALS}/{data['id']}").json()["data"]
    assert read["status"] == "completed" and read["completed_at"] is not None
    assert (
        read["transaction_id"] == data["transaction_id"] and read["refund_transaction_id"] is None
    )

    # The same event again, a late one, the periodic check: nothing moves.
    again = fake_asaas.event(transfer["id"], "TRANSFER_DONE", event_id="evt_x")
    assert notify(client, again).json()["result"] == "transfer"
    assert notify(client, again).json()["result"] == "duplicate"
    withdrawals_check_open()
    assert movements(data["id"]) == [("debit", Decimal("300.00"))]
    assert balance(payout_team) == Decimal("700.00")
    assert event_types(data["id"]) == ["wallet.withdrawal.created", "wallet.withdrawal.completed"]
    [email] = mail.outbox
    assert email.subject == "Saque de R$ 300,00 concluído"
    # The service tells the agency about its wallet: from the service, answered to support.
    assert email.from_email == formataddr(("Painel da Agência", settings.SERVICE_EMAIL_ADDRESS))
    assert email.reply_to == [settings.SUPPORT_EMAIL_ADDRESS]
    assert_ledger_clean()


def test_a_failed_transfer_credits_back_once(
    live_client, client, payout_team, fake_asaas, django_capture_on_commit_callbacks
):
    data = withdraw(live_client, "250.00").json()["data"]
    transfer_id = fake_asaas.only()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        settle_by_event(
            client,
            fake_asaas,
            transfer_id,
            "FAILED",
            "TRANSFER_FAILED",
            fail_reason="Conta encerrada",
        )
    read = live_client.get(f"{WITHDRAWALS}/{data['id']}").json()["data"]
    assert read["status"] == "failed" and read["failure_code"] == "transfer_failed"
    assert read["failure_reason"] == "Conta encerrada"
    assert read["refund_transaction_id"] is not None
    assert balance(payout_team) == Decimal("1000.00")

    # Another event of the same failure, a duplicate, the periodic check: credited once only.
    notify(client, fake_asaas.event(transfer_id, "TRANSFER_FAILED"))
    withdrawals_check_open()
    assert movements(data["id"]) == [("credit", Decimal("250.00")), ("debit", Decimal("250.00"))]
    assert balance(payout_team) == Decimal("1000.00")
    assert event_types(data["id"]) == ["wallet.withdrawal.created", "wallet.withdrawal.failed"]
    credits = Event.objects.filter(type="wallet.credit", data_object__reference_id=data["id"])
    assert credits.count() == 1
    [email] = mail.outbox
    assert "creditado de volta" in email.subject
    assert_ledger_clean()


def test_a_cancelled_transfer_is_cancelled_and_credited_back(
    live_client, client, payout_team, fake_asaas
):
    data = withdraw(live_client, "100.00").json()["data"]
    settle_by_event(client, fake_asaas, fake_asaas.only()["id"], "CANCELLED", "TRANSFER_CANCELLED")
    withdrawal = Withdrawal.objects.get(pk=data["id"])
    assert withdrawal.status == "cancelled" and withdrawal.refund_transaction_id
    assert (withdrawal.failure_code, withdrawal.failure_reason) == ("transfer_cancelled", "")
    assert balance(payout_team) == Decimal("1000.00")
    assert event_types(data["id"]) == ["wallet.withdrawal.created", "wallet.withdrawal.failed"]
    assert_ledger_clean()


def test_a_key_held_by_another_cnpj_is_refused_and_credited_back(
    live_client, payout_team, fake_asaas
):
    fake_asaas.key_held_by(KEY, "Outra Empresa Ltda", OTHER_CNPJ)
    data = withdraw(live_client, "400.00").json()["data"]
    assert fake_asaas.cancels == 1
    assert fake_asaas.only()["status"] == "CANCELLED"
    withdrawal = Withdrawal.objects.get(pk=data["id"])
    assert (withdrawal.status, withdrawal.failure_code) == ("failed", "holder_mismatch")
    assert "Outra Empresa Ltda" in withdrawal.failure_reason
    assert "is not the team's CNPJ or CPF" in withdrawal.failure_reason
    assert withdrawal.holder_tax_id == OTHER_CNPJ
    assert movements(data["id"]) == [("credit", Decimal("400.00")), ("debit", Decimal("400.00"))]
    assert balance(payout_team) == Decimal("1000.00")
    withdrawals_check_open()
    assert balance(payout_team) == Decimal("1000.00")
    assert_ledger_clean()


def test_a_key_whose_holder_is_not_yet_known_waits_then_is_refused_when_asaas_names_it(
    live_client, client, payout_team, fake_asaas
):
    fake_asaas.key_held_by(KEY, "", None)  # Asaas has not resolved the key yet
    data = withdraw(live_client).json()["data"]
    assert Withdrawal.objects.get(pk=data["id"]).status == "pending"
    transfer = fake_asaas.only()
    transfer["bankAccount"] = {"ownerName": "Outra Empresa Ltda", "cpfCnpj": OTHER_CNPJ}
    withdrawals_check_open()
    assert Withdrawal.objects.get(pk=data["id"]).status == "failed"
    assert balance(payout_team) == Decimal("1000.00")
    assert_ledger_clean()


# --- Lost answers and a provider that cannot answer ------------------------------------------


@pytest.mark.parametrize(
    "mode", ["timeout_after_create", "5xx_after_create", "unreadable_after_create"]
)
def test_a_lost_answer_is_looked_up_by_our_id_and_never_sent_twice(
    live_client, payout_team, fake_asaas, mode
):
    fake_asaas.fail_next_post(mode)
    response = withdraw(live_client)
    assert response.status_code == 201  # debited: the transfer may exist
    data = response.json()["data"]
    assert data["status"] == "pending" and balance(payout_team) == Decimal("700.00")
    assert Withdrawal.objects.get(pk=data["id"]).provider_transfer_id == ""

    later = timezone.now() + timedelta(minutes=30)  # long after any resend grace
    with time_machine.travel(later):
        withdrawals_check_open()
    withdrawal = Withdrawal.objects.get(pk=data["id"])
    assert withdrawal.provider_transfer_id == fake_asaas.only()["id"]  # found, not re-sent
    assert fake_asaas.posts == 1
    fake_asaas.settle(withdrawal.provider_transfer_id, "DONE")
    withdrawals_check_open()
    assert Withdrawal.objects.get(pk=data["id"]).status == "completed"
    assert movements(data["id"]) == [("debit", Decimal("300.00"))]
    assert_ledger_clean()


@pytest.mark.parametrize("mode", ["timeout", "5xx"])
def test_a_request_that_never_reached_asaas_is_sent_again_only_after_the_grace(
    live_client, payout_team, fake_asaas, mode
):
    fake_asaas.fail_next_post(mode)
    data = withdraw(live_client).json()["data"]
    assert fake_asaas.transfers == {} and fake_asaas.posts == 1
    withdrawals_check_open()  # it may still be in flight: looked up, not sent
    assert fake_asaas.posts == 1
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        withdrawals_check_open()  # none at Asaas, requested long ago: sent again
        withdrawals_check_open()  # and now found by its id: not a third time
    assert fake_asaas.posts == 2 and len(fake_asaas.transfers) == 1
    assert Withdrawal.objects.get(pk=data["id"]).submit_attempts == 2
    fake_asaas.settle(fake_asaas.only()["id"], "DONE")
    withdrawals_check_open()
    assert Withdrawal.objects.get(pk=data["id"]).status == "completed"
    assert balance(payout_team) == Decimal("700.00")
    assert_ledger_clean()


def test_a_refusal_fails_at_once_and_credits_back(live_client, payout_team, fake_asaas):
    fake_asaas.fail_next_post("refuse")
    data = withdraw(live_client).json()["data"]
    assert data["status"] == "failed"
    assert (data["failure_code"], data["failure_reason"]) == ("refused", "Saldo insuficiente.")
    assert balance(payout_team) == Decimal("1000.00")
    assert_ledger_clean()


@pytest.mark.parametrize("mode", ["timeout", "5xx", "unreadable"])
def test_an_event_whose_transfer_cannot_be_read_back_is_answered_503_and_kept_for_the_retry(
    live_client, client, payout_team, fake_asaas, mode
):
    data = withdraw(live_client).json()["data"]
    transfer_id = fake_asaas.only()["id"]
    fake_asaas.settle(transfer_id, "DONE")
    body = fake_asaas.event(transfer_id, "TRANSFER_DONE", event_id="evt_retry")
    fake_asaas.fail_next_get(mode)
    assert notify(client, body).status_code == 503
    assert not ProviderNotification.objects.filter(event_id="evt_retry").exists()
    assert Withdrawal.objects.get(pk=data["id"]).status == "pending"
    assert notify(client, body).json()["result"] == "transfer"  # Asaas sends it again
    assert Withdrawal.objects.get(pk=data["id"]).status == "completed"
    assert_ledger_clean()


def test_a_late_event_after_a_final_state_changes_nothing(
    live_client, client, payout_team, fake_asaas
):
    data = withdraw(live_client).json()["data"]
    transfer_id = fake_asaas.only()["id"]
    settle_by_event(client, fake_asaas, transfer_id, "DONE", "TRANSFER_DONE")
    settle_by_event(client, fake_asaas, transfer_id, "CANCELLED", "TRANSFER_CANCELLED")
    assert Withdrawal.objects.get(pk=data["id"]).status == "completed"
    assert movements(data["id"]) == [("debit", Decimal("300.00"))]
    assert_ledger_clean()


def test_an_event_of_a_transfer_we_did_not_make_is_rejected(
    live_client, client, payout_team, fake_asaas, support_alerts
):
    withdraw(live_client)
    transfer = fake_asaas.only()
    transfer["externalReference"] = "made-in-the-asaas-panel"
    Withdrawal.objects.update(provider_transfer_id="")
    answer = notify(client, fake_asaas.event(transfer["id"], "TRANSFER_DONE")).json()
    assert answer == {"received": True, "result": "rejected", "reason": "unknown_transfer"}


def test_an_email_whose_message_was_lost_is_queued_again_and_sent_once(
    live_client, payout_team, fake_asaas, django_capture_on_commit_callbacks
):
    from wallet.tasks import check_withdrawals

    data = withdraw(live_client).json()["data"]  # its callbacks never run: the message is lost
    fake_asaas.settle(fake_asaas.only()["id"], "DONE")
    withdrawals_check_open()  # settled; the queued e-mail is lost again
    assert mail.outbox == [] and Withdrawal.objects.get(pk=data["id"]).status == "completed"
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        check_withdrawals()
        check_withdrawals()
    assert len(mail.outbox) == 1
    assert Withdrawal.objects.get(pk=data["id"]).email_sent_at is not None


# --- The rules of a request ------------------------------------------------------------------


def test_rules_of_amount_key_document_limit_and_balance(live_client, team, settings):
    def error(response):
        body = response.json()["error"]
        return response.status_code, body["code"], body["message"]

    assert error(withdraw(live_client, "9.99")) == (
        400,
        "withdrawal_below_minimum",
        "Minimum withdrawal is R$ 10.00",
    )
    assert error(withdraw(live_client, "abc"))[:2] == (400, "invalid_request")
    assert error(withdraw(live_client))[1] == "tax_id_required"
    team.tax_id = TEAM_CNPJ
    team.save(update_fields=["tax_id"])
    assert error(withdraw(live_client)) == (
        422,
        "payout_key_required",
        "No payout PIX key registered: register one in the panel",
    )
    payout_key_register(team=team, key_type="email", key="Financeiro@Alpha.example")
    assert error(withdraw(live_client)) == (422, "insufficient_balance", "Insufficient balance")
    assert Withdrawal.objects.count() == 0 and Transaction.objects.count() == 0
    fund(team, "90000.00")
    settings.WALLET_WITHDRAWAL_DAILY_LIMIT = Decimal("1000.00")
    assert withdraw(live_client, "600.00").status_code == 201
    over = withdraw(live_client, "400.01")
    assert error(over) == (
        422,
        "withdrawal_daily_limit_exceeded",
        "Daily withdrawal limit exceeded",
    )
    assert over.json()["error"]["details"] == {
        "used_today": ["600.00"],
        "daily_limit": ["1000.00"],
    }
    assert withdraw(live_client, "400.00").status_code == 201
    assert Withdrawal.objects.get(amount=Decimal("400.00")).pix_key == "financeiro@alpha.example"
    assert_ledger_clean()


def test_test_mode_simulates_the_transfer(test_client, live_client, payout_team, other_team_keys):
    done = withdraw(test_client, "150.00").json()["data"]
    assert done["status"] == "completed"  # the sandbox completes at once
    failed = withdraw(test_client, "120.66").json()["data"]
    assert failed["status"] == "failed" and failed["refund_transaction_id"]
    assert balance(payout_team) == Decimal("1000.00")  # the live wallet is untouched
    listed = test_client.get(WITHDRAWALS, {"status": "failed"}).json()
    assert [w["id"] for w in listed["data"]] == [failed["id"]]
    assert listed["pagination"]["total"] == 1
    assert live_client.get(f"{WITHDRAWALS}/{done['id']}").status_code == 404  # another mode
    other = BrowserClient(HTTP_AUTHORIZATION=f"Bearer {other_team_keys.test_key}")
    assert other.get(f"{WITHDRAWALS}/{done['id']}").json()["error"]["code"] == (
        "withdrawal_not_found"
    )
    assert test_client.get(WITHDRAWALS, {"status": "done"}).status_code == 400


@pytest.mark.parametrize(
    ("reported", "own", "verdict"),
    [
        ("11.222.333/0001-81", "11222333000181", True),
        ("11222333000181", "11.222.333/0001-81", True),
        ("45.997.418/0001-53", "11222333000181", False),
        ("***.143.689-**", "529.143.689-11", True),  # Asaas masks CPFs
        ("***.143.689-**", "529.143.680-11", False),
        ("***.***.***-**", "529.143.689-11", False),  # too little shown to tell
        ("", "11222333000181", None),
    ],
)
def test_the_holders_document_is_the_teams_own(reported, own, verdict):
    assert holder_is_team(reported, own) is verdict


# --- The panel ---------------------------------------------------------------------------------


def test_an_agency_user_registers_the_payout_key_after_a_confirmation(team, team_owner):
    browser = BrowserClient()
    browser.force_login(team_owner)
    add = reverse("admin:wallet_payoutkey_add")
    refused = browser.post(add, {"key_type": "cnpj", "key": KEY})
    assert "CNPJ ou CPF da equipe" in refused.content.decode()  # the team's document first
    team.tax_id = TEAM_CNPJ
    team.save(update_fields=["tax_id"])
    foreign = browser.post(add, {"key_type": "cnpj", "key": OTHER_CNPJ})
    assert PayoutKey.objects.count() == 0 and foreign.status_code == 200
    confirmation = browser.post(add, {"key_type": "phone", "key": "+55 (11) 98765-4321"})
    page = confirmation.content.decode()
    assert "11987654321" in page and TEAM_CNPJ in page
    assert PayoutKey.objects.count() == 0  # nothing saved before "yes"
    browser.post(add, {"key_type": "phone", "key": "+55 (11) 98765-4321", "_confirmed": "yes"})
    key = PayoutKey.objects.get(team=team)
    assert (key.key_type, key.key) == ("phone", "11987654321")
    [entry] = AuditEntry.objects.filter(object_pk=str(key.pk), content_type__model="payoutkey")
    assert entry.additional_data["action"] == "payout_key_register"
    assert entry.actor == team_owner


def test_support_checks_a_stuck_withdrawal_again(live_client, payout_team, fake_asaas):
    fake_asaas.fail_next_post("timeout_after_create")
    data = withdraw(live_client).json()["data"]
    fake_asaas.settle(fake_asaas.only()["id"], "DONE")
    browser = BrowserClient()
    browser.force_login(SupportUserFactory())
    url = reverse("admin:wallet_withdrawal_changelist")
    confirmation = browser.post(url, {"action": "check_again", "_selected_action": [data["id"]]})
    assert "ela é procurada em asaas" in confirmation.content.decode()
    assert Withdrawal.objects.get(pk=data["id"]).status == "pending"  # nothing before "yes"
    browser.post(url, {"action": "check_again", "_selected_action": [data["id"]], "post": "yes"})
    assert Withdrawal.objects.get(pk=data["id"]).status == "completed"
    assert fake_asaas.posts == 1
    [entry] = AuditEntry.objects.filter(
        object_pk=data["id"], additional_data__action="withdrawal_check_again"
    )
    assert entry.actor is not None
    assert_ledger_clean()


def test_support_sees_withdrawals_pending_for_long_on_the_home_page(
    live_client, payout_team, fake_asaas
):
    from dashboard.display import support_home

    fake_asaas.fail_next_post("timeout_after_create")
    data = withdraw(live_client).json()["data"]

    def stuck():
        lists = {item["key"]: item for item in support_home(live_mode=True)["attention"]}
        return [row["label"] for row in lists["stuck_withdrawals"]["rows"]]

    assert stuck() == []
    with time_machine.travel(timezone.now() + timedelta(minutes=31)):
        assert stuck() == [data["id"]]


# --- Racing withdrawals ------------------------------------------------------------------------


@needs_postgresql("row locks; SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
def test_racing_withdrawals_never_overdraw(team, team_keys):
    import threading

    from django.db import connection

    team.tax_id = TEAM_CNPJ
    team.save(update_fields=["tax_id"])
    payout_key_register(team=team, key_type="cnpj", key=KEY)
    fund(team, "100.00")
    barrier = threading.Barrier(6)
    statuses = []

    def worker():
        client = BrowserClient(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
        barrier.wait()
        response = client.post(WITHDRAWALS, {"amount": "30.00"}, content_type="application/json")
        statuses.append(response.status_code)
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 201, 201, 422, 422, 422]
    assert balance(team) == Decimal("10.00")
    assert Withdrawal.objects.filter(team=team).count() == 3
    assert_ledger_clean()
