"""Recording a domain event and its deliveries (the outbox).

Who gets a delivery of an event is defined once, in `subscribers_of`. Both ways of writing an
event use that definition:

* `event_record`: the ORM path, used by every writer (and by the wallet off PostgreSQL);
* `EventSql`: the same rows written by SQL a caller embeds in its own single statement
  (the wallet's one-statement PostgreSQL path, wallet/services/ledger.py). Its endpoint filter
  is the SQL Django compiles from `subscribers_of`, not a restatement of it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

import orjson
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import BooleanField, CharField, F, Field, Func, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.db.models.sql.compiler import SQLCompiler

from core.ids import new_id
from core.sql import CompiledQuery, InsertColumns
from webhooks.models import Delivery, Event, EventType, WebhookEndpoint
from webhooks.services.deliveries import deliveries_dispatch_on_commit

if TYPE_CHECKING:  # webhooks sit below agencies (layers in pyproject.toml): a type only
    from agencies.models import Team

_JSON_EACH_CONTAINS = "EXISTS (SELECT 1 FROM json_each({events}) WHERE json_each.value = {type})"


class _ListsEventType(Func):
    """`endpoint.events`, a JSON list of type names, contains the event's type."""

    arity = 2
    output_field = BooleanField()

    def as_sql(  # type: ignore[override]  # Func.as_sql's template arguments are not used
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any
    ) -> tuple[str, list]:
        # SQLite's JSON1: json_each() yields the list's elements as rows. The parts are compiled
        # SQL, their values parameters.
        (events, type_), params = self._compile_arguments(compiler)
        return _JSON_EACH_CONTAINS.format(events=events, type=type_), params

    def as_postgresql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any
    ) -> tuple[str, list]:
        (events, type_), params = self._compile_arguments(compiler)
        return f"({events} ? {type_})", params

    def _compile_arguments(self, compiler: SQLCompiler) -> tuple[list[str], list]:
        sqls: list[str] = []
        params: list = []
        for expression in self.get_source_expressions():
            sql, expression_params = compiler.compile(expression)
            sqls.append(sql)
            params.extend(expression_params)
        return sqls, params


def subscribers_of(*, team: Any, live_mode: Any, type: Any) -> QuerySet[WebhookEndpoint]:
    """THE subscription rule: the endpoints that get a delivery of an event are the active
    endpoints of the event's team and mode subscribed to its type. An endpoint inactive when the
    event happens gets none (docs/decisions.md, "Outbox").

    The arguments are the event's values (the ORM path) or SQL expressions naming the columns of
    the event row being inserted (the SQL path)."""
    return WebhookEndpoint.objects.filter(team=team, live_mode=live_mode, active=True).filter(
        _ListsEventType(F("events"), type)
    )


@dataclass(frozen=True)
class NewEvent:
    """One event of `events_record`: what `event_record` takes besides the team and mode."""

    type: EventType | str
    data_object: dict
    previous_attributes: dict | None = None


def event_record(
    *,
    team: Team,
    live_mode: bool,
    type: EventType | str,
    data_object: dict,
    previous_attributes: dict | None = None,
) -> Event:
    """Record a domain event and its deliveries inside the caller's transaction: if the change
    rolls back, so do they (the outbox). Must be called within `transaction.atomic`."""
    [event] = events_record(
        team=team,
        live_mode=live_mode,
        events=[NewEvent(type, data_object, previous_attributes)],
    )
    return event


