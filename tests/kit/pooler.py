"""The test database behind a transaction pooler (docs/pgbouncer.md): created, migrated and
dropped over DATABASE_DIRECT_URL, while the tests themselves go through DATABASE_URL.

CREATE and DROP DATABASE need a direct connection: PgBouncer keeps idle server connections to a
database after its clients are gone, and PostgreSQL refuses to drop a database anyone is on."""

import os

import environ
from django.conf import settings
from django.db import connections

# What a URL decides of a connection; NAME stays the test database's.
CONNECTION_KEYS = ("HOST", "PORT", "USER", "PASSWORD")


def through_pooler() -> bool:
    return bool(settings.DATABASE_DIRECT_URL) and connections["default"].vendor == "postgresql"


def connect_default_to(url: str) -> None:
    """Point the default database at the server of `url` (its database name is not used)."""
    config = environ.Env.db_url_config(url)
    connections["default"].close()
    for key in CONNECTION_KEYS:
        connections["default"].settings_dict[key] = config.get(key, "")


def connect_direct() -> None:
    connect_default_to(settings.DATABASE_DIRECT_URL)


def connect_pooled() -> None:
    connect_default_to(os.environ["DATABASE_URL"])


def test_database_name() -> str:
    """Before the test database is set up (NAME is still the configured one)."""
    return connections["default"].creation._get_test_db_name()


def end_pooled_sessions(name: str) -> None:
    """Close the pooler's server connections to the test database `name` (through the direct
    connection, to the `postgres` database), so that it can be dropped or recreated."""
    with connections["default"]._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )
