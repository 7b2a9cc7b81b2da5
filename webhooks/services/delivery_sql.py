"""The deliveries' statements: the SQL webhooks/services/deliveries.py sends by hand, and the
batch claim's reads compiled once per process (PostgreSQL).

deliveries.py holds the rules (when a delivery is claimed, leased, released, handed on or
given up); this module, how each step is said to the database, where the ORM's way cost more
CPU than the statement: plain SQL with RETURNING (PostgreSQL, and SQLite 3.35+), CASE
expressions the ORM is slow to build, and on PostgreSQL a successful attempt recorded in one
statement of data-modifying CTEs (`success_record`). Each PostgreSQL-only form has a parity
test that runs it and its portable counterpart on the same rows
(webhooks/tests/test_claim_precompiled.py, test_record_at_once.py).

Tables' and columns' names come from the models (the attempt's column list from its fields,
`core.sql.InsertColumns`); every value is a parameter.
"""

import functools
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.sql import CompiledQuery, InsertColumns, prepared_cursor
from webhooks.models import Delivery, DeliveryAttempt, WebhookEndpoint


def free_of_lease(now: datetime) -> Q:
    """In nobody's hands: never leased, or its lease ran out."""
    return Q(leased_until__isnull=True) | Q(leased_until__lte=now)


# --- The batch claim's reads: querysets, and the same compiled once (PostgreSQL) -------------

# An aware datetime no delivery has: it stands for the claim's `now` while the SQL is compiled
# (the ORM passes an aware datetime through unchanged on PostgreSQL).
_NOW_MARKER = datetime(1, 1, 1, 0, 0, 0, 424242, tzinfo=UTC)


def endpoint_locked(endpoint_id: str) -> QuerySet[WebhookEndpoint]:
    # NO KEY UPDATE, as in delivery_claim: inserting deliveries (KEY SHARE) is not blocked.
    return WebhookEndpoint.objects.select_for_update(no_key=True).filter(pk=endpoint_id)


_ENDPOINT_LOCKED = CompiledQuery(endpoint_locked, "endpoint_id")


def locked_endpoint(endpoint_id: str, *, precompiled: bool) -> WebhookEndpoint | None:
    """The endpoint's row, locked (FOR NO KEY UPDATE) and read; None if there is none."""
    if precompiled:
        found = _ENDPOINT_LOCKED.instances(endpoint_id=endpoint_id)
    else:
        found = list(endpoint_locked(endpoint_id))
    return found[0] if found else None  # type: ignore[return-value]


def due_deliveries(
    endpoint_id: str, *, lease_id: str | None, now: datetime, size: int
) -> QuerySet[Delivery]:
    """Up to `size` due deliveries of the endpoint, oldest first, with their events, that are
    free or (`lease_id`) leased to the caller by the sweep; rows another claim or the sweep is
    taking are skipped (FOR UPDATE SKIP LOCKED)."""
    claimable = free_of_lease(now)
    if lease_id is not None:
        claimable |= Q(lease_id=lease_id)
    return (
        Delivery.objects.select_related("event")
        .select_for_update(skip_locked=True, of=("self",))
        .filter(claimable, endpoint_id=endpoint_id, status=Delivery.Status.PENDING)
        .filter(next_attempt_at__lte=now)
        .order_by("next_attempt_at", "pk")[:size]
    )


@functools.cache
def due_deliveries_compiled(size: int, by_lease: bool) -> CompiledQuery:
    """`due_deliveries` compiled once per batch size (the SQL's LIMIT) and lease-or-not."""
    placeholders = ("endpoint_id", "now", *(("lease_id",) if by_lease else ()))

    def build(endpoint_id: str, now: datetime, lease_id: str | None = None) -> QuerySet:
        return due_deliveries(endpoint_id, lease_id=lease_id, now=now, size=size)

    return CompiledQuery(build, *placeholders, markers={"now": _NOW_MARKER})


def claimable(
    endpoint_id: str, *, lease_id: str, now: datetime, size: int, precompiled: bool
) -> list[Delivery]:
    if not precompiled:
        return list(due_deliveries(endpoint_id, lease_id=lease_id or None, now=now, size=size))
    query = due_deliveries_compiled(size, bool(lease_id))
    values = {"endpoint_id": endpoint_id, "now": now}
    if lease_id:
        values["lease_id"] = lease_id
    return query.instances(**values)  # type: ignore[return-value]


