"""A list that a reader can follow without missing a row that commits late (PostgreSQL).

Rows written by concurrent transactions commit in any order: a row keyed by its id or its
creation time can become visible after a reader has already read past its key, and a reader
that continues "after the last row I saw" never sees it. Ordering by the transaction that
wrote the row closes that gap:

* each row keeps the 64-bit id of the transaction that wrote it (`CurrentTransactionId`, a
  column's database default, so every way of inserting the row gives it);
* a reader lists only the rows of transactions older than every transaction still running
  (`settled`: below the snapshot's xmin, the oldest transaction still in progress): those are
  all committed or rolled back, and any transaction that writes later has a greater id.

So a row that becomes visible later always sorts after every row already listed. The price is
a lag: a row is listed once every transaction that began writing before it has ended
(normally milliseconds; as long as the longest writing transaction of the database server).
The reader's own transaction's rows are listed too (it sees them, and nobody else can add to
them); the API's reads write no rows.

On SQLite (development and the fast tests) the column is 0 and every row is settled: SQLite
runs one writing transaction at a time, so rows become visible in the order of their
transactions.
"""

from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import BigIntegerField, Func, Q
from django.db.models.sql.compiler import SQLCompiler


class _PostgresqlOnly(Func):
    """A bigint from PostgreSQL's transaction functions; `other` elsewhere."""

    output_field = BigIntegerField()
    postgresql: str
    other: str

    def as_sql(  # type: ignore[override]  # no template arguments
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any
    ) -> tuple[str, list]:
        return self.other, []

    def as_postgresql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any
    ) -> tuple[str, list]:
        # xid8 has no cast to bigint; its text is the number (below 2**63 for ever in practice).
        return f"({self.postgresql})::text::bigint", []


class CurrentTransactionId(_PostgresqlOnly):
    """The id of the transaction writing the row: a column's `db_default`."""

    postgresql = "pg_current_xact_id()"
    other = "0"


class OldestRunningTransactionId(_PostgresqlOnly):
    """The oldest transaction still running when the statement's snapshot was taken (every
    transaction with a smaller id has ended); past every row elsewhere."""

    postgresql = "pg_snapshot_xmin(pg_current_snapshot())"
    other = "9223372036854775807"


class OwnTransactionId(_PostgresqlOnly):
    """The reader's own transaction, if it has written anything (NULL otherwise)."""

    postgresql = "pg_current_xact_id_if_assigned()"
    other = "NULL"


def settled(field: str) -> Q:
    """The rows no transaction still running can sort before (`field`: the column whose
    default is `CurrentTransactionId`)."""
    return Q(**{f"{field}__lt": OldestRunningTransactionId()}) | Q(**{field: OwnTransactionId()})
