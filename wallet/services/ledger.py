"""Every movement of money goes through `wallet_credit` and `wallet_debit`.

Live mode: one conditional `UPDATE … RETURNING` both locks the wallet row and moves the balance
(never below zero: the WHERE clause and a CHECK constraint), then the ledger row and the events
and their webhook deliveries are written, all in one transaction. On PostgreSQL these writes are
one statement, so the lock is held for one round trip and the COMMIT (or, for a movement that is
its own transaction, only while the server runs the statement); callers never make a network
call inside it.
Test mode: no wallet row, a constant 5000.00 balance; the ledger rows are still written.

Debt (docs/reversals.md): a live credit on a wallet in debt pays the debt first, in the same
transaction and under the same row lock: the credit, then a `debit` of what it pays
(`reference_type` `debt_payment`, reference the credit's txn_…). A wallet in debt has a balance of
0.00, so a debit finds nothing to take: it is refused as `WalletRestricted`.
"""

import functools
from dataclasses import dataclass
from decimal import Decimal
from typing import NoReturn

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from agencies.models import Team
from core.exceptions import Conflict, UnprocessableEntity
from core.money import fmt, q
from core.sql import InsertColumns, prepared_cursor
from wallet.models import (
    LOW_BALANCE_THRESHOLD,
    TEST_MODE_BALANCE,
    Reversal,
    Transaction,
    Wallet,
)
from wallet.payloads import transaction_object
from webhooks.models import EventType
from webhooks.services import EventSql, deliveries_dispatch_on_commit, event_record


class InsufficientBalance(UnprocessableEntity):
    code = "insufficient_balance"
    message = "Insufficient balance"


class WalletRestricted(UnprocessableEntity):
    code = "wallet_restricted"
    message = "Wallet is restricted until its debt is paid"


class DuplicateTransaction(Conflict):
    code = "duplicate_transaction"
    message = "This reference already has a transaction of this type"


def wallet_create(*, team: Team) -> Wallet:
    return Wallet.objects.create(team=team)


def wallet_credit(
    *,
    team: Team,
    live_mode: bool,
    amount: Decimal,
    reference_type: str,
    reference_id: str,
    description: str,
    payment_method: str = "",
) -> Transaction:
    return wallet_move(
        team=team,
        live_mode=live_mode,
        type=Transaction.Type.CREDIT,
        amount=amount,
        reference_type=reference_type,
        reference_id=reference_id,
        description=description,
        payment_method=payment_method,
    )


def wallet_debit(
    *,
    team: Team,
    live_mode: bool,
    amount: Decimal,
    reference_type: str,
    reference_id: str,
    description: str,
) -> Transaction:
    """Raises InsufficientBalance (nothing is written) or DuplicateTransaction."""
    return wallet_move(
        team=team,
        live_mode=live_mode,
        type=Transaction.Type.DEBIT,
        amount=amount,
        reference_type=reference_type,
        reference_id=reference_id,
        description=description,
        payment_method="",
    )


def wallet_move(
    *,
    team: Team,
    live_mode: bool,
    type: str,
    amount: Decimal,
    reference_type: str,
    reference_id: str,
    description: str,
    payment_method: str,
    one_statement: bool | None = None,
) -> Transaction:
    """A credit or a debit (`wallet_credit`, `wallet_debit`). `one_statement` None: whenever it
    can (a live movement on PostgreSQL). The test that compares both paths
    (wallet/tests/test_ledger_paths.py) forces one or the other."""
    if one_statement is None:
        one_statement = live_mode and connection.vendor == "postgresql"
    if one_statement and not (live_mode and connection.vendor == "postgresql"):
        raise ValueError("The one-statement path is for live movements on PostgreSQL")
    amount = q(amount)
    if amount <= 0:
        raise ValueError(f"A transaction amount must be positive, not {amount}")
    txn = Transaction(
        team=team,
        live_mode=live_mode,
        type=type,
        amount=amount,
        reference_type=reference_type,
        reference_id=reference_id,
        description=description[:255],
        payment_method=payment_method,
        created_at=timezone.now(),
    )
    try:
        if one_statement and not connection.in_atomic_block and type == Transaction.Type.DEBIT:
            # A debit that is its own transaction: the one statement commits as it ends, so
            # the wallet's row lock is held only inside the server, never across a round trip.
            # (A credit may have a debt to pay in the same transaction: never on its own.)
            _write_live_in_one_statement(txn)
        else:
            # Inside a caller's transaction (a booking), a savepoint: a duplicate rolls back
            # this movement only, and the caller decides.
            with transaction.atomic():
                debt = _write_live_in_one_statement(txn) if one_statement else _write(txn)
                if txn.type == Transaction.Type.CREDIT and debt > 0:
                    _pay_debt(credit=txn, debt=debt)
    except IntegrityError:
        # The unique (team, mode, type, reference) constraint: this reference was already
        # moved. The exception rolls back the balance update with it.
        raise DuplicateTransaction() from None
    txn._state.adding = False
    return txn