# --- Claims and leases -----------------------------------------------------------------------


def in_flight_counts(endpoint_id: str, *, team_id: str, now: datetime) -> tuple[int, int]:
    """The attempts in flight of the endpoint, and of every endpoint of its team (both modes),
    in one statement of plain SQL: the ORM spent more CPU building this than the database spent
    answering it (docs/performance.md, "Webhook deliveries"). Both counts walk the partial
    index of deliveries in flight, per endpoint of the team."""
    deliveries = connection.ops.quote_name(Delivery._meta.db_table)
    endpoints = connection.ops.quote_name(WebhookEndpoint._meta.db_table)
    sql = (
        "SELECT COALESCE(SUM(CASE WHEN endpoint_id = %s THEN 1 ELSE 0 END), 0), COUNT(*)"  # noqa: S608
        f" FROM {deliveries} WHERE in_flight AND leased_until > %s"
        f" AND endpoint_id IN (SELECT id FROM {endpoints} WHERE team_id = %s)"
    )
    at = connection.ops.adapt_datetimefield_value(now)
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, [endpoint_id, at, team_id])
        endpoint_count, team_count = cursor.fetchone()
    return int(endpoint_count), int(team_count)


# The first key of the team's claim lock (pg_advisory_xact_lock(int, int)): "wh" and 1, a
# number no other advisory lock of the project uses; the second is the team id's hash.
_TEAM_CLAIMS_LOCK = 0x77680001


def team_claims_lock(team_id: str) -> None:
    """Make this transaction's claim wait for any other claim of the same team's endpoints to
    commit (PostgreSQL: an advisory lock released at the end of the transaction, so it works
    behind PgBouncer's transaction pooling too). Two teams whose ids hash alike only take turns
    more often. Elsewhere (SQLite) a write transaction already excludes every other."""
    if connection.vendor != "postgresql":
        return
    with prepared_cursor(connection) as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [_TEAM_CLAIMS_LOCK, team_id]
        )


def claim_for_attempt(delivery_id: int, *, now: datetime, lease_id: str) -> tuple[int, str] | None:
    """The conditional UPDATE that takes a due, free delivery (or one the sweep leased to
    `lease_id`) for an attempt: (its attempt count now, the new lease), or None if it was not
    claimable."""
    table = connection.ops.quote_name(Delivery._meta.db_table)
    at = connection.ops.adapt_datetimefield_value(now)
    until = connection.ops.adapt_datetimefield_value(
        now + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS)
    )
    new_lease = secrets.token_hex(8)
    callers = " OR lease_id = %s" if lease_id else ""
    sql = (
        f"UPDATE {table} SET leased_until = %s, lease_id = %s, in_flight = %s,"  # noqa: S608
        " attempt_count = attempt_count + 1"
        " WHERE id = %s AND status = %s AND next_attempt_at <= %s"
        f" AND (leased_until IS NULL OR leased_until <= %s{callers})"
        " RETURNING attempt_count"
    )
    params: list = [until, new_lease, True, delivery_id, Delivery.Status.PENDING, at, at]
    if lease_id:
        params.append(lease_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else (row[0], new_lease)


def lease_batch(
    deliveries: list[Delivery], *, lease_id: str, attempt_until: datetime, waiting_until: datetime
) -> None:
    """The batch's lease on all its deliveries, the first in flight (with an attempt's lease,
    its attempt counted), the others waiting until `waiting_until`. Plain SQL: the ORM's CASE
    expressions cost more CPU to build than the statement costs to run."""
    first_id = deliveries[0].pk
    ids = [delivery.pk for delivery in deliveries]
    at = connection.ops.adapt_datetimefield_value
    table = connection.ops.quote_name(Delivery._meta.db_table)
    sql = (
        f"UPDATE {table} SET lease_id = %s, in_flight = (id = %s),"  # noqa: S608
        " leased_until = CASE WHEN id = %s THEN %s ELSE %s END,"
        " attempt_count = attempt_count + CASE WHEN id = %s THEN 1 ELSE 0 END"
        f" WHERE id IN ({', '.join(['%s'] * len(ids))})"
    )
    params: list = [lease_id, first_id, first_id, at(attempt_until), at(waiting_until), first_id]
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, params + ids)


# --- Records ---------------------------------------------------------------------------------


