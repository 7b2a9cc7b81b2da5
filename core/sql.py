"""Querysets compiled to SQL once per process, for the hottest reads.

Building and compiling a queryset with subqueries costs about a millisecond of Python
(`bench/profile_hotpaths.py`: the wallet balance spent 1.0 ms there against 0.15 ms running its
one statement). A `CompiledQuery` builds its queryset once, with a marker in place of each
value that changes between calls, compiles it on first use, and then only swaps this call's
values into the parameters; the rows get the same conversions as the queryset's (Django's
converters: decimals and datetimes on SQLite, for instance). The rule stays written once, as
an ordinary queryset.

Only plain values can be placeholders: a value the ORM transforms on the way to the database
(`__icontains` wraps it in %, a model instance becomes its pk) would not be found in the
parameters, and compiling raises at once rather than run a query with a marker in it. A
placeholder whose field would not take a string (a datetime) is given a marker value of its
own (`markers=`) that the ORM passes through unchanged on the database compiled for.

`instances()` gives model instances, with their `select_related` objects, as the queryset would.

On PostgreSQL the statement is also prepared (`prepared_cursor`): planning the balance's cost
the server about 180 µs of CPU per request, more than running it.
"""

from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

from core.postgresql.base import DatabaseWrapper as PostgreSQLWrapper


def prepared_cursor(connection: BaseDatabaseWrapper) -> CursorWrapper:
    """A cursor whose statements the database plans once per connection where it can
    (core.postgresql, straight to PostgreSQL); elsewhere the connection's ordinary cursor."""
    wrapper = connections[connection.alias]  # `django.db.connection` is a proxy of it
    if isinstance(wrapper, PostgreSQLWrapper):
        return wrapper.prepared_cursor()
    return wrapper.cursor()


class CompiledQuery:
    def __init__(
        self,
        build: Callable[..., QuerySet],
        *placeholders: str,
        using: str = "default",
        markers: dict[str, Any] | None = None,
    ):
        self._build = build
        self._placeholders = placeholders
        self._using = using
        self._markers = markers or {}
        self._compiled: tuple[Any, str, tuple, list[str | None]] | None = None

    def _compile(self) -> tuple[Any, str, tuple, list[str | None]]:
        markers = {name: f"\x00{name}\x00" for name in self._placeholders}
        markers.update(self._markers)
        queryset = self._build(**markers)
        query = queryset.query
        columns = [*query.extra_select, *query.values_select, *query.annotation_select]
        if queryset._fields and list(queryset._fields) != columns:  # type: ignore[attr-defined]
            # values_list() would reorder the columns; rows() returns them as the SQL has them.
            raise ValueError(f"List the columns in the order the SQL selects them: {columns}")
        compiler = query.get_compiler(using=self._using)
        sql, params = compiler.as_sql()
        by_marker = {marker: name for name, marker in markers.items()}
        slots = [_marker_of(p, by_marker) for p in params]
        missing = set(self._placeholders) - set(slots)
        if missing:
            raise ValueError(f"Placeholders not passed through to the SQL: {sorted(missing)}")
        return compiler, sql, tuple(params), slots

    def _fetch(self, values: dict[str, Any]) -> tuple[Any, list[tuple]]:
        if self._compiled is None:
            self._compiled = self._compile()
        compiler, sql, params, slots = self._compiled
        params = tuple(
            param if slot is None else values[slot]
            for param, slot in zip(params, slots, strict=True)
        )
        with prepared_cursor(connections[self._using]) as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        return compiler, fetched

    def rows(self, **values: Any) -> list[tuple]:
        compiler, fetched = self._fetch(values)
        return list(compiler.results_iter(results=[fetched], tuple_expected=True))

    def instances(self, **values: Any) -> list[Model]:
        """The rows as the queryset's model instances, with their `select_related` objects (as
        Django's ModelIterable builds them; no annotations)."""
        compiler, fetched = self._fetch(values)
        select, klass_info = compiler.select, compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        init_list = [column[0].target.attname for column in select[start:end]]
        populators = get_related_populators(klass_info, select, self._using)  # type: ignore[call-arg]  # stubs of a later Django
        model = klass_info["model"]
        found = []
        for row in compiler.results_iter(results=[fetched]):
            instance = model.from_db(self._using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            found.append(instance)
        return found

    def one(self, **values: Any) -> tuple:
        """The single row, or `DoesNotExist` of the queryset's model (as `.get()` raises)."""
        rows = self.rows(**values)
        if not rows:
            raise self._compiled[0].query.model.DoesNotExist()  # type: ignore[index]
        return rows[0]


def _marker_of(param: Any, by_marker: dict[Any, str]) -> str | None:
    try:
        return by_marker.get(param)
    except TypeError:  # unhashable (a list): never a marker
        return None