def _pay_debt(*, credit: Transaction, debt: Decimal) -> Transaction:
    """Pay the wallet's `debt` from a live `credit` just written, in its transaction and under
    the wallet row's lock the credit took: a debit of what the credit covers, the wallet's debt
    lowered by as much, and that amount taken off the reversals still owed, oldest first (lock
    order: the wallet row, then the reversals)."""
    paid = min(debt, credit.amount)
    payment = wallet_move(
        team=credit.team,
        live_mode=True,
        type=Transaction.Type.DEBIT,
        amount=paid,
        reference_type=Transaction.ReferenceType.DEBT_PAYMENT,
        reference_id=credit.id,
        description=f"Debt paid from {credit.reference_type} {credit.reference_id}",
        payment_method="",
    )
    # Under the row lock the credit took: `debt` is the row's own (SQLite would compute
    # `debt - paid` in floating point).
    Wallet.objects.filter(team_id=credit.team_id).update(debt=debt - paid)
    owed = Reversal.objects.select_for_update(of=("self",)).filter(
        team_id=credit.team_id,
        live_mode=True,
        status=Reversal.Status.APPLIED,
        debt_outstanding__gt=0,
    )
    left = paid
    for reversal in owed.order_by("created_at", "id"):
        if left <= 0:
            break
        share = min(left, reversal.debt_outstanding)
        reversal.debt_outstanding -= share
        reversal.save(update_fields=["debt_outstanding"])
        left -= share
    return payment


def _write(txn: Transaction) -> Decimal:
    """The portable path: move the balance, then write the ledger row and the events. Returns
    the wallet's debt after the movement (0 in test mode)."""
    moved = None
    if txn.live_mode:
        moved = _move_live_balance(txn)
        txn.balance_after, txn.sequence = moved.balance_after, moved.sequence
    elif txn.type == Transaction.Type.DEBIT and txn.amount > TEST_MODE_BALANCE:
        raise InsufficientBalance()
    else:
        txn.balance_after = TEST_MODE_BALANCE
    txn.save(force_insert=True)
    event_record(
        team=txn.team,
        live_mode=txn.live_mode,
        type=_movement_event_type(txn),
        data_object=transaction_object(txn),
    )
    if moved and moved.crossed_low_balance:
        event_record(
            team=txn.team,
            live_mode=True,
            type=EventType.WALLET_LOW_BALANCE,
            **_low_balance_data(
                txn, balance=fmt(moved.balance_after), balance_before=fmt(moved.balance_before)
            ),
        )
    return moved.debt if moved else Decimal("0.00")


def _movement_event_type(txn: Transaction) -> EventType:
    if txn.type == Transaction.Type.CREDIT:
        return EventType.WALLET_CREDIT
    return EventType.WALLET_DEBIT


