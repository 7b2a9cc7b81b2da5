"""Through PgBouncer in transaction pooling mode (docs/pgbouncer.md): what a pooled connection
does not keep between transactions, why the settings of DATABASE_POOLER=pgbouncer are needed,
and the money paths working through the pool. Only when the suite runs through PgBouncer
(.ci/run does: DATABASE_POOLER=pgbouncer, DATABASE_URL at PgBouncer, DATABASE_DIRECT_URL)."""

import threading
import time
from datetime import date, timedelta
from decimal import Decimal
from io import StringIO

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import ProgrammingError, connection
from rest_framework.test import APIClient

from tests.kit.factories import fund
from tests.kit.marks import NEEDS_POSTGRESQL, ON_POSTGRESQL
from tests.kit.passengers import passenger
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction

pytestmark = pytest.mark.skipif(
    not (settings.DATABASE_POOLER == "pgbouncer" and ON_POSTGRESQL),
    reason=f"{NEEDS_POSTGRESQL} through PgBouncer (DATABASE_POOLER=pgbouncer and DATABASE_URL "
    "at a PgBouncer in transaction mode, as .ci/run sets them)",
)


@pytest.fixture
def pooled(django_db_setup):
    """Connections of our own to the test database through PgBouncer, in autocommit: each
    statement is a transaction, after which PgBouncer may give the server to another client.
    PgBouncer hands out its most recently used idle server first (server_round_robin = 0)."""
    opened = []
    database = connection.settings_dict

    def connect():
        client = psycopg.connect(
            host=database["HOST"],
            port=database["PORT"],
            user=database["USER"],
            password=database["PASSWORD"] or None,
            dbname=database["NAME"],
            autocommit=True,
            prepare_threshold=None,
        )
        opened.append(client)
        return client

    yield connect
    for client in opened:
        client.close()


class Holder:
    """Another client in a transaction: it keeps the server connection PgBouncer gives it (the
    one the last statement ran on) until `release()`, which also clears what was left on it."""

    def __init__(self, client):
        self.client = client
        client.execute("BEGIN")
        self.server_pid = client.execute("SELECT pg_backend_pid()").fetchone()[0]

    def release(self):
        self.client.execute("CLOSE ALL")
        self.client.execute("DEALLOCATE ALL")
        self.client.execute("RESET ALL")
        self.client.execute("SELECT pg_advisory_unlock_all()")
        self.client.execute("COMMIT")


def test_the_pooler_is_pgbouncer_in_transaction_mode():
    database = connection.settings_dict
    try:
        admin = psycopg.connect(
            host=database["HOST"],
            port=database["PORT"],
            user=database["USER"],
            dbname="pgbouncer",
            autocommit=True,
            cursor_factory=psycopg.ClientCursor,  # the console speaks the simple protocol only
        )
    except psycopg.OperationalError as refused:
        pytest.skip(f"PgBouncer's console refuses {database['USER']}: {refused}")
    with admin:
        config = dict(row[:2] for row in admin.execute("SHOW CONFIG").fetchall())
    assert config["pool_mode"] == "transaction"


def test_a_session_does_not_outlive_its_transaction(pooled):
    """Why DATABASE_POOLER=pgbouncer matters: a held cursor, a prepared statement, a SET and a
    session advisory lock all stay on the server connection, which the next transaction of the
    same client does not get once someone else has it."""
    client = pooled()
    client.execute("DECLARE held CURSOR WITH HOLD FOR SELECT generate_series(1, 3)")
    client.execute("PREPARE statement AS SELECT 1")
    client.execute("SET work_mem = '1234kB'")
    server_pid = client.execute("SELECT pg_backend_pid()").fetchone()[0]
    client.execute("SELECT pg_advisory_lock(171717)")

    # The other client takes that server (PgBouncer lends its last used idle server first);
    # should anything else in the process (a live server's thread) borrow it meanwhile, wait
    # until it is back, with a deadline.
    deadline = time.monotonic() + 10
    holder = Holder(pooled())
    while holder.server_pid != server_pid:
        holder.release()
        holder.client.close()
        assert time.monotonic() < deadline, "the pooler never lent that server again"
        time.sleep(0.05)
        holder = Holder(pooled())
    try:
        assert client.execute("SELECT pg_backend_pid()").fetchone()[0] != server_pid
        with pytest.raises(psycopg.errors.InvalidCursorName):
            client.execute("FETCH 1 FROM held")
        with pytest.raises(psycopg.errors.InvalidSqlStatementName):
            client.execute("EXECUTE statement")
        assert client.execute("SHOW work_mem").fetchone()[0] != "1234kB"
        # The lock is not ours to release any more: the other client's session holds it.
        assert client.execute("SELECT pg_advisory_unlock(171717)").fetchone() == (False,)
        held = holder.client.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = %s",
            [server_pid],
        ).fetchone()
        assert held == (1,)
    finally:
        holder.release()


