"""A live movement that is its own transaction commits with its one statement (PostgreSQL).

Outside any transaction, `wallet_debit`/`wallet_credit` send the one statement in autocommit: the
wallet's row lock is released, and the rows are visible to everyone, by the time its result
reaches us. Inside a caller's transaction (a booking) the lock is held until the caller commits.
Checked from a second connection, as another worker would see it.
"""

from decimal import Decimal

import psycopg
import pytest
from django.db import connection, connections, transaction

from tests.kit.factories import make_team
from tests.kit.marks import needs_postgresql
from wallet.models import Transaction, Wallet
from wallet.services import DuplicateTransaction, InsufficientBalance, wallet_credit, wallet_debit
from webhooks.models import Event

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql("the one-statement path exists only on PostgreSQL"),
]


def debit(team, reference_id: str, amount: str = "10.00") -> Transaction:
    return wallet_debit(
        team=team,
        live_mode=True,
        amount=Decimal(amount),
        reference_type="booking",
        reference_id=reference_id,
        description="test debit",
    )


def funded_team(amount: str = "100.00"):
    team = make_team("Solo Travel").team
    wallet_credit(
        team=team,
        live_mode=True,
        amount=Decimal(amount),
        reference_type="recharge",
        reference_id="rch_fund",
        description="funding",
    )
    return team


class SeenByAnotherWorker:
    """Right after the balance-moving statement returns, asks a second connection whether the
    wallet row is free and how many ledger rows it sees."""

    def __init__(self, team):
        self.team = team
        self.row_free: bool | None = None
        self.ledger_rows: int | None = None

    def __call__(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if "UPDATE wallet_wallet" in sql:
            self.look()
        return result

    def look(self) -> None:
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("BEGIN")
                try:
                    cursor.execute(
                        "SELECT 1 FROM wallet_wallet WHERE team_id = %s FOR UPDATE NOWAIT",
                        [self.team.id],
                    )
                    self.row_free = True
                except Exception as exc:
                    assert isinstance(exc.__cause__, psycopg.errors.LockNotAvailable), exc
                    self.row_free = False
                cursor.execute("ROLLBACK")
                cursor.execute(
                    "SELECT count(*) FROM wallet_transaction WHERE team_id = %s", [self.team.id]
                )
                self.ledger_rows = cursor.fetchone()[0]
        finally:
            other.close()


def test_a_debit_on_its_own_is_committed_when_its_statement_returns():
    team = funded_team()
    probe = SeenByAnotherWorker(team)
    with connection.execute_wrapper(probe):
        txn = debit(team, "ord_1")
    assert probe.row_free is True
    assert probe.ledger_rows == 2  # the funding and this debit, already committed
    assert txn.balance_after == Decimal("90.00")
    assert Wallet.objects.get(team=team).balance == Decimal("90.00")


def test_inside_a_callers_transaction_the_lock_is_held_until_the_caller_commits():
    team = funded_team()
    probe = SeenByAnotherWorker(team)
    with transaction.atomic(), connection.execute_wrapper(probe):
        debit(team, "ord_1")
    assert probe.row_free is False
    assert probe.ledger_rows == 1  # only the funding: the debit is not committed yet
    assert Wallet.objects.get(team=team).balance == Decimal("90.00")


def test_a_duplicate_on_its_own_writes_nothing():
    team = funded_team()
    debit(team, "ord_1")
    events_before = Event.objects.filter(team=team).count()
    with pytest.raises(DuplicateTransaction):
        debit(team, "ord_1")
    assert Wallet.objects.get(team=team).balance == Decimal("90.00")
    assert Transaction.objects.filter(team=team, reference_id="ord_1").count() == 1
    assert Event.objects.filter(team=team).count() == events_before


def test_an_uncovered_debit_on_its_own_writes_nothing():
    team = funded_team("5.00")
    events_before = Event.objects.filter(team=team).count()
    with pytest.raises(InsufficientBalance):
        debit(team, "ord_1")
    assert Wallet.objects.get(team=team).balance == Decimal("5.00")
    assert Transaction.objects.filter(team=team).count() == 1
    assert Event.objects.filter(team=team).count() == events_before


def test_a_duplicate_inside_a_callers_transaction_leaves_the_caller_free_to_go_on():
    team = funded_team()
    debit(team, "ord_1")
    with transaction.atomic():
        with pytest.raises(DuplicateTransaction):
            debit(team, "ord_1")
        debit(team, "ord_2")  # the caller's transaction is still usable
    assert Wallet.objects.get(team=team).balance == Decimal("80.00")


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_movement_is_planned_once_per_connection_where_it_may_be():
    """Planning the one statement cost PostgreSQL more than running it; straight to PostgreSQL it
    is prepared after five runs. Behind PgBouncer (DATABASE_POOLER) nothing is prepared: the next
    transaction may run on another server connection."""
    team = funded_team("1000.00")
    for number in range(1, 9):
        txn = debit(team, f"ord_{number}")
        assert txn.balance_after == Decimal("1000.00") - 10 * number
    # The debit's statement (a credit's has no balance guard); other tests may have prepared
    # others on this connection.
    movements = [sql for sql in prepared_statements() if "AND balance >= $" in sql]
    if connection.prepares_statements:
        assert len(movements) == 1, movements  # planned once, however many debits
    else:
        assert movements == []
    assert Wallet.objects.get(team=team).balance == Decimal("920.00")
    assert Transaction.objects.filter(team=team, type="debit").count() == 8
    assert Event.objects.filter(team=team, type="wallet.debit").count() == 8
