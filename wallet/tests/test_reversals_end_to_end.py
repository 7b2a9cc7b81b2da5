"""Reversals over the API against an Asaas-shaped server (wallet/tests/fake_asaas.py, real HTTP
on a free port): recharges created and read back through our Asaas adapter, Asaas's webhook
events delivered to our notification endpoint, bookings made with the live key. A refund after
the credit, on a wallet that spent the money, leaves it at 0.00 with a debt and restricted; the
next recharge pays the debt first; `check_ledger` is clean after each step (docs/reversals.md)."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from bookings.tests.helpers import book, holdable, offers
from tests.kit.factories import fund
from wallet.models import Recharge, Reversal, Transaction, Wallet
from wallet.services import wallet_debit
from wallet.tests.asaas import API_KEY, NOTIFICATIONS_URL, SUPPORT, WEBHOOK_TOKEN
from wallet.tests.fake_asaas import FakeAsaas, dumps

pytestmark = pytest.mark.django_db

BALANCE = "/api/v1/wallet/balance"
RECHARGE = "/api/v1/wallet/recharge"


@pytest.fixture
def asaas(settings, team, live_sandbox):
    """Live mode pays through the fake Asaas; live keys book the sandbox supplier."""
    with FakeAsaas(api_key=API_KEY, webhook_token=WEBHOOK_TOKEN) as fake:
        settings.PAYMENT_PROVIDER = "asaas"
        settings.ASAAS_API_KEY = API_KEY
        settings.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN
        settings.ASAAS_BASE_URL = fake.base_url
        settings.SUPPORT_ALERT_EMAILS = [SUPPORT]
        team.tax_id = "11222333000181"
        team.save(update_fields=["tax_id"])
        yield fake


@pytest.fixture
def client(client, django_capture_on_commit_callbacks):
    """The test client, running what each request queued after its commit (support's alert,
    eager in tests), as a worker would."""
    post = client.post

    def post_and_run_after_commit(*args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return post(*args, **kwargs)

    client.post = post_and_run_after_commit
    return client


def notify(client, event: dict):
    return client.post(
        NOTIFICATIONS_URL,
        data=dumps(event),
        content_type="application/json",
        headers={"asaas-access-token": WEBHOOK_TOKEN},
    )


def deliver(client, fake) -> list[dict]:
    """Asaas's events since the last delivery, POSTed to our endpoint as Asaas sends them."""
    answers = []
    for event in fake.state.undelivered():
        response = notify(client, event)
        assert response.status_code == 200, response.content
        answers.append({"event": event["event"], **response.json()})
    return answers


def recharge_paid(live_client, client, fake, amount: str) -> tuple[Recharge, list[dict]]:
    created = live_client.post(
        RECHARGE, {"amount": amount, "currency": "BRL", "payment_method": "pix"}, format="json"
    )
    assert created.status_code == 201, created.content
    recharge = Recharge.objects.get(pk=created.json()["data"]["id"])
    fake.state.pay(recharge.provider_charge_id)
    answers = deliver(client, fake)
    recharge.refresh_from_db()
    return recharge, answers


def balance(live_client) -> dict:
    return live_client.get(BALANCE).json()["data"]


def ledger_clean() -> bool:
    out = StringIO()
    call_command("check_ledger", stdout=out)  # raises CommandError naming any problem
    return "consistent" in out.getvalue()


def ledger(team) -> list[tuple]:
    return list(
        Transaction.objects.filter(team=team, live_mode=True)
        .order_by("sequence")
        .values_list("type", "reference_type", "amount", "balance_after")
    )


def test_a_refund_after_the_money_was_spent_leaves_a_debt_the_next_recharge_pays(
    asaas, live_client, client, team, mailoutbox
):
    # --- A recharge, paid and credited (read back from Asaas) ---------------------------------
    recharge, answers = recharge_paid(live_client, client, asaas, "2000.00")
    assert [(a["event"], a["result"]) for a in answers] == [
        ("PAYMENT_CREATED", "ignored"),
        ("PAYMENT_RECEIVED", "paid"),
    ]
    assert recharge.status == Recharge.Status.COMPLETED
    assert balance(live_client)["balance"] == "2000.00"
    assert ledger_clean()

    # --- The money is spent on a booking ------------------------------------------------------
    offer = min(offers(live_client), key=lambda o: Decimal(o["base_cost_brl"]))
    cost = Decimal(offer["base_cost_brl"])
    assert cost < Decimal("2000.00")
    made = book(live_client, offer, type="instant")
    assert made.status_code == 201, made.content
    assert balance(live_client)["balance"] == f"{Decimal('2000.00') - cost:.2f}"
    assert ledger_clean()

    # --- Asaas refunds the whole PIX: the balance pays what it can, the rest is debt ----------
    refunded = asaas.state.refund(recharge.provider_charge_id)
    assert refunded["status"] == "REFUNDED"
    assert [(a["event"], a["result"]) for a in deliver(client, asaas)] == [
        ("PAYMENT_REFUNDED", "reversed")
    ]
    data = balance(live_client)
    assert (data["balance"], data["available_credit"]) == ("0.00", "0.00")
    assert (data["debt_amount"], data["restricted"]) == (f"{cost:.2f}", True)
    [reversal] = Reversal.objects.filter(recharge=recharge)
    assert (reversal.reason, reversal.amount, reversal.debt_created) == (
        "refund",
        Decimal("2000.00"),
        cost,
    )
    assert ledger(team)[-1] == ("debit", "reversal", Decimal("2000.00") - cost, Decimal("0.00"))
    assert ledger_clean()
    # Support is told, in Portuguese and reais.
    [alert] = [m for m in mailoutbox if SUPPORT in m.to]
    assert recharge.id in alert.subject and "R$" in alert.body

    # --- Restricted: no new booking, not even a hold ------------------------------------------
    refused = book(live_client, holdable(live_client), type="hold")
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "wallet_restricted"
    assert refused.json()["error"]["message"] == "Wallet is restricted until its debt is paid"

    # --- The same refund notified again takes nothing more ------------------------------------
    event = next(e for e in asaas.state.events if e["event"] == "PAYMENT_REFUNDED")
    again = notify(client, {**event, "id": event["id"] + "-resent"})
    assert again.json()["result"] == "ignored"
    assert Reversal.objects.filter(recharge=recharge).count() == 1
    assert balance(live_client)["debt_amount"] == f"{cost:.2f}"

    # --- The next recharge pays the debt first ------------------------------------------------
    _, answers = recharge_paid(live_client, client, asaas, "1000.00")
    assert answers[-1]["result"] == "paid"
    data = balance(live_client)
    assert (data["balance"], data["debt_amount"], data["restricted"]) == (
        f"{Decimal('1000.00') - cost:.2f}",
        "0.00",
        False,
    )
    credit, payment = ledger(team)[-2:]
    assert credit == ("credit", "recharge", Decimal("1000.00"), Decimal("1000.00"))
    assert payment == ("debit", "debt_payment", cost, Decimal("1000.00") - cost)
    reversal.refresh_from_db()
    assert reversal.debt_outstanding == Decimal("0.00")
    assert ledger_clean()
    # And the wallet books again.
    assert book(live_client, holdable(live_client), type="hold").status_code == 201


