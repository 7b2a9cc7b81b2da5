"""Every movement of money goes through `wallet_credit` and `wallet_debit`.

Live mode: one conditional `UPDATE … RETURNING` both locks the wallet row and moves the balance
(never below zero: the WHERE clause and a CHECK constraint), then the ledger row and the events
are written, all in one transaction. The lock is held only for those writes; callers never make a
network call inside it. Test mode: no wallet row, a constant 5000.00 balance; the ledger rows are
still written.
"""

from decimal import Decimal

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core.exceptions import Conflict, UnprocessableEntity
from core.money import fmt, q
from core.timestamps import iso_utc
from wallet.models import (
    LOW_BALANCE_THRESHOLD,
    TEST_MODE_BALANCE,
    Transaction,
    Wallet,
)
from webhooks.models import EventType
from webhooks.services import event_record


class InsufficientBalance(UnprocessableEntity):
    code = "insufficient_balance"
    message = "Insufficient balance"


class DuplicateTransaction(Conflict):
    code = "duplicate_transaction"
    message = "This reference already has a transaction of this type"


def wallet_create(*, team) -> Wallet:
    return Wallet.objects.create(team=team)


def wallet_credit(
    *,
    team,
    live_mode: bool,
    amount: Decimal,
    reference_type: str,
    reference_id: str,
    description: str,
    payment_method: str = "",
) -> Transaction:
    return _record(
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
    team,
    live_mode: bool,
    amount: Decimal,
    reference_type: str,
    reference_id: str,
    description: str,
) -> Transaction:
    """Raises InsufficientBalance (nothing is written) or DuplicateTransaction."""
    return _record(
        team=team,
        live_mode=live_mode,
        type=Transaction.Type.DEBIT,
        amount=amount,
        reference_type=reference_type,
        reference_id=reference_id,
        description=description,
        payment_method="",
    )


@transaction.atomic
def _record(
    *, team, live_mode, type, amount, reference_type, reference_id, description, payment_method
) -> Transaction:
    amount = q(amount)
    if amount <= 0:
        raise ValueError(f"A transaction amount must be positive, not {amount}")
    now = timezone.now()
    sequence = None
    if live_mode:
        balance_after, sequence = _move_live_balance(team=team, type=type, amount=amount, now=now)
    elif type == Transaction.Type.DEBIT and amount > TEST_MODE_BALANCE:
        raise InsufficientBalance()
    else:
        balance_after = TEST_MODE_BALANCE
    try:
        txn = Transaction.objects.create(
            team=team,
            live_mode=live_mode,
            type=type,
            amount=amount,
            reference_type=reference_type,
            reference_id=reference_id,
            description=description[:255],
            balance_after=balance_after,
            sequence=sequence,
            payment_method=payment_method,
            created_at=now,
        )
    except IntegrityError:
        # The unique (team, mode, type, reference) constraint: this reference was already
        # moved. The exception rolls back the balance update above with it.
        raise DuplicateTransaction() from None
    event_type = (
        EventType.WALLET_CREDIT if type == Transaction.Type.CREDIT else EventType.WALLET_DEBIT
    )
    event_record(
        team=team, live_mode=live_mode, type=event_type, data_object=transaction_object(txn)
    )
    balance_before = (
        balance_after + amount if type == Transaction.Type.DEBIT else balance_after - amount
    )
    if live_mode and balance_before >= LOW_BALANCE_THRESHOLD > balance_after:
        event_record(
            team=team,
            live_mode=True,
            type=EventType.WALLET_LOW_BALANCE,
            data_object={
                "object": "balance",
                "balance": fmt(balance_after),
                "currency": "BRL",
                "threshold": fmt(LOW_BALANCE_THRESHOLD),
                "transaction_id": txn.id,
            },
            previous_attributes={"balance": fmt(balance_before)},
        )
    return txn


def _move_live_balance(*, team, type, amount: Decimal, now) -> tuple[Decimal, int]:
    """Move the wallet balance in one statement that also takes the row lock until commit.

    A debit only matches while the balance covers it. ROUND keeps SQLite (which computes in
    binary floating point) on exact cents; on PostgreSQL `numeric` is exact anyway."""
    table = connection.ops.quote_name(Wallet._meta.db_table)
    sign, guard, params = ("+", "", [amount, now, team.pk])
    if type == Transaction.Type.DEBIT:
        sign, guard, params = "-", " AND balance >= %s", [amount, now, team.pk, amount]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET balance = ROUND(balance {sign} %s, 2), "  # noqa: S608 - fixed SQL
            f"last_transaction_at = %s, movement_count = movement_count + 1 "
            f"WHERE team_id = %s{guard} RETURNING balance, movement_count",
            params,
        )
        row = cursor.fetchone()
    if row is None:
        if type == Transaction.Type.DEBIT and Wallet.objects.filter(team=team).exists():
            raise InsufficientBalance()
        raise Wallet.DoesNotExist(f"Team {team.pk} has no wallet")
    return q(Decimal(str(row[0]))), row[1]


def transaction_object(txn: Transaction) -> dict:
    """The wire shape of a ledger transaction (API and `wallet.*` events)."""
    data = {
        "id": txn.id,
        "type": txn.type,
        "amount": fmt(txn.amount),
        "currency": txn.currency,
        "description": txn.description,
        "reference_type": txn.reference_type,
        "reference_id": txn.reference_id,
        "balance_after": fmt(txn.balance_after),
        "created_at": iso_utc(txn.created_at),
    }
    if txn.payment_method:
        data["payment_method"] = txn.payment_method
    return data
