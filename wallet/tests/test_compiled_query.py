"""`core.sql.CompiledQuery`, on the balance's own queries: the same rows as the queryset, for
whichever team, compiled once (per thread: each has its own connection); and it refuses a
query it could not run faithfully."""

import threading
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection, connections
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from agencies.models import Team
from core.sql import CompiledQuery
from tests.kit.factories import fund, make_team
from tests.kit.marks import needs_postgresql
from wallet.models import Transaction, Wallet
from wallet.selectors import balance_query_live_mode, balance_query_test_mode

pytestmark = pytest.mark.django_db


def test_rows_are_the_querysets_rows_for_each_team():
    first, second = make_team("First").team, make_team("Second").team
    fund(first, "120.50")
    fund(second, "7.25", live_mode=False)
    live, test = (
        CompiledQuery(balance_query_live_mode, "team_id"),
        CompiledQuery(balance_query_test_mode, "team_id"),
    )
    for team in (first, second):
        assert live.rows(team_id=team.pk) == list(balance_query_live_mode(team.pk))
        assert test.rows(team_id=team.pk) == list(balance_query_test_mode(team.pk))
    balance, last_movement, debt, pending = live.one(team_id=first.pk)
    assert (balance, debt, pending) == (Decimal("120.50"), Decimal("0.00"), Decimal("0.00"))
    assert isinstance(balance, Decimal)  # converted as the ORM does, SQLite included
    assert isinstance(last_movement, datetime) and last_movement.tzinfo is not None
    last_test, _ = test.one(team_id=second.pk)
    assert last_test == Transaction.objects.get(team=second, live_mode=False).created_at


def test_compiled_once_then_only_run():
    team = make_team("Once").team
    fund(team, "10.00")
    query = CompiledQuery(balance_query_live_mode, "team_id")
    query.one(team_id=team.pk)
    compiler = query._compiled
    with CaptureQueriesContext(connection) as captured:
        query.one(team_id=team.pk)
    assert query._compiled is compiler
    assert len(captured) == 1


def test_each_thread_compiles_for_its_own_connection():
    # gunicorn's threads each have a connection; a compiler keeps the one it was compiled for.
    query = CompiledQuery(balance_query_live_mode, "team_id")
    with pytest.raises(Wallet.DoesNotExist):
        query.one(team_id="team_unknown")
    here = query._compiled[0]
    assert here.connection is connections["default"]
    seen = {}

    def in_another_thread():
        try:
            query.one(team_id="team_unknown")
        except Wallet.DoesNotExist:
            seen["compiler"], seen["connection"] = query._compiled[0], connections["default"]
        finally:
            connections.close_all()

    thread = threading.Thread(target=in_another_thread)
    thread.start()
    thread.join(timeout=30)
    assert seen["compiler"] is not here
    assert seen["compiler"].connection is seen["connection"]
    assert seen["connection"] is not connections["default"]
    assert query._compiled[0] is here  # this thread's stays


def test_no_row_raises_the_models_does_not_exist():
    with pytest.raises(Wallet.DoesNotExist):
        CompiledQuery(balance_query_live_mode, "team_id").one(team_id="team_unknown")


def test_a_placeholder_the_orm_transforms_is_refused():
    query = CompiledQuery(lambda name: Team.objects.filter(name__icontains=name), "name")
    with pytest.raises(ValueError, match="not passed through"):
        query.rows(name="x")


def test_columns_in_another_order_than_the_sql_are_refused():
    def build(team_id):
        return (
            Wallet.objects.filter(team_id=team_id)
            .annotate(doubled=F("balance") * 2)
            .values_list("doubled", "balance")
        )

    with pytest.raises(ValueError, match="order the SQL selects"):
        CompiledQuery(build, "team_id").rows(team_id="team_x")


def test_a_last_movement_is_utc():
    team = make_team("Utc").team
    fund(team, "1.00")
    _, last_movement, _, _ = CompiledQuery(balance_query_live_mode, "team_id").one(team_id=team.pk)
    assert last_movement.utcoffset() == UTC.utcoffset(None)


@needs_postgresql("prepared statements")
def test_on_postgresql_it_is_planned_once_per_connection_where_it_may_be():
    team = make_team("Planned").team
    fund(team, "33.00")
    live = CompiledQuery(balance_query_live_mode, "team_id")
    for _ in range(8):
        assert live.one(team_id=team.pk)[0] == Decimal("33.00")
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        balances = [
            row[0]
            for row in cursor.fetchall()
            if row[0].startswith('SELECT "wallet_wallet"."balance"')
        ]
    expected = 1 if connection.prepares_statements else 0  # none behind PgBouncer
    assert len(balances) == expected, balances
