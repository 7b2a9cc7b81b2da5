"""The delivery pool in a real Celery worker (production settings, Redis, PostgreSQL, an HTTPS
receiver): ONE worker process, as the harshest small install, sends to slow receivers on its
threads while a bookings task runs at once; the caps per endpoint and per team hold; a worker
stopped mid-send loses nothing; a batch no thread can take waits, due, and is sent later."""

import os
import signal
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from agencies.tests.factories import ClientFactory
from bookings.models import Booking
from bookings.tests.factories import BookingFactory
from tests.kit.factories import make_endpoint, make_team, record
from tests.kit.stack import Stack, needs_real_stack, wait_until
from webhooks.models import Delivery

pytestmark = [needs_real_stack, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

LEASE_SECONDS = 4


@pytest.fixture
def stack(receiver, broker):
    """Processes on the test database, in production settings; one worker of every queue at
    `--concurrency=1` (`start_worker`), no beat: a test sends the sweep when it wants one."""
    running = Stack(receiver_ca=receiver.ca_path)
    running.env.update(
        DJANGO_CONN_MAX_AGE="60",  # the default: pool threads keep their connections
        WEBHOOK_ATTEMPT_LEASE_SECONDS=str(LEASE_SECONDS),
    )
    yield running
    running.stop()


def start_worker(stack: Stack, **env: str):
    stack.env.update(env)
    worker = stack.start_worker(concurrency=1)
    return worker


def sent(receiver, path: str) -> list:
    return [request for request in receiver.requests if request.path == path]


def most_at_once(requests, *, answer_seconds: float) -> int:
    """The most requests the receiver was answering at one moment, each answered
    `answer_seconds` after it was read (less a margin for two processes' clocks)."""
    window = answer_seconds - 0.3
    starts = [request.received_at for request in requests]
    return max((sum(1 for o in starts if s - window < o <= s) for s in starts), default=0)


class InFlightSampler:
    """The most attempts in flight seen in the database (per team, per endpoint), sampled every
    20 ms from a thread of the test process while the worker sends."""

    def __init__(self):
        self.per_team: dict[str, int] = {}
        self.per_endpoint: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=10)

    def _sample(self):
        try:
            while not self._stop.is_set():
                now = timezone.now()
                teams: dict[str, int] = {}
                rows = Delivery.objects.filter(in_flight=True, leased_until__gt=now).values_list(
                    "endpoint_id", "endpoint__team_id"
                )
                endpoints: dict[str, int] = {}
                for endpoint_id, team_id in rows:
                    endpoints[endpoint_id] = endpoints.get(endpoint_id, 0) + 1
                    teams[team_id] = teams.get(team_id, 0) + 1
                for key, count in endpoints.items():
                    self.per_endpoint[key] = max(self.per_endpoint.get(key, 0), count)
                for key, count in teams.items():
                    self.per_team[key] = max(self.per_team.get(key, 0), count)
                time.sleep(0.02)
        finally:
            connection.close()


def all_succeeded(count: int) -> bool:
    return Delivery.objects.filter(status="succeeded").count() == count


def test_a_slow_receiver_holds_delivery_threads_not_the_worker_process(
    stack, receiver, team, broker
):
    """The issue's small install, harsher: one process for every queue. A receiver answering
    after 3 s, with a backlog, is sent two attempts at once (its cap) from that one process,
    and a task of the bookings queue queued meanwhile runs at once, not after the batches."""
    receiver.respond("/slow", delay=3.0)
    make_endpoint(team, receiver.url_for("/slow"))
    start_worker(stack)
    for _ in range(6):
        record(team)
    assert wait_until(lambda: len(sent(receiver, "/slow")) >= 2, timeout=60)
    # A hold past its payment deadline, for `expire_holds` (the bookings queue).
    other = make_team("Prompt Travel").team
    hold = BookingFactory(
        client=ClientFactory(team=other), payment_required_by=timezone.now() - timedelta(hours=1)
    )

    queued_at = time.monotonic()
    broker.send_task("bookings.tasks.expire_holds")

    def expired():
        return Booking.objects.get(pk=hold.pk).status == Booking.Status.EXPIRED

    assert wait_until(expired, timeout=30, interval=0.05)
    waited = time.monotonic() - queued_at
    assert waited < 1.5, f"the bookings task waited {waited:.2f} s behind the deliveries"
    assert Delivery.objects.filter(status="pending").exists()  # the backlog was still there
    assert wait_until(lambda: all_succeeded(6), timeout=60)
    slow = sent(receiver, "/slow")
    assert len(slow) == 6  # each once
    assert most_at_once(slow, answer_seconds=3.0) == 2  # the endpoint's cap, from one process


