"""core.postgresql: the health check polls the socket, and sends SELECT 1 only when it must."""

import select
import time

import environ
import pytest
from django.db import connection, connections

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's backend"),
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
