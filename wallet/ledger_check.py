"""Ledger invariants: per live wallet, balance == credits - debits, and every transaction's
balance_after continues the chain of the one before it."""

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, Sum

from wallet.models import Transaction, Wallet


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