def test_the_team_cap_holds_across_the_teams_endpoints(stack, receiver, team, other_team):
    """Four slow endpoints of one team, two of another: the team never has more than
    WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM (3 here) attempts in flight, nor an endpoint more
    than its 2, although the worker has 8 threads; the team's slots are handed on between
    its endpoints (no sweep runs), and the other team is not held back by it."""
    paths = [f"/slow-{n}" for n in range(4)]
    for path in paths:
        receiver.respond(path, delay=1.0)
        make_endpoint(team, receiver.url_for(path))
    for path in ("/other-0", "/other-1"):
        receiver.respond(path, delay=1.0)
        make_endpoint(other_team, receiver.url_for(path))
    start_worker(stack, WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM="3")
    time.sleep(3)  # the worker is up: the events are sent as they come

    with InFlightSampler() as sampler:
        for _ in range(3):  # 3 events, each a delivery to every endpoint of the team
            record(team)
            record(other_team)
        assert wait_until(lambda: all_succeeded(18), timeout=90), Delivery.objects.values_list(
            "endpoint_id", "status", "attempt_count"
        )

    ours = [request for path in paths for request in sent(receiver, path)]
    assert len(ours) == 12  # each once
    assert most_at_once(ours, answer_seconds=1.0) == 3  # the team's cap, reached, never passed
    assert sampler.per_team[team.pk] == 3
    assert max(sampler.per_endpoint.values()) <= 2
    theirs = sent(receiver, "/other-0") + sent(receiver, "/other-1")
    assert len(theirs) == 6
    # Sent beside the first team's three, on the threads its cap left free.
    assert 2 <= sampler.per_team[other_team.pk] <= 3


def test_the_endpoint_cap_holds_with_threads_to_spare(stack, receiver, team):
    """A backlog of one endpoint fills both its slots at once (a full batch starts another on
    a free thread) and never more, with 8 threads free."""
    receiver.respond("/slow", delay=0.5)
    make_endpoint(team, receiver.url_for("/slow"))
    for _ in range(12):
        record(team)  # one message: the later commits find it queued
    with InFlightSampler() as sampler:
        start_worker(stack, WEBHOOK_BATCH_SIZE="3")
        assert wait_until(lambda: all_succeeded(12), timeout=60)

    slow = sent(receiver, "/slow")
    assert len(slow) == 12
    assert most_at_once(slow, answer_seconds=0.5) == 2
    assert max(sampler.per_endpoint.values()) == 2


def test_a_worker_stopped_mid_send_loses_nothing(stack, receiver, team, broker):
    """A warm shutdown (SIGTERM) while a batch waits on its receiver: the process waits
    WEBHOOK_DELIVERY_SHUTDOWN_SECONDS (1 s here) for the attempt, whose answer takes 4.8 s,
    and exits. The attempt's answer is never recorded; the batch's other deliveries were never
    sent. Once the leases run out, the sweep sends each of them, and each is recorded once."""
    receiver.respond("/slow", delay=4.8)  # just inside the 5 s webhook timeout
    make_endpoint(team, receiver.url_for("/slow"))
    worker = start_worker(stack, WEBHOOK_DELIVERY_SHUTDOWN_SECONDS="1")
    events = [record(team) for _ in range(3)]
    assert wait_until(lambda: len(sent(receiver, "/slow")) == 1, timeout=60)  # in flight

    os.kill(worker.pid, signal.SIGTERM)
    worker.wait(timeout=30)  # its pool process is gone too: had it waited, the answer is in
    first = Delivery.objects.get(event=events[0])
    assert first.in_flight and first.attempt_count == 1 and first.attempts.count() == 0

    receiver.respond("/slow", status=200)
    start_worker(stack)
    latest = max(Delivery.objects.values_list("leased_until", flat=True))
    assert wait_until(lambda: timezone.now() > latest, timeout=60)
    broker.send_task("webhooks.tasks.sweep_deliveries")

    assert wait_until(lambda: all_succeeded(3), timeout=60)
    ids = [request.headers["X-Service-Event-Id"] for request in sent(receiver, "/slow")]
    assert ids == [events[0].id, *(event.id for event in events)]  # the first twice, in order
    for delivery in Delivery.objects.all():
        assert delivery.attempts.count() == 1  # recorded once
    assert sorted(Delivery.objects.values_list("attempt_count", flat=True)) == [1, 1, 2]