def _low_balance_data(txn: Transaction, *, balance: str | None, balance_before: str | None) -> dict:
    """The `wallet.low_balance` event's data, for both paths (the one-statement path passes None
    for the balances its statement fills in)."""
    return {
        "data_object": {
            "object": "balance",
            "balance": balance,
            "currency": "BRL",
            "threshold": fmt(LOW_BALANCE_THRESHOLD),
            "transaction_id": txn.id,
        },
        "previous_attributes": {"balance": balance_before},
    }


# The one statement that moves a live balance, used by both paths (the portable path runs it
# alone, the one-statement path as its first CTE). A conditional UPDATE that also takes the row
# lock until commit: a debit only matches while the balance covers it. ROUND keeps SQLite (which
# computes in binary floating point) on exact cents; on PostgreSQL `numeric` is exact anyway.
#
# The low-balance rule lives here, once: `crossed_low_balance` is true when the movement takes
# the balance from at least the threshold to below it. It is decided in SQL because the
# one-statement path must decide inside the statement whether to write the event. CAST: SQLite
# would otherwise compare the computed number with the parameter as text.
_MOVE_LIVE_BALANCE = """
UPDATE wallet_wallet
   SET balance = ROUND(balance {sign} %(amount)s, 2),
       last_transaction_at = %(now)s,
       movement_count = movement_count + 1
 WHERE team_id = %(team_id)s{guard}
RETURNING balance, movement_count, debt, ROUND(balance {undo} %(amount)s, 2) AS balance_before,
          (ROUND(balance {undo} %(amount)s, 2) >= CAST(%(threshold)s AS NUMERIC)
           AND balance < CAST(%(threshold)s AS NUMERIC)) AS crossed_low_balance"""
_MOVE_LIVE_BALANCE_SQL: dict[str, str] = {
    Transaction.Type.DEBIT: _MOVE_LIVE_BALANCE.format(
        sign="-", undo="+", guard=" AND balance >= %(amount)s"
    ),
    Transaction.Type.CREDIT: _MOVE_LIVE_BALANCE.format(sign="+", undo="-", guard=""),
}


@dataclass(frozen=True)
class _Moved:
    balance_after: Decimal
    sequence: int
    debt: Decimal
    balance_before: Decimal
    crossed_low_balance: bool


def _move_live_balance(txn: Transaction) -> _Moved:
    with connection.cursor() as cursor:
        cursor.execute(_MOVE_LIVE_BALANCE_SQL[txn.type], _move_params(txn))
        row = cursor.fetchone()
    if row is None:
        _raise_not_moved(txn)
    balance_after, sequence, debt, balance_before, crossed = row
    return _Moved(
        balance_after=q(Decimal(str(balance_after))),
        sequence=sequence,
        debt=q(Decimal(str(debt))),
        balance_before=q(Decimal(str(balance_before))),
        crossed_low_balance=bool(crossed),
    )


def _move_params(txn: Transaction) -> dict:
    return {
        "amount": txn.amount,
        "now": txn.created_at,
        "team_id": txn.team_id,
        "threshold": LOW_BALANCE_THRESHOLD,
    }


def _raise_not_moved(txn: Transaction) -> NoReturn:
    debt = Wallet.objects.filter(team_id=txn.team_id).values_list("debt", flat=True).first()
    if txn.type == Transaction.Type.DEBIT and debt is not None:
        # A wallet in debt has 0.00: what refuses the debit is the debt, not the amount.
        raise WalletRestricted() if debt > 0 else InsufficientBalance()
    raise Wallet.DoesNotExist(f"Team {txn.team_id} has no wallet")


