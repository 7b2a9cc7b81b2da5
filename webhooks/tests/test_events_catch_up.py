"""A catch-up through `GET /api/v1/events?order=asc&starting_after=…` misses no event and
repeats none while events are being recorded by concurrent transactions that commit out of
order (PostgreSQL, real threads: SQLite runs one writer at a time). core/commit_order.py."""

import random
import threading
import time

import pytest
from django.db import connection, transaction

from tests.kit.factories import fund, record
from tests.kit.marks import needs_postgresql
from webhooks.models import Event
from webhooks.services import event_record

pytestmark = [
    needs_postgresql("transactions that commit out of order, on connections of their own"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

EVENTS = "/api/v1/events"
# Another session's transaction on the same server (another test run) holds the list back
# until it ends: a reader waits this long at most for what it expects.
PATIENCE = 120


@pytest.fixture(autouse=True)
def no_earlier_events(team):
    Event.objects.all().delete()


@pytest.fixture(autouse=True)
def no_rate_limit(settings):
    settings.API_RATE_LIMIT = "100000/minute"


def read_on(client, cursor: str | None, **query) -> tuple[list[str], bool]:
    params = {"order": "asc", "limit": 5, **query}
    if cursor:
        params["starting_after"] = cursor
    response = client.get(EVENTS, params)
    assert response.status_code == 200, response.json()
    body = response.json()
    return [e["id"] for e in body["data"]], body["pagination"]["has_more"]


def read_until(client, cursor: str, count: int) -> list[str]:
    """Page on from `cursor` until `count` events have been read (or PATIENCE runs out)."""
    read: list[str] = []
    deadline = time.monotonic() + PATIENCE
    while len(read) < count and time.monotonic() < deadline:
        ids, _ = read_on(client, read[-1] if read else cursor)
        read += ids
        if not ids:
            time.sleep(0.05)
    return read


def test_an_event_that_commits_late_is_not_skipped(live_client, team):
    """`late` is recorded first and committed last; `quick`, recorded after it, commits
    first. A reader who has seen `first` and reads on must get both, `late` first: by id or
    creation time alone it would have read `quick`, moved its cursor past `late`, and never
    seen it."""
    first = record(team)
    recorded, finish = threading.Event(), threading.Event()
    late: list[Event] = []

    def slow_change():
        try:
            with transaction.atomic():
                late.append(
                    event_record(team=team, live_mode=True, type="wallet.debit", data_object={})
                )
                recorded.set()
                finish.wait(PATIENCE)
        finally:
            connection.close()

    thread = threading.Thread(target=slow_change)
    thread.start()
    try:
        assert recorded.wait(PATIENCE)
        quick = record(team)
        # Committed, but `late`'s transaction may still sort before it: not listed yet. The
        # default newest-first page, which no one reads on from, shows it at once.
        assert read_on(live_client, first.id) == ([], False)
        assert [e["id"] for e in live_client.get(EVENTS).json()["data"]] == [quick.id, first.id]
    finally:
        finish.set()
        thread.join(PATIENCE)
    assert read_until(live_client, first.id, 2) == [late[0].id, quick.id]


def test_a_catch_up_over_concurrent_writers_misses_none_and_repeats_none(live_client, team):
    """Four writers record events (through the ORM and the wallet's one-statement path) in
    transactions that stay open a random while, so they commit out of order, while a reader
    pages on with `starting_after`; when they are done it has read every event exactly once,
    in the list's order."""
    fund(team, "1000.00")  # a wallet to credit; its event is the reader's starting point
    start = Event.objects.get().id
    errors: list[BaseException] = []
    rng = random.Random(30)  # timing, not secrets
    pauses = [[rng.uniform(0, 0.03) for _ in range(12)] for _ in range(4)]

    def writer(number: int):
        try:
            for i, pause in enumerate(pauses[number]):
                if number == 0:
                    fund(team, "1.00", reference_id=f"rch_{i}")
                    continue
                with transaction.atomic():
                    event_record(
                        team=team, live_mode=True, type="booking.updated", data_object={"i": i}
                    )
                    time.sleep(pause)  # open a while: later transactions commit first
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connection.close()

    writers = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    read: list[str] = []
    for thread in writers:
        thread.start()
    while any(thread.is_alive() for thread in writers):
        ids, _ = read_on(live_client, read[-1] if read else start)
        read += ids
    for thread in writers:
        thread.join(PATIENCE)
    assert not errors, errors
    events = Event.objects.exclude(pk=start)
    total = events.count()
    assert total >= 48  # 12 credits (their events) and 36 booking.updated
    read += read_until(live_client, read[-1] if read else start, total - len(read))

    assert len(read) == len(set(read)) == total  # none repeated, none missed
    assert read == list(events.order_by("xact_id", "created_at", "id").values_list("id", flat=True))
