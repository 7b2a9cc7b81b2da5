"""Every movement of money goes through `wallet_credit` and `wallet_debit`.

Live mode: one conditional `UPDATE … RETURNING` both locks the wallet row and moves the balance
(never below zero: the WHERE clause and a CHECK constraint), then the ledger row and the events
and their webhook deliveries are written, all in one transaction. On PostgreSQL these writes are
one statement, so the lock is held for one round trip and the COMMIT; callers never make a
network call inside it.
Test mode: no wallet row, a constant 5000.00 balance; the ledger rows are still written.
"""

import json
from decimal import Decimal

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core.exceptions import Conflict, UnprocessableEntity
from core.ids import new_id
from core.money import fmt, q
from core.timestamps import iso_utc
from wallet.models import (
    LOW_BALANCE_THRESHOLD,
    TEST_MODE_BALANCE,
    Transaction,
    Wallet,
)
from webhooks.models import EventType
from webhooks.services import deliveries_dispatch_on_commit, event_record


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
        if live_mode and connection.vendor == "postgresql":
            _write_live_in_one_statement(txn)
        else:
            _write(txn)
    except IntegrityError:
        # The unique (team, mode, type, reference) constraint: this reference was already
        # moved. The exception rolls back the balance update with it.
        raise DuplicateTransaction() from None
    txn._state.adding = False
    return txn


def _write(txn: Transaction) -> None:
    """The portable path: move the balance, then write the ledger row and the events."""
    if txn.live_mode:
        txn.balance_after, txn.sequence = _move_live_balance(
            team=txn.team, type=txn.type, amount=txn.amount, now=txn.created_at
        )
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
    balance_before = _balance_before(txn)
    if txn.live_mode and balance_before >= LOW_BALANCE_THRESHOLD > txn.balance_after:
        event_record(
            team=txn.team,
            live_mode=True,
            type=EventType.WALLET_LOW_BALANCE,
            data_object={
                "object": "balance",
                "balance": fmt(txn.balance_after),
                "currency": "BRL",
                "threshold": fmt(LOW_BALANCE_THRESHOLD),
                "transaction_id": txn.id,
            },
            previous_attributes={"balance": fmt(balance_before)},
        )


def _movement_event_type(txn: Transaction) -> EventType:
    if txn.type == Transaction.Type.CREDIT:
        return EventType.WALLET_CREDIT
    return EventType.WALLET_DEBIT


def _balance_before(txn: Transaction) -> Decimal:
    if txn.type == Transaction.Type.DEBIT:
        return txn.balance_after + txn.amount
    return txn.balance_after - txn.amount


# The same writes as `_write` for a live movement on PostgreSQL, in ONE statement: the wallet row
# lock is then held for a single round trip and the COMMIT, not for three statements and the
# Python between them (bench/wallet_debits.py measures the difference). Everything that does not
# depend on the new balance is prepared before the lock is taken.
_ONE_STATEMENT_MOVEMENT = """
WITH moved AS (
    UPDATE wallet_wallet
       SET balance = ROUND(balance {sign} %(amount)s, 2),
           last_transaction_at = %(now)s,
           movement_count = movement_count + 1
     WHERE team_id = %(team_id)s {guard}
 RETURNING balance, movement_count
), ledger AS (
    INSERT INTO wallet_transaction
           (id, team_id, live_mode, type, amount, currency, description, reference_type,
            reference_id, balance_after, sequence, payment_method, created_at)
    SELECT %(txn_id)s, %(team_id)s, TRUE, %(type)s, %(amount)s, 'BRL', %(description)s,
           %(reference_type)s, %(reference_id)s, balance, movement_count, %(payment_method)s,
           %(now)s
      FROM moved
), movement_event AS (
    INSERT INTO webhooks_event
           (id, team_id, live_mode, type, api_version, data_object, previous_attributes,
            created_at)
    SELECT %(event_id)s, %(team_id)s, TRUE, %(event_type)s, %(api_version)s,
           jsonb_set(%(data_object)s::jsonb, '{{balance_after}}', to_jsonb(balance::text)),
           '{{}}'::jsonb, %(now)s
      FROM moved
), low_balance_event AS (
    INSERT INTO webhooks_event
           (id, team_id, live_mode, type, api_version, data_object, previous_attributes,
            created_at)
    SELECT %(low_balance_event_id)s, %(team_id)s, TRUE, 'wallet.low_balance', %(api_version)s,
           jsonb_build_object('object', 'balance', 'balance', balance::text, 'currency', 'BRL',
                              'threshold', %(threshold)s::text, 'transaction_id', %(txn_id)s),
           jsonb_build_object('balance', (balance {undo} %(amount)s)::text), %(now)s
      FROM moved
     WHERE balance < %(threshold)s AND balance {undo} %(amount)s >= %(threshold)s
    RETURNING id, type
), deliveries AS (
    -- The outbox: one delivery per active endpoint of the team subscribed to each event.
    INSERT INTO webhooks_delivery
           (event_id, endpoint_id, status, attempt_count, next_attempt_at, lease_id, created_at)
    SELECT event.id, endpoint.id, 'pending', 0, %(now)s, '', %(now)s
      FROM (SELECT %(event_id)s AS id, %(event_type)s AS type FROM moved
            UNION ALL SELECT id, type FROM low_balance_event) AS event
      JOIN webhooks_webhookendpoint AS endpoint
        ON endpoint.team_id = %(team_id)s AND endpoint.live_mode AND endpoint.active
       AND endpoint.events ? event.type
    RETURNING id
)
SELECT balance, movement_count, ARRAY(SELECT id FROM deliveries) FROM moved
"""
_DEBIT_STATEMENT = _ONE_STATEMENT_MOVEMENT.format(
    sign="-", undo="+", guard="AND balance >= %(amount)s"
)
_CREDIT_STATEMENT = _ONE_STATEMENT_MOVEMENT.format(sign="+", undo="-", guard="")


def _write_live_in_one_statement(txn: Transaction) -> None:
    is_debit = txn.type == Transaction.Type.DEBIT
    params = {
        "amount": txn.amount,
        "now": txn.created_at,
        "team_id": txn.team_id,
        "txn_id": txn.id,
        "type": txn.type,
        "description": txn.description,
        "reference_type": txn.reference_type,
        "reference_id": txn.reference_id,
        "payment_method": txn.payment_method,
        "event_id": new_id("evt"),
        "event_type": _movement_event_type(txn).value,
        "api_version": settings.WEBHOOK_API_VERSION,
        "data_object": json.dumps(transaction_object(txn), cls=DjangoJSONEncoder),
        "low_balance_event_id": new_id("evt"),
        "threshold": LOW_BALANCE_THRESHOLD,
    }
    with connection.cursor() as cursor:
        cursor.execute(_DEBIT_STATEMENT if is_debit else _CREDIT_STATEMENT, params)
        row = cursor.fetchone()
    if row is None:
        if is_debit and Wallet.objects.filter(team_id=txn.team_id).exists():
            raise InsufficientBalance()
        raise Wallet.DoesNotExist(f"Team {txn.team_id} has no wallet")
    txn.balance_after, txn.sequence, delivery_ids = row
    deliveries_dispatch_on_commit(delivery_ids)


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
        "balance_after": fmt(txn.balance_after) if txn.balance_after is not None else None,
        "created_at": iso_utc(txn.created_at),
    }
    if txn.payment_method:
        data["payment_method"] = txn.payment_method
    return data
