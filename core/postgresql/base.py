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
"""

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
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
