"""Reversals of recharges after the credit, and the wallet's debt (docs/reversals.md): the
service against the provider's answers, what a restricted wallet refuses over the API, every
credit paying the debt first, what `check_ledger` now checks, the `wallet.reversal` event,
support's alert and the panel. Against the fake Asaas end to end:
test_reversals_end_to_end.py; racing debits on PostgreSQL: test_reversals_race.py."""

from decimal import Decimal

import pytest
from django.urls import reverse

from agencies.tests.factories import SupportUserFactory
from bookings.tests.helpers import book, holdable
from tests.kit.factories import fund
from tests.kit.panel import browser_for
from wallet.emails import reversal_alert_send, reversal_alerts_requeue
from wallet.ledger_check import ledger_problems
from wallet.models import Recharge, Reversal, Transaction, Wallet
from wallet.providers import ProviderPayment
from wallet.selectors import wallet_balance, wallet_restricted
from wallet.services import (
    InsufficientBalance,
    WalletRestricted,
    recharge_complete,
    recharge_create,
    recharge_reversals_reconcile,
    wallet_credit,
    wallet_debit,
)
from wallet.tests.asaas import BASE_URL
from webhooks.models import Event

pytestmark = pytest.mark.django_db


def credited(team, amount: str = "1000.00") -> Recharge:
    """A live recharge paid and credited (the sandbox provider)."""
    recharge = recharge_create(
        team=team, live_mode=True, amount=Decimal(amount), payment_method="pix"
    )
    return recharge_complete(recharge=recharge)


def read_back(
    recharge,
    *,
    status="RECEIVED",
    refunded="0.00",
    charged_back=False,
    value=None,
) -> ProviderPayment:
    """The payment as a provider reports it when read back."""
    return ProviderPayment(
        id=recharge.provider_charge_id,
        status=status,
        state="paid" if status in ("RECEIVED", "CONFIRMED") else "reversed",
        value=recharge.amount if value is None else Decimal(value),
        external_reference=recharge.id,
        refunded=Decimal(refunded),
        charged_back=charged_back,
    )


def spend(team, amount: str, reference_id: str = "ord_spent"):
    return wallet_debit(
        team=team,
        live_mode=True,
        amount=Decimal(amount),
        reference_type="booking",
        reference_id=reference_id,
        description=f"Booking {reference_id}",
    )


def wallet_of(team) -> tuple[Decimal, Decimal]:
    wallet = Wallet.objects.get(team=team)
    return wallet.balance, wallet.debt


# --- The service: what is taken back, once --------------------------------------------------


def test_a_refund_the_balance_covers_is_a_debit_and_no_debt(team):
    recharge = credited(team)

    outcome = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, status="REFUNDED", refunded="1000.00")
    )

    reversal = outcome.created
    assert reversal is not None and reversal.id.startswith("rvs_")
    assert (reversal.amount, reversal.debited_amount, reversal.debt_created) == (
        Decimal("1000.00"),
        Decimal("1000.00"),
        Decimal("0.00"),
    )
    assert reversal.transaction.reference_type == "reversal"
    assert reversal.transaction.reference_id == reversal.id
    assert wallet_of(team) == (Decimal("0.00"), Decimal("0.00"))
    assert not wallet_restricted(team=team, live_mode=True)
    assert ledger_problems() == []


def test_what_the_balance_cannot_cover_is_debt_and_the_wallet_is_restricted(team):
    recharge = credited(team)
    spend(team, "700.00")

    reversal = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, status="REFUNDED", refunded="1000.00")
    ).created

    assert (reversal.debited_amount, reversal.debt_created, reversal.debt_outstanding) == (
        Decimal("300.00"),
        Decimal("700.00"),
        Decimal("700.00"),
    )
    assert wallet_of(team) == (Decimal("0.00"), Decimal("700.00"))
    assert wallet_restricted(team=team, live_mode=True)
    assert not wallet_restricted(team=team, live_mode=False)  # the test wallet never is
    balance = wallet_balance(team=team, live_mode=True)
    assert (balance["balance"], balance["debt_amount"], balance["restricted"]) == (
        "0.00",
        "700.00",
        True,
    )
    assert wallet_balance(team=team, live_mode=False)["debt_amount"] == "0.00"
    assert ledger_problems() == []


