"""Ledger invariants: per live wallet, balance == credits - debits, and every transaction's
balance_after continues the chain of the one before it. With reversals of recharges
(docs/reversals.md), the debt too: the wallet's debt is what its reversals still owe; a wallet in
debt has a balance of 0.00; and every real taken back by a reversal in force was either
collected by the ledger or is still owed:

    reversals in force == reversal debits + debt payments - reversal credits + debt

(a cancelled chargeback's debit and payments are matched by its credit back, its debt forgiven)."""

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, Sum

from core.money import fmt
from wallet.models import Reversal, Transaction, Wallet


@dataclass(frozen=True)
class LedgerProblem:
    team_id: str
    message: str


def ledger_problems() -> list[LedgerProblem]:
    problems = []
    for wallet in Wallet.objects.select_related("team").order_by("team_id"):
        problems.extend(_wallet_problems(wallet))
    return problems


def _wallet_problems(wallet: Wallet) -> list[LedgerProblem]:
    ledger = Transaction.objects.filter(team_id=wallet.team_id, live_mode=True)
    totals = ledger.aggregate(
        credits=Sum("amount", filter=Q(type=Transaction.Type.CREDIT), default=Decimal("0")),
        debits=Sum("amount", filter=Q(type=Transaction.Type.DEBIT), default=Decimal("0")),
    )
    problems = []
    expected = totals["credits"] - totals["debits"]
    if wallet.movement_count != ledger.count():
        problems.append(
            LedgerProblem(
                wallet.team_id,
                f"{wallet.movement_count} movements counted, {ledger.count()} ledger rows",
            )
        )
    if wallet.balance != expected:
        problems.append(
            LedgerProblem(
                wallet.team_id, f"balance {wallet.balance} != credits - debits {expected}"
            )
        )
    problems.extend(_debt_problems(wallet, ledger))
    running = Decimal("0.00")
    for txn in ledger.order_by("sequence").iterator():
        running += txn.amount if txn.type == Transaction.Type.CREDIT else -txn.amount
        if txn.balance_after != running:
            problems.append(
                LedgerProblem(
                    wallet.team_id,
                    f"{txn.id}: balance_after {txn.balance_after}, running balance {running}",
                )
            )
            break
    return problems


def _debt_problems(wallet: Wallet, ledger) -> list[LedgerProblem]:
    zero = Decimal("0")
    reversal, debt_payment = (
        Transaction.ReferenceType.REVERSAL,
        Transaction.ReferenceType.DEBT_PAYMENT,
    )
    debit, credit = Transaction.Type.DEBIT, Transaction.Type.CREDIT
    moved = ledger.aggregate(
        reversal_debits=Sum("amount", filter=Q(type=debit, reference_type=reversal), default=zero),
        debt_payments=Sum(
            "amount", filter=Q(type=debit, reference_type=debt_payment), default=zero
        ),
        reversal_credits=Sum(
            "amount", filter=Q(type=credit, reference_type=reversal), default=zero
        ),
    )
    reversals = Reversal.objects.filter(team_id=wallet.team_id, live_mode=True).aggregate(
        in_force=Sum("amount", filter=Q(status=Reversal.Status.APPLIED), default=zero),
        owed=Sum("debt_outstanding", default=zero),
        debited=Sum("debited_amount", default=zero),
    )
    problems = []

    def problem(message: str) -> None:
        problems.append(LedgerProblem(wallet.team_id, message))

    if wallet.debt != reversals["owed"]:
        problem(f"debt {fmt(wallet.debt)} != what its reversals owe {fmt(reversals['owed'])}")
    if wallet.debt > 0 and wallet.balance != 0:
        problem(f"in debt ({fmt(wallet.debt)}) with a balance of {fmt(wallet.balance)}")
    if moved["reversal_debits"] != reversals["debited"]:
        problem(
            f"reversal debits {fmt(moved['reversal_debits'])} != "
            f"what the reversals debited {fmt(reversals['debited'])}"
        )
    accounted = (
        moved["reversal_debits"] + moved["debt_payments"] - moved["reversal_credits"] + wallet.debt
    )
    if reversals["in_force"] != accounted:
        problem(
            f"reversals in force {fmt(reversals['in_force'])} != reversal debits + debt "
            f"payments - reversal credits + debt {fmt(accounted)}"
        )
    return problems
