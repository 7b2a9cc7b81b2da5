"""The hot API paths do the least work they can (docs/performance.md): their queries are counted
(a query added back fails here), the API key is resolved from the process's cache, and a revoked
key or a changed team is seen by the next request of every process.

A second process is simulated by its own per-process cache: `other_process()` runs a block with
a cache of its own (empty at first, as a new process starts) and gives the first one back after;
the shared cache (the generation) is the same for both, as Redis is for every server process."""

import contextlib
from datetime import timedelta
from decimal import Decimal

import orjson
import pytest
import requests
import time_machine
from django.db import connection, transaction
from django.test import Client as BrowserClient
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from agencies import key_cache
from agencies.models import ApiKey
from agencies.services import api_key_revoke
from tests.kit.factories import fund
from tests.kit.stack import Stack, needs_real_stack

pytestmark = pytest.mark.django_db

BALANCE = "/api/v1/wallet/balance"
SEARCH = "/api/v1/flights/search"
SEARCH_BODY = orjson.dumps(
    {
        "type": "one_way",
        "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": "2027-03-10"}],
        "passengers": [{"type": "adult", "count": 1}],
    }
)


@pytest.fixture(autouse=True)
def _new_process():
    key_cache.clear_process_cache()  # every test starts as a fresh process
    yield
    key_cache.clear_process_cache()


@contextlib.contextmanager
def other_process():
    """Run the block as another server process: its own (empty) per-process key cache, the same
    database and shared cache; this process's cache is untouched by it and given back after."""
    mine = dict(key_cache._entries)
    key_cache.clear_process_cache()
    try:
        yield
    finally:
        key_cache.clear_process_cache()
        key_cache._entries.update(mine)


def sql_of(client_call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client_call()
    assert response.status_code == 200, response.content[:500]
    return [query["sql"] for query in captured.captured_queries]


def search(client):
    return client.post(SEARCH, SEARCH_BODY, content_type="application/json")


def offer_prices(response) -> set[tuple[str, str]]:
    return {
        (str(o["agency_markup_percent"]), o["agency_fee_amount"]) for o in response.json()["offers"]
    }


# --- Query counts ---


def test_balance_is_one_query_once_the_key_is_known(live_client, team):
    fund(team, "100.00")
    assert live_client.get(BALANCE).status_code == 200  # the key is read, last use written
    queries = sql_of(lambda: live_client.get(BALANCE))
    assert len(queries) == 1, queries
    assert "wallet_wallet" in queries[0] and "bookings_booking" in queries[0]


def test_test_mode_balance_is_one_query_too(test_client):
    assert test_client.get(BALANCE).status_code == 200
    queries = sql_of(lambda: test_client.get(BALANCE))
    assert len(queries) == 1, queries


def test_first_request_of_a_process_reads_the_key_and_writes_its_last_use(live_client):
    queries = sql_of(lambda: live_client.get(BALANCE))
    assert len(queries) == 3, queries
    assert "agencies_apikey" in queries[0] and "agencies_team" in queries[0]
    assert queries[1].startswith("UPDATE") and "last_used_at" in queries[1]


def test_search_only_stores_its_offers_once_the_key_is_known(test_client):
    assert search(test_client).status_code == 200
    queries = sql_of(lambda: search(test_client))
    assert len(queries) == 1, queries
    assert queries[0].startswith("INSERT INTO") and "flights_offerrequest" in queries[0]


def test_last_use_is_written_once_a_minute_and_not_over_a_fresher_one(live_client, team):
    key = ApiKey.objects.get(team=team, live_mode=True)
    assert live_client.get(BALANCE).status_code == 200
    first = ApiKey.objects.get(pk=key.pk).last_used_at
    assert first is not None
    assert len(sql_of(lambda: live_client.get(BALANCE))) == 1  # within the minute: no write
    later = timezone.now() + timedelta(seconds=61)
    with time_machine.travel(later, tick=False):
        # Another process used the key a moment ago: this one's write changes nothing.
        with other_process():
            assert live_client.get(BALANCE).status_code == 200
        written = ApiKey.objects.get(pk=key.pk).last_used_at
        assert written == later
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=later - timedelta(seconds=1))
        queries = sql_of(lambda: live_client.get(BALANCE))
        assert any(q.startswith("UPDATE") for q in queries)  # this process's minute was up
        assert ApiKey.objects.get(pk=key.pk).last_used_at == later - timedelta(seconds=1)


TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")


def test_a_delivery_attempt_makes_seven_statements_on_postgresql(team, https_receiver):
    """Claim (lock the endpoint and read it with the delivery and its event, take the team's
    claim lock, count in flight for the endpoint and its team, take the lease), then record
    (the endpoint's counters, the attempt, release the delivery). The team's lock is one
    statement more than before the team cap (WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM): claims
    of different endpoints of one team must count after each other, and a count in the same
    statement would read a snapshot taken before the lock was granted. SQLite needs no lock
    (a write transaction excludes every other): six. With a slot to spare at the claim, nobody
    can be waiting for this attempt's slot: no look for a waiting delivery
    (webhooks/tests/test_attempt_cap.py covers the other case)."""
    from tests.kit.factories import make_endpoint, record
    from webhooks.models import Delivery
    from webhooks.services import delivery_attempt

    make_endpoint(team, https_receiver.url)
    record(team)  # not dispatched: on_commit callbacks do not run in this test
    delivery_id = Delivery.objects.values_list("pk", flat=True).get()
    with CaptureQueriesContext(connection) as captured:
        attempt = delivery_attempt(delivery_id)
    assert attempt is not None and attempt.succeeded
    statements = [
        q["sql"] for q in captured.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)
    ]
    team_lock = ["SELECT"] if connection.vendor == "postgresql" else []
    assert [sql.split()[0] for sql in statements] == [
        "SELECT",  # endpoint (locked), delivery, event
        *team_lock,  # the team's claim lock (pg_advisory_xact_lock)
        "SELECT",  # attempts in flight: the endpoint's and its team's
        "UPDATE",  # the claim
        "UPDATE",  # the endpoint's counters
        "INSERT",  # the attempt
        "UPDATE",  # the delivery released
    ], statements
    # The endpoint is read once (its secret decrypted once): by the claim's first statement.
    assert [
        i for i, sql in enumerate(statements) if '"webhooks_webhookendpoint"."secret"' in sql
    ] == [0]
    assert all("pg_advisory_xact_lock" in sql for sql in statements[1 : 1 + len(team_lock)])


