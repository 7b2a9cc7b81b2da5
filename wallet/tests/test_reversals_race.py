"""Reversals racing the wallet's other movements, on PostgreSQL with real threads: a reversal
racing booking debits never drives the balance below zero nor loses a real (what the balance
does not cover is debt, every later debit is refused as restricted); a credit racing a reversal
pays whatever debt the reversal left; the same refund notified twice at once is taken once."""

import threading
from decimal import Decimal

import pytest
from django.db import connection

from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.ledger_check import ledger_problems
from wallet.models import Recharge, Reversal, Transaction, Wallet
from wallet.providers import ProviderPayment
from wallet.services import (
    InsufficientBalance,
    WalletRestricted,
    recharge_complete,
    recharge_create,
    recharge_reversals_reconcile,
    wallet_debit,
)

pytestmark = [
    needs_postgresql("row locks: a reversal and debits racing for the wallet row"),
    pytest.mark.django_db(transaction=True),
]


def credited(team, amount: str) -> Recharge:
    recharge = recharge_create(
        team=team, live_mode=True, amount=Decimal(amount), payment_method="pix"
    )
    return recharge_complete(recharge=recharge)


def refunded(recharge) -> ProviderPayment:
    return ProviderPayment(
        id=recharge.provider_charge_id,
        status="REFUNDED",
        state="reversed",
        value=recharge.amount,
        external_reference=recharge.id,
        refunded=recharge.amount,
    )


def run_together(*jobs) -> list:
    """Run each job in its own thread (its own connection), all released at once."""
    barrier = threading.Barrier(len(jobs), timeout=30)
    outcomes: list = [None] * len(jobs)

    def run(index, job):
        try:
            barrier.wait()
            outcomes[index] = job()
        except Exception as exc:  # the outcome the test looks at
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def test_a_reversal_racing_booking_debits_never_drives_the_balance_negative(team):
    fund(team, "500.00")
    recharge = credited(team, "1000.00")  # 1500.00 in all

    def debit(n):
        return lambda: wallet_debit(
            team=team,
            live_mode=True,
            amount=Decimal("100.00"),
            reference_type="booking",
            reference_id=f"ord_{n}",
            description=f"Booking ord_{n}",
        )

    reverse = lambda: recharge_reversals_reconcile(  # noqa: E731
        recharge=recharge, payment=refunded(recharge)
    )
    outcomes = run_together(*(debit(n) for n in range(12)), reverse)

    debits, reconciled = outcomes[:-1], outcomes[-1]
    assert not isinstance(reconciled, Exception), reconciled
    reversal = reconciled.created
    paid = [o for o in debits if isinstance(o, Transaction)]
    refused = [o for o in debits if isinstance(o, InsufficientBalance | WalletRestricted)]
    assert len(paid) + len(refused) == 12, debits
    wallet = Wallet.objects.get(team=team)
    assert wallet.balance >= 0
    # Every real is accounted for: what came in = what bookings took + what the reversal took
    # from the balance + what is left; and the reversal's debt is what the balance lacked.
    spent = sum((t.amount for t in paid), Decimal("0"))
    assert Decimal("1500.00") == spent + reversal.debited_amount + wallet.balance
    assert reversal.debited_amount + reversal.debt_created == Decimal("1000.00")
    assert wallet.debt == reversal.debt_created
    if wallet.debt:
        assert wallet.balance == 0
        # No booking was paid after the debt appeared (each paid one came before the reversal).
        reversal_txn_sequence = (
            reversal.transaction.sequence if reversal.transaction else wallet.movement_count
        )
        assert all(t.sequence < reversal_txn_sequence for t in paid)
    assert ledger_problems() == []


def test_a_credit_racing_a_reversal_pays_the_debt_it_leaves(team):
    recharge = credited(team, "800.00")
    wallet_debit(
        team=team,
        live_mode=True,
        amount=Decimal("800.00"),
        reference_type="booking",
        reference_id="ord_spent",
        description="Booking ord_spent",
    )
    later = recharge_create(
        team=team, live_mode=True, amount=Decimal("300.00"), payment_method="pix"
    )

    outcomes = run_together(
        lambda: recharge_reversals_reconcile(recharge=recharge, payment=refunded(recharge)),
        lambda: recharge_complete(recharge=later),
    )

    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    wallet = Wallet.objects.get(team=team)
    # In either order: 800.00 owed, 300.00 credited and used to pay it.
    assert (wallet.balance, wallet.debt) == (Decimal("0.00"), Decimal("500.00"))
    assert Reversal.objects.get().debt_outstanding == Decimal("500.00")
    assert ledger_problems() == []


def test_the_same_refund_notified_twice_at_once_is_taken_once(team):
    recharge = credited(team, "400.00")

    outcomes = run_together(
        *(
            lambda: recharge_reversals_reconcile(recharge=recharge, payment=refunded(recharge))
            for _ in range(4)
        )
    )

    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    assert sum(1 for o in outcomes if o.created is not None) == 1
    assert Reversal.objects.count() == 1
    assert Wallet.objects.get(team=team).balance == Decimal("0.00")
    assert ledger_problems() == []