def test_the_settings_keep_nothing_on_the_server(db):
    assert connection.settings_dict["DISABLE_SERVER_SIDE_CURSORS"] is True
    connection.ensure_connection()
    assert connection.connection.prepare_threshold is None  # psycopg never prepares
    # PgBouncer's timezone=UTC (.ci/pgbouncer): the server connections start in Django's zone,
    # so Django has nothing to SET on connecting.
    assert connection.connection.info.parameter_status("TimeZone") == "UTC"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("server_side_cursors", [False, True])
def test_iterating_a_queryset_while_another_client_has_the_server(
    pooled, monkeypatch, server_side_cursors
):
    """`.iterator()` fetches in chunks. With server-side cursors (Django's default on
    PostgreSQL) each chunk is a FETCH in a transaction of its own, which PgBouncer may run on a
    server connection that does not have the cursor: the setting turns them off."""
    Group.objects.bulk_create(Group(name=f"group {n}") for n in range(250))
    monkeypatch.setitem(
        connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", not server_side_cursors
    )
    rows = Group.objects.filter(name__startswith="group ").order_by("pk").iterator(chunk_size=100)
    seen = [next(rows)]
    holder = Holder(pooled())
    try:
        if server_side_cursors:
            # Django's error, or psycopg's from closing the cursor that is not there either.
            with pytest.raises((ProgrammingError, psycopg.ProgrammingError), match="not exist"):
                seen.extend(rows)
        else:
            seen.extend(rows)
            assert len(seen) == 250
    finally:
        holder.release()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_sandbox")
def test_bookings_and_debits_through_the_pool(team, team_keys):
    """A hold confirmed by six racing requests debits once; then six instant bookings of
    different offers race for a wallet that cannot pay them all. Every request's transactions go
    through PgBouncer: no lost update, no overdraft, the books balance."""

    def client():
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
        return api

    departure = str(date.today() + timedelta(days=60))
    search = {
        "type": "one_way",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [{"origin": "GRU", "destination": "GIG", "departureDate": departure}],
    }
    found = client().post("/api/v1/flights/search", search, format="json").json()
    offers = sorted(found["offers"], key=lambda o: Decimal(o["base_cost_brl"]))
    hold_offer = next(
        o for o in offers if not o["payment_requirements"]["requires_instant_payment"]
    )
    instant_offers = [o for o in offers if o is not hold_offer][:6]
    assert len(instant_offers) == 6

    def cost(offer):
        return Decimal(offer["base_cost_brl"])

    # Enough for the hold and the three cheapest instant offers, not for all six.
    funded = cost(hold_offer) + sum(cost(o) for o in instant_offers[:3])
    fund(team, str(funded))
    lead = passenger(found["passengers"][0]["id"])

    def pay(offer):
        return {
            "type": "balance",
            "amount": offer["total_amount"],
            "currency": offer["total_currency"],
        }

    hold = client().post(
        "/api/v1/bookings",
        {"offerId": hold_offer["id"], "type": "hold", "passengers": [lead]},
        format="json",
    )
    assert hold.status_code == 201, hold.content
    booking_id = hold.json()["id"]

    def race(count, request):
        barrier, responses = threading.Barrier(count, timeout=30), {}

        def worker(n):
            api = client()
            barrier.wait()
            responses[n] = request(api, n)
            connection.close()

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return responses

    confirms = race(
        6,
        lambda api, _: api.put(
            f"/api/v1/bookings/{booking_id}/confirm", {"payment": pay(hold_offer)}, format="json"
        ),
    )
    assert sorted(r.status_code for r in confirms.values()) == [200, 409, 409, 409, 409, 409]

    instant = race(
        6,
        lambda api, n: api.post(
            "/api/v1/bookings",
            {
                "offerId": instant_offers[n]["id"],
                "type": "instant",
                "passengers": [lead],
                "payments": [pay(instant_offers[n])],
            },
            format="json",
        ),
    )
    booked = [instant_offers[n] for n, r in instant.items() if r.status_code == 201]
    refused = [r for r in instant.values() if r.status_code == 422]
    assert len(booked) + len(refused) == 6, {n: r.content for n, r in instant.items()}
    assert refused and all(r.json()["error"]["message"] == "Insufficient balance" for r in refused)

    debits = Transaction.objects.filter(team=team, type="debit")
    assert debits.count() == 1 + len(booked)
    balance = Decimal(client().get("/api/v1/wallet/balance").json()["data"]["balance"])
    assert balance == funded - cost(hold_offer) - sum(cost(o) for o in booked)
    assert balance >= 0
    assert ledger_problems() == []
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "1 wallet(s) consistent" in out.getvalue()