def events_record(*, team: Team, live_mode: bool, events: Sequence[NewEvent]) -> list[Event]:
    """Record the events of one change of one team and mode, in the order given, with their
    deliveries, inside the caller's transaction (as `event_record`): one INSERT for the events
    and ONE read of the subscribed endpoints for all of them (`subscribers_of`, applied to each
    type), so the events of one change see the endpoints as they are at that one moment
    (docs/performance.md, "Instant bookings")."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_record must run inside the transaction of the change it reports")
    if not events:
        return []
    rows = [
        Event(
            team=team,
            live_mode=live_mode,
            type=EventType(new.type),
            api_version=settings.WEBHOOK_API_VERSION,
            data_object=new.data_object,
            previous_attributes=new.previous_attributes or {},
        )
        for new in events
    ]
    # created_at (auto_now_add): the clock read for each row in turn, as one `create` each did.
    Event.objects.bulk_create(rows)
    subscribers = subscribers_by_type(team.pk, live_mode, [event.type for event in rows])
    deliveries_create([(event, subscribers[event.type]) for event in rows])
    return rows


def subscribers_by_type(team_id: str, live_mode: bool, types: list[str]) -> dict[str, list[str]]:
    """The endpoint ids `subscribers_of` selects for each of `types` (a team's events of one
    mode), in one statement: the rule once per distinct type, joined by UNION ALL."""
    distinct = list(dict.fromkeys(types))
    found: dict[str, list[str]] = {type_: [] for type_ in distinct}
    values = {f"type_{i}": type_ for i, type_ in enumerate(distinct)}
    for endpoint_id, type_ in _subscribers_query(live_mode, len(distinct)).rows(
        team=team_id, **values
    ):
        found[type_].append(endpoint_id)
    return found


@functools.cache
def _subscribers_query(live_mode: bool, count: int) -> CompiledQuery:
    """`subscribers_of` for `count` types at once as (endpoint id, type) rows, compiled once
    per process for each mode and number of types (the types and the team are parameters)."""

    def build(team: str, **types: str) -> QuerySet:
        parts = [
            subscribers_of(team=team, live_mode=live_mode, type=Value(types[f"type_{i}"]))
            .order_by()
            .annotate(event_type=Value(types[f"type_{i}"], output_field=CharField()))
            .values_list("id", "event_type")
            for i in range(count)
        ]
        return parts[0].union(*parts[1:], all=True) if count > 1 else parts[0]

    return CompiledQuery(build, "team", *(f"type_{i}" for i in range(count)))


def deliveries_create(subscribed: list[tuple[Event, list[str]]]) -> list[Delivery]:
    """One delivery row per event and endpoint, due now, all in one INSERT; sent once the
    transaction commits (one batch message per endpoint)."""
    deliveries = [
        Delivery(event=event, endpoint_id=endpoint_id, next_attempt_at=event.created_at)
        for event, endpoint_ids in subscribed
        for endpoint_id in endpoint_ids
    ]
    if not deliveries:
        return []
    Delivery.objects.bulk_create(deliveries)
    deliveries_dispatch_on_commit(delivery.endpoint_id for delivery in deliveries)
    return deliveries


# --- The same rows, as SQL embedded in a caller's statement (PostgreSQL) ----------------------


# Filled in by `EventSql` with code's own text only (names checked, the caller's constant SQL,
# Django's compiled rule, the column lists and values built from the models' fields by
# `event_columns` and `delivery_columns`); every value is a parameter. The deliveries: the
# outbox rows, due at once, for the endpoints `subscribers_of` selects (Django's SQL for it,
# reading the event row as "event"). Kept short: psycopg parses a statement of more than 4096
# characters again at every execution (webhooks/tests/test_sql_columns.py).
_EVENT_CTES = """{name}_event AS (
    INSERT INTO {events} ({event_columns})
    SELECT {event_values}
      FROM {source}
 RETURNING id, team_id, live_mode, type, created_at
), {name}_deliveries AS (
    INSERT INTO {deliveries} ({delivery_columns})
    SELECT {delivery_values}
      FROM {name}_event AS event
     CROSS JOIN LATERAL ({subscribers}) AS endpoint
 RETURNING id, endpoint_id
)"""


_NAME = re.compile(r"^[a-z][a-z_]*$")


@dataclass(frozen=True)
class EventSql:
    """An event and its deliveries written by a caller's own single statement (PostgreSQL only):
    the rows `event_record` writes, for a caller that writes its change and its events in one
    statement. Declare it once (a module constant); its SQL is built on first use and reused.

    * `ctes` goes into the caller's `WITH` list: `<name>_event` writes the event once per row of
      `source`, a FROM clause of the caller's (a CTE, possibly with a WHERE) giving zero or one
      row, so the event can depend on the outcome of the caller's own write; `<name>_deliveries`
      writes its deliveries, for the endpoints `subscribers_of` selects.
    * `params(...)` gives the values for one execution; they are named `<name>__*`, so one
      statement can hold several events.
    * `delivery_ids` is a query for the ids of the deliveries written; `endpoint_ids`, for their
      endpoints': the caller passes those to `deliveries_dispatch_on_commit` once the statement
      has run, as `event_record` does.

    `data_object_sql` and `previous_attributes_sql` set top-level fields that only the statement
    knows: field name -> SQL expression over `source`'s row, whose text replaces the field's
    value in `data_object` / `previous_attributes`."""

    name: str
    source: str
    data_object_sql: dict[str, str] = field(default_factory=dict)
    previous_attributes_sql: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in (self.name, *self.data_object_sql, *self.previous_attributes_sql):
            if not _NAME.match(name):
                raise ValueError(f"Not a plain name for SQL: {name!r}")

    @cached_property
    def ctes(self) -> str:
        return event_ctes(self, *self._columns)

    @cached_property
    def _columns(self) -> tuple[InsertColumns, InsertColumns]:
        return event_columns(self), delivery_columns(self.name)

    @property
    def delivery_ids(self) -> str:
        return f"SELECT id FROM {self.name}_deliveries"  # noqa: S608 - a checked name

    @property
    def endpoint_ids(self) -> str:
        return f"SELECT endpoint_id FROM {self.name}_deliveries"  # noqa: S608 - a checked name

    def params(
        self,
        *,
        team_id: str,
        live_mode: bool,
        type: EventType | str,
        data_object: dict,
        previous_attributes: dict | None = None,
        created_at: datetime,
    ) -> dict:
        p = f"{self.name}__"
        return {
            f"{p}id": new_id("evt"),
            f"{p}team_id": team_id,
            f"{p}live_mode": live_mode,
            f"{p}type": EventType(type).value,
            f"{p}api_version": settings.WEBHOOK_API_VERSION,
            f"{p}data_object": _json(data_object),
            f"{p}previous_attributes": _json(previous_attributes or {}),
            f"{p}created_at": created_at,
            **self._columns[0].named_params(),
            **self._columns[1].named_params(),
        }


def event_ctes(event_sql: EventSql, events: InsertColumns, deliveries: InsertColumns) -> str:
    """`event_sql.ctes`, with these columns (a test's: of a copy of a model, a field added)."""
    quote = connection.ops.quote_name
    return _EVENT_CTES.format(
        name=event_sql.name,
        events=quote(events.model._meta.db_table),
        event_columns=events.column_list(),
        event_values=events.value_list(),
        source=event_sql.source,
        deliveries=quote(deliveries.model._meta.db_table),
        delivery_columns=deliveries.column_list(),
        delivery_values=deliveries.value_list(),
        subscribers=_subscribers_of_event_sql(connection.vendor),
    )


def event_columns(event_sql: EventSql, model: type[Event] = Event) -> InsertColumns:
    """The event row's columns: the values `params` names, the data with the statement's own
    fields set in it; any other column its default."""
    p = f"{event_sql.name}__"
    computed = {
        name: f"%({p}{name})s"
        for name in ("id", "team_id", "live_mode", "type", "api_version", "created_at")
    }
    computed["data_object"] = _jsonb_with_fields(
        f"%({p}data_object)s::jsonb", event_sql.data_object_sql
    )
    computed["previous_attributes"] = _jsonb_with_fields(
        f"%({p}previous_attributes)s::jsonb", event_sql.previous_attributes_sql
    )
    return InsertColumns(model, computed=computed, prefix=f"{p}event__")


def delivery_columns(name: str, model: type[Delivery] = Delivery) -> InsertColumns:
    """The delivery rows' columns: of the event and the endpoint, due at once; any other column
    its default, as `deliveries_create` leaves them."""
    computed = {
        "event_id": "event.id",
        "endpoint_id": "endpoint.id",
        "next_attempt_at": "event.created_at",
        "created_at": "event.created_at",
    }
    # Its defaults are constants (a callable one is refused, `one_row`): the parameters of every
    # EventSql of a statement share their names and values.
    return InsertColumns(model, computed=computed, prefix="delivery__", one_row=False)


@functools.cache
def _subscribers_of_event_sql(vendor: str) -> str:
    """`subscribers_of` compiled by Django once per process, with the event's team, mode and type
    read from the columns of a row aliased "event" (the event just inserted)."""

    def event_column(column: str, field: Field) -> RawSQL:
        return RawSQL(f'"event"."{column}"', (), output_field=field)  # noqa: S611 - constants

    subscribers = subscribers_of(
        team=event_column("team_id", CharField()),
        live_mode=event_column("live_mode", BooleanField()),
        type=event_column("type", CharField()),
    )
    sql, params = subscribers.order_by().values("id").query.sql_with_params()
    # The caller's statement uses named parameters: this part must need none of its own.
    if params or "%" in sql:
        raise RuntimeError(f"The subscription rule compiled with parameters: {sql} {params}")
    return sql


def _jsonb_with_fields(jsonb: str, fields: dict[str, str]) -> str:
    for name, text_sql in fields.items():
        jsonb = f"jsonb_set({jsonb}, '{{{name}}}', to_jsonb(({text_sql})::text))"
    return jsonb


_DJANGO_JSON = DjangoJSONEncoder()


def _json(value: dict) -> str:
    """JSON as Event's fields encode it (DjangoJSONEncoder: the ORM path), in a fraction of the
    time: the one-statement path is on the wallet's hot path."""
    if not value:
        return "{}"
    # Datetimes as Django writes them, not as orjson would; non-string keys as json.dumps.
    options = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS
    return orjson.dumps(value, default=_DJANGO_JSON.default, option=options).decode()