# The same writes as `_write` for a live movement on PostgreSQL, in ONE statement: the wallet row
# lock is then held for a single round trip and the COMMIT, not for three statements and the
# Python between them (bench/wallet_debits.py measures the difference). Everything that does not
# depend on the new balance is prepared before the lock is taken. The events and their
# deliveries are the webhooks app's SQL (`EventSql`): the same rows `event_record` writes.
_MOVEMENT_EVENT = EventSql(
    name="movement", source="moved", data_object_sql={"balance_after": "moved.balance"}
)
_LOW_BALANCE_EVENT = EventSql(
    name="low_balance",
    source="moved WHERE moved.crossed_low_balance",
    data_object_sql={"balance": "moved.balance"},
    previous_attributes_sql={"balance": "moved.balance_before"},
)
# The ledger row is `txn`, as the portable path saves it (`ledger_columns`).
_ONE_STATEMENT_MOVEMENT = """
WITH moved AS ({move}
), ledger AS (
    INSERT INTO {ledger} ({ledger_columns})
    SELECT {ledger_values}
      FROM moved
), {movement_event}, {low_balance_event}
SELECT balance, movement_count, debt,
       ARRAY({movement_endpoints} UNION ALL {low_balance_endpoints})
  FROM moved
"""


def ledger_columns(model: type[Transaction] = Transaction) -> InsertColumns:
    """The ledger row's columns in the one statement: the balance and the sequence from the
    balance's UPDATE, the movement's own values as the statement's parameters (shared with the
    balance's UPDATE), and any other column from the transaction itself (`params(txn)`)."""
    computed = {
        "id": "%(txn_id)s",
        "team_id": "%(team_id)s",
        "live_mode": "TRUE",
        "type": "%(type)s",
        "amount": "%(amount)s",
        "description": "%(description)s",
        "reference_type": "%(reference_type)s",
        "reference_id": "%(reference_id)s",
        "balance_after": "moved.balance",
        "sequence": "moved.movement_count",
        "payment_method": "%(payment_method)s",
        "created_at": "%(now)s",
    }
    return InsertColumns(model, computed=computed, prefix="txn__", from_row=True)


_LEDGER_COLUMNS = ledger_columns()


@functools.cache
def _one_statement_sql(type: str) -> str:
    return one_statement_sql(type, _LEDGER_COLUMNS)


def one_statement_sql(type: str, ledger: InsertColumns) -> str:
    """The one statement of a movement of this type, with these ledger columns (a test's: of a
    copy of the model, a field added)."""
    return _ONE_STATEMENT_MOVEMENT.format(
        move=_MOVE_LIVE_BALANCE_SQL[type],
        ledger=connection.ops.quote_name(ledger.model._meta.db_table),
        ledger_columns=ledger.column_list(),
        ledger_values=ledger.value_list(),
        movement_event=_MOVEMENT_EVENT.ctes,
        low_balance_event=_LOW_BALANCE_EVENT.ctes,
        movement_endpoints=_MOVEMENT_EVENT.endpoint_ids,
        low_balance_endpoints=_LOW_BALANCE_EVENT.endpoint_ids,
    )


def _write_live_in_one_statement(txn: Transaction) -> Decimal:
    """Returns the wallet's debt after the movement."""
    params = {
        **_move_params(txn),
        "txn_id": txn.id,
        "type": txn.type,
        "description": txn.description,
        "reference_type": txn.reference_type,
        "reference_id": txn.reference_id,
        "payment_method": txn.payment_method,
        **_LEDGER_COLUMNS.named_params(txn),  # the columns not named above
        **_MOVEMENT_EVENT.params(
            team_id=txn.team_id,
            live_mode=True,
            type=_movement_event_type(txn),
            data_object=transaction_object(txn),  # balance_after: set by the statement
            created_at=txn.created_at,
        ),
        **_LOW_BALANCE_EVENT.params(
            team_id=txn.team_id,
            live_mode=True,
            type=EventType.WALLET_LOW_BALANCE,
            created_at=txn.created_at,
            **_low_balance_data(txn, balance=None, balance_before=None),
        ),
    }
    # Prepared: planning this statement cost PostgreSQL more than running it (≈ 1.1 ms of the
    # server's CPU per movement, docs/performance.md); prepared, it is planned once per connection.
    with prepared_cursor(connection) as cursor:
        cursor.execute(_one_statement_sql(txn.type), params)
        row = cursor.fetchone()
    if row is None:
        _raise_not_moved(txn)
    txn.balance_after, txn.sequence, debt, endpoint_ids = row
    deliveries_dispatch_on_commit(endpoint_ids)
    return debt