def test_an_empty_wallet_takes_the_whole_reversal_as_debt_without_a_debit(team):
    recharge = credited(team, "500.00")
    spend(team, "500.00")

    reversal = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, charged_back=True)
    ).created

    assert reversal.reason == "chargeback"
    assert reversal.transaction is None
    assert wallet_of(team) == (Decimal("0.00"), Decimal("500.00"))
    assert not Transaction.objects.filter(reference_type="reversal").exists()
    assert ledger_problems() == []


def test_the_same_refund_reported_again_is_taken_once_and_a_new_part_adds_only_itself(team):
    recharge = credited(team)
    partial = read_back(recharge, refunded="150.00")  # a partial refund leaves it RECEIVED

    first = recharge_reversals_reconcile(recharge=recharge, payment=partial)
    again = recharge_reversals_reconcile(recharge=recharge, payment=partial)
    more = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, refunded="400.00")
    )

    assert first.created is not None and again.created is None and again.cancelled == ()
    assert more.created.amount == Decimal("250.00") and more.created.number == 2
    assert wallet_of(team) == (Decimal("600.00"), Decimal("0.00"))
    assert list(
        Transaction.objects.filter(team=team, reference_type="reversal")
        .order_by("sequence")
        .values_list("amount", flat=True)
    ) == [Decimal("150.00"), Decimal("250.00")]


def test_a_refund_never_takes_more_than_the_recharge_credited(team):
    recharge = credited(team, "200.00")
    fund(team, "800.00")

    reversal = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, status="REFUNDED", refunded="5000.00")
    ).created

    assert reversal.amount == Decimal("200.00")
    assert wallet_of(team) == (Decimal("800.00"), Decimal("0.00"))


def test_a_recharge_not_credited_or_of_test_mode_is_never_reversed(team):
    pending = recharge_create(
        team=team, live_mode=True, amount=Decimal("300.00"), payment_method="pix"
    )
    test = recharge_complete(
        recharge=recharge_create(
            team=team, live_mode=False, amount=Decimal("300.00"), payment_method="pix"
        )
    )
    for recharge in (pending, test):
        outcome = recharge_reversals_reconcile(
            recharge=recharge, payment=read_back(recharge, status="REFUNDED", refunded="300.00")
        )
        assert outcome.created is None
    assert not Reversal.objects.exists()


def test_a_chargeback_won_forgives_the_debt_and_credits_back_what_was_taken_once(team):
    recharge = credited(team, "500.00")
    spend(team, "400.00")  # 100.00 left
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, charged_back=True))
    fund(team, "150.00", reference_id="rch_later")  # pays 150.00 of the 400.00 debt
    assert wallet_of(team) == (Decimal("0.00"), Decimal("250.00"))

    won = read_back(recharge)  # RECEIVED again, no chargeback
    outcome = recharge_reversals_reconcile(recharge=recharge, payment=won)
    again = recharge_reversals_reconcile(recharge=recharge, payment=won)

    [reversal] = outcome.cancelled
    assert reversal.status == Reversal.Status.CANCELLED and reversal.debt_outstanding == 0
    assert reversal.credit_transaction.amount == Decimal("250.00")  # 100.00 + 150.00 paid
    assert again.cancelled == () and again.created is None
    assert wallet_of(team) == (Decimal("250.00"), Decimal("0.00"))
    assert ledger_problems() == []