def count_success(endpoint: WebhookEndpoint, *, attempted_at: datetime) -> tuple[bool, bool]:
    """The endpoint's counters after a successful attempt, in one UPDATE (it takes the row lock
    itself; django-auditlog leaves these counters out). Returns whether the endpoint is still
    active, and still at the URL the batch sends to: a batch goes on only if both are true.
    (A secret rolled meanwhile is not checked: the batch's last deliveries, at most
    WEBHOOK_BATCH_SECONDS, may still be signed with the secret it read.)"""
    table = connection.ops.quote_name(WebhookEndpoint._meta.db_table)
    sql = (
        f"UPDATE {table} SET total_deliveries = total_deliveries + 1,"  # noqa: S608 - the model's table
        " consecutive_failures = 0, last_triggered_at = %s, updated_at = %s"
        " WHERE id = %s RETURNING active, url"
    )
    at = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(sql, [at(attempted_at), at(timezone.now()), endpoint.pk])
        row = cursor.fetchone()
    if row is None:  # deleted meanwhile
        return False, False
    return bool(row[0]), row[1] == endpoint.url


def release_and_take(
    done: Delivery | None,
    changes: dict,
    *,
    following: Delivery | None,
    give_back: list[Delivery],
    lease_id: str,
    now: datetime,
) -> int | None:
    """One UPDATE over a batch's rows still under its lease: `done` released with `changes`
    (its attempt recorded), `following` put in flight with an attempt's lease (if it is still
    pending), `give_back` released untouched (due, free: the next batch or the sweep takes
    them). Returns `following`'s attempt count now, None if it was not taken."""
    done_id = done.pk if done is not None else 0  # ids start at 1: 0 matches no row
    next_id = following.pk if following is not None else 0
    ids = [done_id, next_id, *(delivery.pk for delivery in give_back)]
    ids = [pk for pk in ids if pk]
    if not ids:
        return None
    at = connection.ops.adapt_datetimefield_value
    next_at = changes.get("next_attempt_at")
    table = connection.ops.quote_name(Delivery._meta.db_table)
    sql = (
        f"UPDATE {table} SET in_flight = (id = %s),"  # noqa: S608
        " leased_until = CASE WHEN id = %s THEN %s ELSE NULL END,"
        " lease_id = CASE WHEN id = %s THEN lease_id ELSE '' END,"
        " status = CASE WHEN id = %s THEN %s ELSE status END,"
        " next_attempt_at = CASE WHEN id = %s THEN %s ELSE next_attempt_at END,"
        " attempt_count = attempt_count + CASE WHEN id = %s THEN 1 ELSE 0 END"
        f" WHERE lease_id = %s AND id IN ({', '.join(['%s'] * len(ids))})"
        " AND (id <> %s OR status = %s)"
        " RETURNING id, attempt_count"
    )
    until = now + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS)
    params = [
        next_id,
        next_id,
        at(until),
        next_id,
        done_id,
        changes.get("status", Delivery.Status.PENDING),
        done_id,
        at(next_at) if next_at is not None else None,
        next_id,
        lease_id,
        *ids,
        next_id,
        Delivery.Status.PENDING,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return next((count for pk, count in rows if pk == next_id), None)


def due_waiting(endpoint_id: str) -> bool:
    """Whether a due delivery of the endpoint is in nobody's hands."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    table = connection.ops.quote_name(Delivery._meta.db_table)
    sql = (
        f"SELECT 1 FROM {table} WHERE endpoint_id = %s AND status = %s"  # noqa: S608
        " AND next_attempt_at <= %s AND (leased_until IS NULL OR leased_until <= %s) LIMIT 1"
    )
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, [endpoint_id, Delivery.Status.PENDING, now, now])
        return cursor.fetchone() is not None


# --- The attempt's row -----------------------------------------------------------------------


@functools.cache
def attempt_columns(
    model: type[DeliveryAttempt] = DeliveryAttempt, prefix: str | None = None
) -> InsertColumns:
    """The attempt's INSERT: every column but the id, valued from the attempt (as its `save()`
    would write it)."""
    return InsertColumns(model, prefix=prefix, from_row=True)


@functools.cache
def attempt_insert_sql(model: type[DeliveryAttempt] = DeliveryAttempt) -> str:
    """The attempt's INSERT, built once per process."""
    columns = attempt_columns(model)
    return (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)}"  # noqa: S608
        f" ({columns.column_list()}) VALUES ({columns.value_list()}) RETURNING id"
    )


def attempt_insert(attempt: DeliveryAttempt) -> None:
    """Save a new attempt. Plain SQL: the ORM's `create()` cost more CPU than anything else in
    a batch's record (model save machinery); the values are adapted by the model's own
    fields."""
    with connection.cursor() as cursor:
        cursor.execute(attempt_insert_sql(), attempt_columns().params(attempt))
        attempt.pk = cursor.fetchone()[0]
    _saved(attempt)


def _saved(attempt: DeliveryAttempt) -> None:
    attempt._state.adding = False
    attempt._state.db = connection.alias


# --- A batch's success in one statement (PostgreSQL) -----------------------------------------


def success_record(
    attempt: DeliveryAttempt,
    *,
    endpoint: WebhookEndpoint,
    lease_id: str,
    following: Delivery | None,
    now: datetime,
) -> tuple[bool, bool, int | None]:
    """The endpoint's counters, the attempt's INSERT, and the release of the attempt's delivery
    with the handover to `following`, as data-modifying CTEs of one statement (PostgreSQL).
    Each part has the conditions of its three-statement counterpart (`count_success`,
    `attempt_insert`, `release_and_take`): only rows still under the batch's lease move;
    `following` is put in flight only if it is still pending and the endpoint, as the counters'
    UPDATE leaves it (it takes the row's lock), is active at the batch's URL (`endpoint.url`).
    Saves the attempt; returns whether the endpoint is active, whether at the batch's URL, and
    `following`'s attempt count now (None: not taken)."""
    params: dict[str, Any] = {
        "endpoint": endpoint.pk,
        "url": endpoint.url,
        "attempted_at": attempt.attempted_at,
        "now": now,
        "lease": lease_id,
        "done": attempt.delivery_id,
        "next": following.pk if following is not None else 0,  # ids start at 1: 0 is no row
        "until": now + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS),
        "succeeded": Delivery.Status.SUCCEEDED,
        "pending": Delivery.Status.PENDING,
        **attempt_columns(prefix=_ATTEMPT).named_params(attempt),
    }
    with prepared_cursor(connection) as cursor:
        cursor.execute(success_sql(), params)
        attempt.pk, active, same_url, taken = cursor.fetchone()
    _saved(attempt)
    return bool(active), bool(same_url), taken


_ATTEMPT = "attempt_"  # the prefix of the attempt's parameters in `success_sql`


@functools.cache
def success_sql(attempt_model: type[DeliveryAttempt] = DeliveryAttempt) -> str:
    """`success_record`'s SQL, built once per process from the models."""
    quote = connection.ops.quote_name
    attempt = attempt_columns(attempt_model, prefix=_ATTEMPT)
    endpoints = quote(WebhookEndpoint._meta.db_table)
    attempts = quote(attempt_model._meta.db_table)
    deliveries = quote(Delivery._meta.db_table)
    return (
        f"WITH counted AS (UPDATE {endpoints} SET total_deliveries = total_deliveries + 1,"  # noqa: S608
        " consecutive_failures = 0, last_triggered_at = %(attempted_at)s, updated_at = %(now)s"
        " WHERE id = %(endpoint)s RETURNING active, url),"
        f" recorded AS (INSERT INTO {attempts} ({attempt.column_list()})"
        f" VALUES ({attempt.value_list()}) RETURNING id),"
        f" moved AS (UPDATE {deliveries} SET in_flight = (id = %(next)s),"
        " leased_until = CASE WHEN id = %(next)s THEN %(until)s END,"
        " lease_id = CASE WHEN id = %(next)s THEN lease_id ELSE '' END,"
        " status = CASE WHEN id = %(done)s THEN %(succeeded)s ELSE status END,"
        " next_attempt_at = CASE WHEN id = %(done)s THEN NULL ELSE next_attempt_at END,"
        " attempt_count = attempt_count + CASE WHEN id = %(next)s THEN 1 ELSE 0 END"
        " WHERE lease_id = %(lease)s AND (id = %(done)s OR (id = %(next)s"
        " AND status = %(pending)s"
        " AND EXISTS (SELECT 1 FROM counted WHERE active AND url = %(url)s)))"
        " RETURNING id, attempt_count)"
        " SELECT (SELECT id FROM recorded), COALESCE((SELECT active FROM counted), FALSE),"
        " COALESCE((SELECT url = %(url)s FROM counted), FALSE),"
        " (SELECT attempt_count FROM moved WHERE id = %(next)s)"
    )
