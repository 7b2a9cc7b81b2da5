"""core.postgresql: the health check polls the socket, and sends SELECT 1 only when it must."""

import select
import time

import environ
import pytest
from django.db import connection, connections

from tests.kit.marks import needs_postgresql

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql("PostgreSQL's backend"),
]


@pytest.fixture
def other(settings):
    """A connection of its own (the test's is shared with pytest-django), straight to
    PostgreSQL: behind PgBouncer a backend is not one client's, and ending it would end whoever
    the pooler lends it to next."""
    wrapper = connections.create_connection("default")
    wrapper.settings_dict = dict(wrapper.settings_dict)  # shared with the default connection
    if settings.DATABASE_DIRECT_URL:
        direct = environ.Env.db_url_config(settings.DATABASE_DIRECT_URL)
        for key in ("HOST", "PORT", "USER", "PASSWORD"):
            wrapper.settings_dict[key] = direct.get(key, "")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def statements_sent(wrapper):
    """Counts the cursors opened on the psycopg connection underneath (Django's SELECT 1
    goes straight to psycopg, past Django's own query logging)."""
    opened = []
    original = wrapper.connection.cursor

    def cursor(*args, **kwargs):
        opened.append(1)
        return original(*args, **kwargs)

    wrapper.connection.cursor = cursor
    return opened


def test_it_is_the_backend_in_use():
    assert type(connections["default"]).__module__ == "core.postgresql.base"


def test_an_idle_healthy_connection_is_usable_without_a_round_trip(other):
    opened = statements_sent(other)
    assert other.is_usable() is True
    assert opened == []


def test_a_connection_the_server_ended_is_not_usable(other):
    with other.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    fileno = other.connection.fileno()
    deadline = time.monotonic() + 10
    while not select.select([fileno], [], [], 0.1)[0]:  # the server's goodbye arrives
        assert time.monotonic() < deadline, "the terminated connection never became readable"
    assert other.is_usable() is False


def test_inside_a_transaction_it_asks_the_server(other):
    other.set_autocommit(False)
    with other.cursor() as cursor:
        cursor.execute("SELECT 1")  # a transaction is open now
    opened = statements_sent(other)
    assert other.is_usable() is True
    assert opened == [1]
    other.rollback()
    other.set_autocommit(True)


def connection_with(settings, **options):
    """A new connection of the default database with these OPTIONS (the dict is shared with
    the default connection's: copied before it changes)."""
    wrapper = connections.create_connection("default")
    wrapper.settings_dict = dict(wrapper.settings_dict)
    wrapper.settings_dict["OPTIONS"] = {**wrapper.settings_dict["OPTIONS"], **options}
    if settings.DATABASE_DIRECT_URL:  # prepared statements are the server connection's own
        direct = environ.Env.db_url_config(settings.DATABASE_DIRECT_URL)
        for key in ("HOST", "PORT", "USER", "PASSWORD"):
            wrapper.settings_dict[key] = direct.get(key, "")
    return wrapper


def run_and_list_prepared(wrapper, times: int) -> tuple[list, list[str]]:
    results = []
    for number in range(times):
        with wrapper.prepared_cursor() as cursor:
            cursor.execute(
                "SELECT CAST(%(n)s AS INTEGER) * 2, %(label)s", {"n": number, "label": "x"}
            )
            results.append(cursor.fetchone())
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
        prepared = cursor.fetchall()
    return results, prepared


def test_the_settings_prepare_only_straight_to_postgresql(settings):
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    assert threshold == (None if settings.DATABASE_POOLER else 5)
    assert connection.prepares_statements is (threshold is not None)


def test_a_prepared_cursor_plans_its_statement_once(settings):
    wrapper = connection_with(settings, prepare_threshold=5)
    try:
        results, prepared = run_and_list_prepared(wrapper, 8)
        assert results == [(2 * number, "x") for number in range(8)]  # values bound each time
        assert [(sql.startswith("SELECT CAST($1 AS INTEGER)"), runs) for sql, runs in prepared] == [
            (True, 3)  # prepared at its sixth run; that run and the two after it used the plan
        ]
    finally:
        wrapper.close()


def test_without_a_threshold_the_prepared_cursor_is_an_ordinary_one(settings):
    """What DATABASE_POOLER sets: behind PgBouncer a prepared statement would be missing on the
    next server connection, so nothing is prepared and the values are bound by the client."""
    wrapper = connection_with(settings, prepare_threshold=None)
    try:
        results, prepared = run_and_list_prepared(wrapper, 8)
        assert results == [(2 * number, "x") for number in range(8)]
        assert prepared == []
    finally:
        wrapper.close()


def test_statements_through_a_prepared_cursor_are_logged_like_any_other(settings):
    from django.test.utils import CaptureQueriesContext

    wrapper = connection_with(settings, prepare_threshold=0)
    try:
        with CaptureQueriesContext(wrapper) as captured, wrapper.prepared_cursor() as cursor:
            cursor.execute("SELECT %(n)s::integer", {"n": 7})
            assert cursor.fetchone() == (7,)
        assert [query["sql"] for query in captured.captured_queries] == ["SELECT 7::integer"]
    finally:
        wrapper.close()