def test_a_chargeback_given_back_pays_the_other_reversals_debt_not_its_own(team):
    charged_back, refunded = credited(team, "500.00"), credited(team, "300.00")
    spend(team, "600.00")  # 200.00 left
    recharge_reversals_reconcile(
        recharge=charged_back, payment=read_back(charged_back, charged_back=True)
    )  # 200.00 debited, 300.00 owed
    recharge_reversals_reconcile(
        recharge=refunded, payment=read_back(refunded, status="REFUNDED", refunded="300.00")
    )  # all of it owed
    assert wallet_of(team) == (Decimal("0.00"), Decimal("600.00"))

    recharge_reversals_reconcile(recharge=charged_back, payment=read_back(charged_back))

    # 300.00 forgiven; the 200.00 taken comes back and pays the refund's debt.
    assert wallet_of(team) == (Decimal("0.00"), Decimal("100.00"))
    assert dict(Reversal.objects.values_list("recharge_id", "debt_outstanding")) == {
        charged_back.id: Decimal("0.00"),
        refunded.id: Decimal("100.00"),
    }
    assert ledger_problems() == []


def test_less_reported_than_taken_without_a_chargeback_is_a_mismatch_and_moves_nothing(team):
    recharge = credited(team)
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, refunded="300.00"))

    outcome = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, refunded="100.00")
    )

    assert outcome.mismatch and outcome.created is None and outcome.cancelled == ()
    assert wallet_of(team) == (Decimal("700.00"), Decimal("0.00"))


def test_a_payment_event_of_a_credited_recharge_takes_back_a_refund_whose_event_was_lost(
    team, asaas, client
):
    """PAYMENT_PARTIALLY_REFUNDED never came; the next event of the payment (any) reads it
    back with its refund done, and the refund is taken then."""
    from wallet.tests.asaas import add_read_back, event_body, notify, pending_recharge

    recharge = pending_recharge(asaas, team, amount="400.00")
    add_read_back(asaas, recharge)
    assert notify(client, event_body(recharge)).json()["result"] == "paid"
    refunded = asaas_payment_with_refund(recharge, "150.00")
    asaas.get(f"{BASE_URL}/payments/{recharge.provider_charge_id}", body=refunded)

    again = notify(client, event_body(recharge, event="PAYMENT_CONFIRMED", event_id="evt_late&2"))

    assert again.json()["result"] == "reversed"
    assert Reversal.objects.get().amount == Decimal("150.00")
    assert wallet_of(team) == (Decimal("250.00"), Decimal("0.00"))


def asaas_payment_with_refund(recharge, value: str) -> str:
    from wallet.tests.asaas import asaas_json, asaas_payment

    payment = asaas_payment(recharge)
    payment["refunds"] = [
        {
            "dateCreated": "2026-11-28 10:00:00",
            "status": "DONE",
            "value": Decimal(value),
            "endToEndIdentifier": "D12345678202611281000abcdefghijk",
            "description": "Overpayment",
            "effectiveDate": "2026-11-28 10:00:05",
            "transactionReceiptUrl": "https://sandbox.asaas.com/comprovantes/1",
            "refundedSplits": None,
        }
    ]
    return asaas_json(payment)


# --- Every credit pays the debt first -------------------------------------------------------


@pytest.mark.parametrize(
    ("credit", "balance", "debt"),
    [("100.00", "0.00", "300.00"), ("400.00", "0.00", "0.00"), ("1000.00", "600.00", "0.00")],
)
def test_a_credit_pays_the_debt_first_in_the_same_transaction(team, credit, balance, debt):
    recharge = credited(team, "400.00")
    spend(team, "400.00")
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, charged_back=True))

    txn = wallet_credit(
        team=team,
        live_mode=True,
        amount=Decimal(credit),
        reference_type="refund",
        reference_id="ord_refunded",
        description="Refund of a cancelled booking",
    )

    assert txn.balance_after == Decimal(credit)  # the credit itself, then the payment
    payment = Transaction.objects.get(reference_type="debt_payment")
    assert (payment.type, payment.reference_id) == ("debit", txn.id)
    assert payment.amount == min(Decimal(credit), Decimal("400.00"))
    assert wallet_of(team) == (Decimal(balance), Decimal(debt))
    assert Reversal.objects.get().debt_outstanding == Decimal(debt)
    assert ledger_problems() == []