def test_a_batch_of_deliveries_makes_five_statements_plus_one_per_delivery_on_postgresql(
    team, https_receiver
):
    """One claim for the batch (lock and read the endpoint, take the team's claim lock, count
    in flight for the endpoint and its team, the deliveries with their events, lease them),
    then per delivery ONE statement on PostgreSQL, outside any transaction: the endpoint's
    counters, the attempt, and the release of the delivery with the handover to the next, as
    data-modifying CTEs. Elsewhere (SQLite) no team lock, and one transaction of three
    statements per delivery, the same writes. The endpoint is read once per batch; nothing
    looks for waiting deliveries (the batch was not full and left a slot free:
    webhooks/tests/test_batches.py covers the other cases)."""
    from tests.kit.factories import make_endpoint, record
    from webhooks.models import Delivery
    from webhooks.services import deliveries_send_batch

    endpoint = make_endpoint(team, https_receiver.url)
    for _ in range(5):
        record(team)  # not dispatched: on_commit callbacks do not run in this test
    with CaptureQueriesContext(connection) as captured:
        attempts = deliveries_send_batch(endpoint.pk)
    assert [attempt.succeeded for attempt in attempts] == [True] * 5
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}
    sqls = [q["sql"] for q in captured.captured_queries]
    statements = [sql for sql in sqls if not sql.startswith(TRANSACTION_CONTROL)]
    at_once = connection.vendor == "postgresql"
    per_delivery = 1 if at_once else 3
    team_lock = ["SELECT"] if at_once else []
    claim = 4 + len(team_lock)
    assert len(statements) == claim + per_delivery * 5, statements
    assert [sql.split()[0] for sql in statements[:claim]] == [
        "SELECT",  # the endpoint, locked
        *team_lock,  # the team's claim lock (pg_advisory_xact_lock)
        "SELECT",  # attempts in flight: the endpoint's and its team's
        "SELECT",  # the deliveries and their events
        "UPDATE",  # the lease: the first in flight
    ]
    for number in range(5):
        start = claim + per_delivery * number
        recorded = statements[start : start + per_delivery]
        if at_once:
            [sql] = recorded
            assert sql.startswith('WITH counted AS (UPDATE "webhooks_webhookendpoint"'), sql
            assert 'INSERT INTO "webhooks_deliveryattempt"' in sql
            assert 'moved AS (UPDATE "webhooks_delivery"' in sql
        else:
            assert [sql.split()[0] for sql in recorded] == [
                "UPDATE",  # the endpoint's counters
                "INSERT",  # the attempt
                "UPDATE",  # this delivery released, the next one taken
            ]
    # The endpoint is read once per batch (its secret decrypted once), by the claim.
    assert sum('"webhooks_webhookendpoint"."secret"' in sql for sql in statements) == 1
    # One transaction for the claim, and on SQLite one per delivery (the test's own transaction
    # makes them savepoints here); on PostgreSQL each delivery's statement is atomic by itself.
    assert sum(sql.startswith(("BEGIN", "SAVEPOINT")) for sql in sqls) == 1 + (0 if at_once else 5)


@pytest.mark.usefixtures("live_sandbox")
def test_an_instant_booking_makes_19_statements_on_postgresql(
    live_client, team, django_capture_on_commit_callbacks
):
    """`POST /api/v1/bookings`, instant, ticketed at once (sandbox), with one endpoint subscribed
    to every event (docs/performance.md, "Instant bookings", lists them): 19 statements on
    PostgreSQL and five transaction blocks (the claim, the debit in it, the sandbox's order, the
    outcome, the two e-mails), 29 in all with them, 48 before. The subscribed endpoints are read
    once for the five booking events, which are one INSERT, and so are their deliveries; the
    tickets are one INSERT, the e-mails one; the booking is not read again for its audit entry.
    SQLite moves the balance in separate statements (the portable path)."""
    from bookings.tests.helpers import book, offers
    from tests.kit.factories import make_endpoint
    from webhooks.models import SUBSCRIBABLE_EVENT_TYPES, Delivery

    fund(team, "100000.00")
    endpoint = make_endpoint(
        team, "https://hooks.example.com/all", events=sorted(SUBSCRIBABLE_EVENT_TYPES)
    )
    first, offer = offers(live_client)[:2]
    assert book(live_client, first, type="instant").status_code == 201  # the key is known
    with (
        django_capture_on_commit_callbacks(),  # deliveries and e-mails not sent
        CaptureQueriesContext(connection) as captured,
    ):
        response = book(live_client, offer, type="instant")
    assert response.status_code == 201, response.content[:500]
    assert response.json()["status"] == "ticketed"
    every = [query["sql"] for query in captured.captured_queries]
    statements = [sql for sql in every if not sql.startswith(TRANSACTION_CONTROL)]
    expected = {"postgresql": 19, "sqlite": 23}[connection.vendor]
    assert len(statements) == expected, "\n".join(sql[:120] for sql in statements)
    assert sum(sql.startswith("SAVEPOINT") for sql in every) == 5  # BEGIN outside a test
    endpoint_reads = [
        sql
        for sql in statements
        if sql.startswith(("SELECT", "(SELECT")) and "webhooks_webhookendpoint" in sql
    ]  # on PostgreSQL the debit's one statement reads them for its own event (EventSql)
    assert len(endpoint_reads) == (1 if connection.vendor == "postgresql" else 2)
    assert sum(sql.startswith('INSERT INTO "webhooks_event"') for sql in statements) == (
        1 if connection.vendor == "postgresql" else 2
    )
    assert sum(sql.startswith('SELECT "bookings_booking".') for sql in statements) == 1
    assert sum(sql.startswith('INSERT INTO "webhooks_delivery"') for sql in statements) == (
        1 if connection.vendor == "postgresql" else 2  # SQLite: the debit's event's own
    )
    booking_id = response.json()["id"]
    delivered = Delivery.objects.filter(endpoint=endpoint, event__data_object__id=booking_id)
    assert sorted(delivered.values_list("event__type", flat=True)) == [
        "booking.confirmed",
        "booking.created",
        "booking.ticketed",
        "booking.updated",
        "booking.updated",
    ]


