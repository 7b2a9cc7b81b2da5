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

Compiled once per thread, not per process: gunicorn serves requests in threads
(config/gunicorn.py), each with its own database connection, and a compiler keeps the
connection it was compiled for (its converters are given it), as a prepared statement lives on
one connection.

`InsertColumns` gives a hand-written INSERT its column list and values from the model's fields,
so that a column added to the model is written by the SQL too (or building the SQL fails),
never silently left out.
"""

import threading
from collections.abc import Callable, Mapping
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model, QuerySet
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
        self._per_thread = threading.local()

    @property
    def _compiled(self) -> tuple[Any, str, tuple, list[str | None]] | None:
        """This thread's compilation, if it has one yet."""
        return getattr(self._per_thread, "compiled", None)

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
        compiled = self._compiled
        if compiled is None:
            compiled = self._per_thread.compiled = self._compile()
        compiler, sql, params, slots = compiled
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


class InsertColumns:
    """The column list and values of a hand-written INSERT of `model`'s rows, from the model's
    concrete fields by one rule:

    * an auto-numbered primary key is the database's;
    * a field named in `computed` (attname -> SQL) gets that expression: what the statement
      itself decides (a balance it has just moved, a column of another CTE, its own parameter);
    * any other field is a parameter (`%s`, or `%(<prefix><attname>)s` with `prefix`) whose
      value `params()` gives: with `from_row`, the row's own (`params(row)`, a model instance:
      what the ORM would save); without, the field's default (NULL for a nullable field).

    Without a row, a field with a database default is left to the database; a field with
    no default at all, or with a callable one (a fresh id, the time) in a statement that writes
    many rows (`one_row=False`: one value would be shared by all of them), raises here: the
    statement must compute it. So does a name in `computed` that is not a field."""

    def __init__(
        self,
        model: type[Model],
        *,
        computed: Mapping[str, str] | None = None,
        prefix: str | None = None,
        from_row: bool = False,
        one_row: bool = True,
    ):
        computed = computed or {}
        fields = model._meta.concrete_fields
        unknown = set(computed) - {field.attname for field in fields}
        if unknown:
            raise ValueError(f"Not columns of {model.__name__}: {sorted(unknown)}")
        self.model = model
        self.prefix = prefix
        self.columns: list[str] = []
        self.values: list[str] = []
        self.param_fields: list[Field] = []
        self._constants: list[Any] | None = None  # the defaults adapted, when none is callable
        for field in fields:
            if field is model._meta.auto_field or field.column is None:
                continue
            if field.attname in computed:
                value = computed[field.attname]
            elif from_row:
                value = self._placeholder(field)
            elif field.has_db_default():
                continue  # the database writes its default
            elif not (field.has_default() or field.null):
                raise ValueError(f"This INSERT gives {model.__name__}.{field.name} no value")
            elif field.has_default() and callable(field.default) and not one_row:
                raise ValueError(
                    f"{model.__name__}.{field.name}: a callable default would be one value for"
                    " every row of this INSERT"
                )
            else:
                value = self._placeholder(field)
            self.columns.append(field.column)
            self.values.append(value)
        self.param_names = [self._name(field) for field in self.param_fields] if prefix else []
        # Defaults computed afresh for each statement (a callable: an id, the time).
        self._fresh = [f.has_default() and callable(f.default) for f in self.param_fields]

    def _placeholder(self, field: Field) -> str:
        self.param_fields.append(field)
        return "%s" if self.prefix is None else f"%({self._name(field)})s"

    def _name(self, field: Field) -> str:
        return f"{self.prefix}{field.attname}"

    def column_list(self) -> str:
        return ", ".join(connection.ops.quote_name(column) for column in self.columns)

    def value_list(self) -> str:
        return ", ".join(self.values)

    def params(self, row: Model | None = None) -> list[Any]:
        """The parameters' values, in order, adapted by their fields as the ORM adapts them
        (on the default database, the one the hand-written statements run on)."""
        if not self.param_fields:
            return []
        if row is None and not any(self._fresh):
            # Constant defaults, adapted once: the statement of every event passes them.
            if self._constants is None:
                self._constants = self._defaults(connections[DEFAULT_DB_ALIAS])
            return list(self._constants)
        wrapper = connections[DEFAULT_DB_ALIAS]  # once, not through the proxy for each field
        if row is None:
            return self._defaults(wrapper)
        return [
            field.get_db_prep_save(getattr(row, field.attname), wrapper)
            for field in self.param_fields
        ]

    def _defaults(self, wrapper: BaseDatabaseWrapper) -> list[Any]:
        return [field.get_db_prep_save(field.get_default(), wrapper) for field in self.param_fields]

    def named_params(self, row: Model | None = None) -> dict[str, Any]:
        """The parameters' values by name (`prefix` given)."""
        if self.prefix is None:
            raise ValueError("The parameters are positional (no prefix): params()")
        return dict(zip(self.param_names, self.params(row), strict=True))