def test_debt_is_paid_oldest_reversal_first(team):
    first, second = credited(team, "300.00"), credited(team, "200.00")
    spend(team, "500.00")
    for recharge in (first, second):
        recharge_reversals_reconcile(
            recharge=recharge, payment=read_back(recharge, status="REFUNDED", refunded="1e6")
        )
    fund(team, "350.00", reference_id="rch_pays")

    assert list(
        Reversal.objects.order_by("created_at").values_list("recharge_id", "debt_outstanding")
    ) == [(first.id, Decimal("0.00")), (second.id, Decimal("150.00"))]
    assert ledger_problems() == []


def test_a_debit_on_a_wallet_in_debt_is_refused_as_restricted(team, other_team):
    recharge = credited(team, "300.00")
    spend(team, "300.00")
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, charged_back=True))
    fund(other_team, "100.00")

    with pytest.raises(WalletRestricted):
        spend(team, "1.00", reference_id="ord_more")
    with pytest.raises(InsufficientBalance):  # no debt: the usual refusal
        spend(other_team, "500.00")


# --- What check_ledger checks -----------------------------------------------------------------


def test_check_ledger_finds_a_debt_its_reversals_do_not_owe(team):
    recharge = credited(team)
    spend(team, "900.00")
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, charged_back=True))
    assert ledger_problems() == []

    Wallet.objects.filter(team=team).update(debt=Decimal("850.00"))
    messages = [p.message for p in ledger_problems()]
    assert "debt 850.00 != what its reversals owe 900.00" in messages
    assert any(m.startswith("reversals in force 1000.00 != ") for m in messages)

    Wallet.objects.filter(team=team).update(debt=Decimal("900.00"), balance=Decimal("5.00"))
    assert any("in debt (900.00) with a balance of 5.00" in p.message for p in ledger_problems())


# --- Over the API: what a restricted wallet refuses -------------------------------------------


@pytest.fixture
def restricted(team, live_sandbox):
    fund(team, "3000.00")
    recharge = credited(team, "500.00")
    spend(team, "3500.00")
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, charged_back=True))
    return team


def assert_restricted(response):
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "wallet_restricted"
    assert response.json()["error"]["message"] == "Wallet is restricted until its debt is paid"


def test_a_restricted_wallet_books_nothing_and_confirms_no_hold(team, live_client, live_sandbox):
    fund(team, "5000.00")
    offer = holdable(live_client)
    held = book(live_client, offer, type="hold")
    assert held.status_code == 201
    recharge = credited(team, "500.00")
    spend(team, "5500.00")
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, charged_back=True))

    assert_restricted(book(live_client, holdable(live_client), type="hold"))
    assert_restricted(book(live_client, holdable(live_client), type="instant"))
    confirm = live_client.put(
        f"/api/v1/bookings/{held.json()['id']}/confirm",
        {
            "payment": {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        },
        format="json",
    )
    assert_restricted(confirm)
    assert balance_of(live_client)["restricted"] is True


def balance_of(client) -> dict:
    return client.get("/api/v1/wallet/balance").json()["data"]


def test_the_balance_answer_says_debt_and_restriction_in_each_mode(
    restricted, live_client, test_client
):
    live, test = balance_of(live_client), balance_of(test_client)
    assert (live["balance"], live["debt_amount"], live["restricted"]) == ("0.00", "500.00", True)
    assert (test["balance"], test["debt_amount"], test["restricted"]) == (
        "5000.00",
        "0.00",
        False,
    )
    assert book(test_client, holdable(test_client), type="hold").status_code == 201


# --- The event, the alert, the panel ----------------------------------------------------------


def test_the_reversal_event_carries_the_recharge_the_debit_and_the_debt(team):
    recharge = credited(team, "600.00")
    spend(team, "400.00")

    reversal = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, status="REFUNDED", refunded="600.00")
    ).created

    event = Event.objects.get(team=team, type="wallet.reversal")
    data = event.data_object
    assert data["id"] == reversal.id and data["object"] == "reversal"
    assert (data["reason"], data["status"], data["amount"]) == ("refund", "applied", "600.00")
    assert data["recharge"]["id"] == recharge.id
    assert data["transaction"]["id"] == reversal.transaction_id
    assert (data["transaction"]["amount"], data["transaction"]["balance_after"]) == (
        "200.00",
        "0.00",
    )
    assert data["debt_created"] == "400.00"
    assert data["wallet"] == {"debt_amount": "400.00", "restricted": True}
    debits = Event.objects.filter(team=team, type="wallet.debit")
    [debit] = [e for e in debits if e.data_object["id"] == reversal.transaction_id]
    assert debit.data_object["reference_type"] == "reversal"