# --- Revocation and team changes reach every process ---


@pytest.mark.django_db(transaction=True)  # real commits: the generation moves on commit
def test_revocation_is_seen_by_the_next_request_of_every_process(live_client, team):
    key = ApiKey.objects.get(team=team, live_mode=True)
    assert live_client.get(BALANCE).status_code == 200  # this process caches the key
    with other_process():
        assert live_client.get(BALANCE).status_code == 200  # and so does another
        api_key_revoke(api_key=key)  # revoked in that other process (the panel's)
        assert live_client.get(BALANCE).status_code == 401
    assert live_client.get(BALANCE).status_code == 401  # this process still had it cached
    with other_process():
        assert live_client.get(BALANCE).status_code == 401  # a fresh process reads the database


def test_revocation_in_the_panel_is_immediate(
    live_client, team, team_owner, django_capture_on_commit_callbacks
):
    assert live_client.get(BALANCE).status_code == 200
    key = ApiKey.objects.get(team=team, live_mode=True)
    browser = BrowserClient()
    browser.force_login(team_owner)
    changelist = reverse("admin:agencies_apikey_changelist")
    with other_process(), django_capture_on_commit_callbacks(execute=True):  # as committed
        response = browser.post(
            changelist, {"action": "revoke", "_selected_action": [key.pk], "post": "yes"}
        )
        assert response.status_code == 302
    assert live_client.get(BALANCE).status_code == 401


def test_revocation_rolled_back_changes_nothing(
    live_client, team, django_capture_on_commit_callbacks
):
    key = ApiKey.objects.get(team=team, live_mode=True)
    assert live_client.get(BALANCE).status_code == 200
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        api_key_revoke(api_key=key)
        raise RuntimeError("rolled back")
    assert callbacks == []  # nothing to tell the other processes
    assert live_client.get(BALANCE).status_code == 200


def test_a_lost_generation_means_the_database_is_read_again(live_client, team):
    from django.core.cache import cache

    assert live_client.get(BALANCE).status_code == 200
    cache.delete(key_cache.GENERATION_KEY)  # a flushed or restarted cache
    ApiKey.objects.filter(team=team).update(revoked_at=timezone.now())  # no signal
    assert live_client.get(BALANCE).status_code == 401


