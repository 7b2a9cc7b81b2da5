"""The whole suite's fixtures are the testing kit's (tests/kit/fixtures.py), registered here for
every test; an app's own fixtures are in its tests/conftest.py."""

from tests.kit.marks import ON_POSTGRESQL, skipped_for_postgresql

pytest_plugins = ["tests.kit.fixtures"]


def pytest_terminal_summary(terminalreporter):
    """On SQLite, say how many tests were skipped because they need PostgreSQL: a green run
    on SQLite has not run them."""
    skipped = skipped_for_postgresql(terminalreporter.stats.get("skipped", []))
    if skipped and not ON_POSTGRESQL:
        terminalreporter.write_line(
            f"{skipped} PostgreSQL-only tests skipped on SQLite"
            " (set DATABASE_URL and REDIS_URL to run them)"
        )