def test_support_is_alerted_once_in_portuguese_with_reais(team, settings, mailoutbox):
    settings.SUPPORT_ALERT_EMAILS = ["support@agency.example"]
    recharge = credited(team, "1234.56")
    spend(team, "1000.00")
    reversal = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, charged_back=True)
    ).created

    assert reversal_alerts_requeue() == 0  # within the grace period: the task is on its way
    assert reversal_alert_send(reversal_id=reversal.id) is True
    assert reversal_alert_send(reversal_id=reversal.id) is False

    [mail] = mailoutbox
    assert mail.to == ["support@agency.example"]
    assert recharge.id in mail.subject and "Contestação" in mail.subject
    assert "R$\xa01.234,56" in mail.body and "R$\xa01.000,00" in mail.body
    assert "restrita" in mail.body
    assert reverse("admin:wallet_reversal_change", args=[reversal.pk]) in mail.body


def test_support_sees_wallets_in_debt_and_the_reversals(team, other_team):
    recharge = credited(team, "500.00")
    spend(team, "500.00")
    reversal = recharge_reversals_reconcile(
        recharge=recharge, payment=read_back(recharge, charged_back=True)
    ).created
    fund(other_team, "10.00")
    browser = browser_for(SupportUserFactory())

    wallets = browser.get(reverse("admin:wallet_wallet_changelist"), {"in_debt": "yes"})
    assert [w.team_id for w in wallets.context["cl"].queryset] == [team.id]
    assert "Restrita" in wallets.content.decode()
    page = browser.get(reverse("admin:wallet_recharge_change", args=[recharge.pk])).content.decode()
    assert reversal.id in page and "R$\xa0500,00" in page
    reversals = browser.get(reverse("admin:wallet_reversal_changelist"), {"owed": "yes"})
    assert [r.pk for r in reversals.context["cl"].queryset] == [reversal.pk]
    home = browser.get(reverse("admin:index")).content.decode()
    assert 'id="attention-wallets_in_debt"' in home and 'id="attention-reversals"' in home
    assert "1 carteira com dívida" in home
    overview = browser.get(reverse("admin:agencies_team_overview", args=[team.pk]))
    assert 'id="card-debt"' in overview.content.decode()


def test_an_agency_user_sees_its_own_debt_and_reversals_only(team, team_owner, other_team):
    recharge = credited(team, "500.00")
    spend(team, "500.00")
    recharge_reversals_reconcile(recharge=recharge, payment=read_back(recharge, charged_back=True))
    theirs = credited(other_team, "100.00")
    recharge_reversals_reconcile(recharge=theirs, payment=read_back(theirs, charged_back=True))
    browser = browser_for(team_owner)

    home = browser.get(reverse("admin:index")).content.decode()
    assert 'id="wallet-restricted"' in home and 'id="card-debt"' in home
    assert "R$\xa0500,00" in home
    listed = browser.get(reverse("admin:wallet_reversal_changelist"))
    assert [r.team_id for r in listed.context["cl"].queryset] == [team.id]


def test_a_restricted_wallet_withdraws_nothing(restricted, live_client):
    """A wallet in debt pays nothing out: the withdrawal is refused before any transfer is
    asked for, and nothing is written."""
    from wallet.models import Withdrawal
    from wallet.services import payout_key_register

    restricted.tax_id = "11.222.333/0001-81"
    restricted.save(update_fields=["tax_id"])
    payout_key_register(team=restricted, key_type="cnpj", key="11222333000181")
    debits = Transaction.objects.filter(type="debit").count()

    assert_restricted(
        live_client.post("/api/v1/wallet/withdrawals", {"amount": "50.00"}, format="json")
    )

    assert not Withdrawal.objects.exists()
    assert Transaction.objects.filter(type="debit").count() == debits
    assert ledger_problems() == []