def test_pricing_changed_in_the_panel_prices_the_next_search(
    test_client, team, team_owner, django_capture_on_commit_callbacks
):
    assert offer_prices(search(test_client)) == {("0", "0.00")}
    browser = BrowserClient(headers={"accept-language": "en"})
    browser.force_login(team_owner)
    # The panel runs in another process; its transaction commits.
    with other_process(), django_capture_on_commit_callbacks(execute=True):
        response = browser.post(
            reverse("admin:agencies_team_change", args=[team.pk]),
            {
                "name": team.name,
                "tax_id": "",
                "markup_percent": "8.5",
                "fee": "12.00",
                "notification_email": "",
                "_pricing": "confirmed",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
    assert offer_prices(search(test_client)) == {("8.5", "12.00")}


def fx_margins(response) -> set[tuple[bool, str]]:
    """(a BRL fare?, its FX margin) of each offer."""
    return {
        (o["total_currency"] == "BRL", o["fx_margin_percent"]) for o in response.json()["offers"]
    }


def test_an_fx_margin_changed_in_the_panel_prices_the_next_search(
    test_client, team, team_owner, django_capture_on_commit_callbacks
):
    assert fx_margins(search(test_client)) == {(False, "0.00"), (True, "0.00")}
    browser = BrowserClient(headers={"accept-language": "en"})
    browser.force_login(team_owner)
    with other_process(), django_capture_on_commit_callbacks(execute=True):
        response = browser.post(
            reverse("admin:agencies_team_change", args=[team.pk]),
            {
                "name": team.name,
                "tax_id": "",
                "markup_percent": "0",
                "fee": "0",
                "fx_margin_percent": "3.5",
                "notification_email": "",
                "_pricing": "confirmed",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
    assert fx_margins(search(test_client)) == {(False, "3.50"), (True, "0.00")}


@pytest.mark.django_db(transaction=True)
def test_team_saved_by_a_service_is_seen_by_every_process(test_client, team):
    assert offer_prices(search(test_client)) == {("0", "0.00")}
    with other_process():
        assert offer_prices(search(test_client)) == {("0", "0.00")}
        team.markup_percent = Decimal("10.00")
        team.save(update_fields=["markup_percent"])
        assert offer_prices(search(test_client)) == {("10", "0.00")}
    assert offer_prices(search(test_client)) == {("10", "0.00")}


def test_each_request_gets_its_own_key_and_team(live_client, team, team_keys):
    """Nothing a request does to `request.user`'s objects reaches the next request."""
    from agencies.authentication import api_key_for_secret

    first = api_key_for_secret(team_keys.live_key)
    second = api_key_for_secret(team_keys.live_key)
    assert first is not None and second is not None
    assert first is not second and first.team is not second.team
    first.team.markup_percent = Decimal("99")
    assert api_key_for_secret(team_keys.live_key).team.markup_percent == Decimal("0.00")
    assert second.team.fee.amount == Decimal("0.00") and second.team.fee.currency.code == "BRL"
    assert second.pk == first.pk and second.team.pk == team.pk


# --- For real: two gunicorn workers (processes) on PostgreSQL and Redis ---


@needs_real_stack
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_revocation_and_pricing_reach_every_gunicorn_worker_at_once(team, team_keys):
    """Both workers have the key cached (many requests, spread by the kernel over both);
    a revocation and a new markup committed by this process are seen by every next request."""
    stack = Stack()
    try:
        stack.start_web(workers=2)
        api = f"{stack.base_url}/api/v1"
        live = {"Authorization": f"Bearer {team_keys.live_key}"}
        test = {"Authorization": f"Bearer {team_keys.test_key}", "Content-Type": "application/json"}
        with requests.Session() as http:

            def markups(rounds: int = 12) -> set:
                answers = [
                    http.post(f"{api}/flights/search", SEARCH_BODY, headers=test)
                    for _ in range(rounds)
                ]
                assert all(a.status_code == 200 for a in answers), answers[0].text[:300]
                return {
                    str(o["agency_markup_percent"]) for a in answers for o in a.json()["offers"]
                }

            assert {
                http.get(f"{api}/wallet/balance", headers=live).status_code for _ in range(20)
            } == {200}
            assert markups() == {"0"}
            team.markup_percent = Decimal("7.25")
            team.save(update_fields=["markup_percent"])
            assert markups() == {"7.25"}
            api_key_revoke(api_key=ApiKey.objects.get(team=team, live_mode=True))
            statuses = {
                http.get(f"{api}/wallet/balance", headers=live).status_code for _ in range(20)
            }
            assert statuses == {401}
    finally:
        stack.stop()