def test_partial_refunds_and_a_med_return_each_take_their_own_amount_once(
    asaas, live_client, client, team
):
    recharge, _ = recharge_paid(live_client, client, asaas, "1000.00")
    payment_id = recharge.provider_charge_id

    asaas.state.refund(payment_id, Decimal("100.00"), description="Overpayment")
    assert [a["result"] for a in deliver(client, asaas)] == ["reversed"]
    asaas.state.med_return(payment_id, Decimal("250.00"))
    assert [a["result"] for a in deliver(client, asaas)] == ["reversed"]
    # A refund still pending at Asaas moves nothing yet; done, it is taken.
    asaas.state.refund(payment_id, Decimal("50.00"), status="PENDING")
    asaas.state.finish_refund(payment_id)
    assert [a["result"] for a in deliver(client, asaas)] == ["reversed"]

    assert list(
        Reversal.objects.filter(recharge=recharge)
        .order_by("number")
        .values_list("number", "reason", "amount")
    ) == [
        (1, "refund", Decimal("100.00")),
        (2, "refund", Decimal("250.00")),
        (3, "refund", Decimal("50.00")),
    ]
    data = balance(live_client)
    assert (data["balance"], data["debt_amount"], data["restricted"]) == ("600.00", "0.00", False)
    # Every event delivered again: nothing more.
    for event in asaas.state.events:
        notify(client, {**event, "id": event["id"] + "-again"})
    assert Reversal.objects.filter(recharge=recharge).count() == 3
    assert balance(live_client)["balance"] == "600.00"
    assert ledger_clean()


def test_a_chargeback_won_gives_back_what_it_took_once(asaas, live_client, client, team):
    fund(team, "300.00")  # money of its own, spent below
    recharge, _ = recharge_paid(live_client, client, asaas, "500.00")
    payment_id = recharge.provider_charge_id
    wallet_debit(
        team=team,
        live_mode=True,
        amount=Decimal("700.00"),
        reference_type="booking",
        reference_id="ord_spent",
        description="Booking ord_spent",
    )  # 100.00 left

    asaas.state.chargeback(payment_id)
    assert [a["result"] for a in deliver(client, asaas)] == ["reversed"]
    data = balance(live_client)
    assert (data["balance"], data["debt_amount"], data["restricted"]) == ("0.00", "400.00", True)
    # The dispute and the win, not yet paid back: nothing moves.
    asaas.state.chargeback_dispute(payment_id)
    asaas.state.chargeback_won(payment_id)
    assert [a["result"] for a in deliver(client, asaas)] == ["ignored", "ignored"]
    # A credit meanwhile pays part of the debt.
    fund(team, "150.00", reference_id="rch_other")
    assert balance(live_client)["debt_amount"] == "250.00"
    assert ledger_clean()

    # Paid back to us: the debt still owed is forgiven, what was taken is credited back, once.
    asaas.state.chargeback_paid_back(payment_id)
    assert [a["result"] for a in deliver(client, asaas)] == ["reinstated"]
    [reversal] = Reversal.objects.filter(recharge=recharge)
    assert reversal.status == Reversal.Status.CANCELLED
    assert reversal.credit_transaction.amount == Decimal("250.00")  # 100 debited + 150 paid
    data = balance(live_client)
    assert (data["balance"], data["debt_amount"], data["restricted"]) == ("250.00", "0.00", False)
    event = asaas.state.events[-1]
    assert notify(client, {**event, "id": event["id"] + "-again"}).json()["result"] == "paid"
    assert balance(live_client)["balance"] == "250.00"
    assert Wallet.objects.get(team=team).debt == Decimal("0.00")
    assert ledger_clean()
