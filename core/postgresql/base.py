"""Django's PostgreSQL backend, with a health check that costs no round trip when it can.

With CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query of every request that
reuses a connection: on the API's hot paths one round trip in three (bench/profile_hotpaths.py),
and in this VM a round trip's system calls cost more CPU than the Python around them. A
connection that is idle between transactions should have nothing to read: when PostgreSQL (or
PgBouncer) ends it (a restart, an idle timeout, pg_terminate_backend), the server sends an error
and closes the socket, which makes it readable. So the check first polls the socket without
waiting: nothing to read means usable, as `SELECT 1` would have said; anything else (data, EOF,
an error, a transaction left open) gets Django's `SELECT 1`, which reads and decides.

Not caught without a round trip: a peer that vanished without closing (a cut network), which
the first query then finds; Django closes that connection after the failed request, as it does
for any broken connection.

It also gives `prepared_cursor()`, for the few statements so hot that planning them each time
costs more than running them (the wallet's one-statement movement).
"""

import select

import psycopg
from django.db.backends.postgresql import base, operations
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.backends.utils import CursorWrapper
from psycopg import pq


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor, sql, params):
        # What the query log shows (DEBUG, CaptureQueriesContext): a prepared cursor's statement
        # was not composed by the client, so compose it as Django does for server-side binding.
        if not isinstance(cursor, psycopg.ClientCursor):
            try:
                return self.compose_sql(sql, params)
            except psycopg.errors.DataError:
                return None
        return super().last_executed_query(cursor, sql, params)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    @property
    def prepares_statements(self) -> bool:
        """psycopg may keep statements prepared on this connection: `OPTIONS["prepare_threshold"]`
        is set (config/settings/base.py sets it unless DATABASE_POOLER says a transaction pooler
        lends server connections, where a statement prepared on one is missing on the next)."""
        return self.settings_dict["OPTIONS"].get("prepare_threshold") is not None

    def prepared_cursor(self) -> CursorWrapper:
        """A cursor whose statements PostgreSQL parses and plans once per connection: it binds
        parameters on the server, so psycopg prepares a statement once it has run
        `prepare_threshold` times and then sends only its name and values. Django's own
        cursors bind on the client and never prepare. Where the connection may not prepare
        (`prepares_statements`), an ordinary cursor: the same statement, planned every time.

        Parameters bound on the server are typed by PostgreSQL, not quoted into the text: a
        statement must say what it means where a type is ambiguous (`CAST(%(x)s AS NUMERIC)`)."""
        cursor = self.cursor()  # connects, checks health and wraps as Django's own cursors
        if self.prepares_statements:
            server_binding = psycopg.Cursor(self.connection)
            # As Django's create_cursor: the connection's time zone, if it changed since connecting.
            loader = self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, pq.Format.TEXT)
            if self.timezone != loader.timezone:
                register_tzloader(self.timezone, server_binding)
            cursor.cursor.close()
            cursor.cursor = server_binding
        return cursor

    def is_usable(self):
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status == pq.TransactionStatus.IDLE:
            try:
                readable, _, _ = select.select([connection.fileno()], [], [], 0)
            except (OSError, ValueError):
                return False
            if not readable:
                return True
        return super().is_usable()