def test_a_worker_stopping_ends_its_batches_after_their_attempt_in_flight(stack, receiver, team):
    """A warm shutdown while a batch waits on an answer that comes within the shutdown's wait:
    that attempt is recorded, the batch takes no next delivery and gives the rest back with a
    continuation queued, which the next worker sends. Nothing waits for a lease."""
    receiver.respond("/slow", delay=1.5)
    make_endpoint(team, receiver.url_for("/slow"))
    worker = start_worker(stack, WEBHOOK_DELIVERY_SHUTDOWN_SECONDS="10")
    events = [record(team) for _ in range(4)]
    assert wait_until(lambda: len(sent(receiver, "/slow")) == 1, timeout=60)

    os.kill(worker.pid, signal.SIGTERM)
    worker.wait(timeout=30)
    first = Delivery.objects.get(event=events[0])
    assert first.status == "succeeded" and first.attempts.count() == 1
    rest = Delivery.objects.exclude(pk=first.pk)
    assert all(not d.in_flight and d.leased_until is None and d.attempt_count == 0 for d in rest)
    assert len(sent(receiver, "/slow")) == 1

    receiver.respond("/slow", status=200)
    start_worker(stack)  # the continuation is in the queue: no sweep needed
    assert wait_until(lambda: all_succeeded(4), timeout=60)
    ids = [request.headers["X-Service-Event-Id"] for request in sent(receiver, "/slow")]
    assert ids == [event.id for event in events]  # each once, in order


def test_a_batch_no_thread_can_take_waits_due_and_is_sent_later(
    stack, receiver, team, other_team, broker
):
    """One delivery thread, busy with a slow receiver: another team's batch message is not
    taken (nothing claimed, the sweep's lease given back: due and free), and is sent as soon
    as the thread is free, with no sweep."""
    receiver.respond("/slow", delay=3.0)
    make_endpoint(team, receiver.url_for("/slow"))
    make_endpoint(other_team, receiver.url_for("/quick"))
    start_worker(stack, WEBHOOK_DELIVERY_THREADS="1")
    record(team)
    assert wait_until(lambda: len(sent(receiver, "/slow")) == 1, timeout=60)

    record(other_team)  # its message reaches the worker while the one thread is busy
    broker.send_task("webhooks.tasks.sweep_deliveries")  # and the sweep leases it to another
    waiting = Delivery.objects.filter(endpoint__team=other_team)

    def turned_away():
        delivery = waiting.get()
        return delivery.leased_until is None and delivery.lease_id == ""

    time.sleep(1.0)  # both messages have arrived and were turned away
    assert turned_away()
    delivery = waiting.get()
    assert delivery.status == "pending" and delivery.attempt_count == 0
    assert delivery.next_attempt_at <= timezone.now()  # still due
    assert sent(receiver, "/quick") == []

    assert wait_until(lambda: len(sent(receiver, "/quick")) == 1, timeout=30)
    quick_at = sent(receiver, "/quick")[0].received_at
    slow_answered = sent(receiver, "/slow")[0].received_at + 3.0
    assert quick_at >= slow_answered - 0.3  # once the thread was free
    assert wait_until(lambda: all_succeeded(2), timeout=30)
    assert len(sent(receiver, "/quick")) == 1
