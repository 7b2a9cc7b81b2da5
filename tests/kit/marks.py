"""The one mark of the tests SQLite cannot run (concurrent writers and row locks, PostgreSQL's
own SQL): `@needs_postgresql("why")` on a test, on a case or in a module's `pytestmark`. Every
skip for want of PostgreSQL gives a reason that starts with NEEDS_POSTGRESQL (the real stack's
and PgBouncer's marks too), and the summary at the end of a run counts them (conftest.py)."""

import pytest
from django.db import connection

ON_POSTGRESQL = connection.vendor == "postgresql"
NEEDS_POSTGRESQL = "needs PostgreSQL"


def needs_postgresql(why: str) -> pytest.MarkDecorator:
    """Skip unless the database is PostgreSQL; `why` says what of PostgreSQL the test needs."""
    return pytest.mark.skipif(not ON_POSTGRESQL, reason=f"{NEEDS_POSTGRESQL}: {why}")


def skipped_for_postgresql(skipped_reports) -> int:
    """How many of these reports of skipped tests were skipped for want of PostgreSQL."""
    return sum(1 for report in skipped_reports if _reason(report).startswith(NEEDS_POSTGRESQL))


def _reason(report) -> str:
    longrepr = report.longrepr  # a skip's is (path, line, "Skipped: <reason>")
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
    return str(reason).removeprefix("Skipped: ")
