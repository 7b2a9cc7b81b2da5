"""At-least-once delivery with a real Celery worker, Redis and PostgreSQL: a lost broker
message, and a worker killed mid-send or mid-batch, are still delivered by the sweep."""

import os
import signal
import time

import pytest
from django.db import transaction
from django.utils import timezone

from tests.kit.factories import make_endpoint
from tests.kit.stack import database_url, kill, needs_real_stack, start_celery_worker, wait_until
from webhooks.models import Delivery, EventType
from webhooks.services import event_record

pytestmark = [
    needs_real_stack,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(90),
]
LEASE_SECONDS = 3
BATCH_SECONDS = 2  # a batch's waiting deliveries are leased for BATCH_SECONDS + LEASE_SECONDS


@pytest.fixture
def start_worker(https_receiver):
    workers = []
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "WEBHOOKS_ALLOWED_NETWORKS": "127.0.0.0/8",
        "REQUESTS_CA_BUNDLE": https_receiver.ca_path,
        "WEBHOOK_ATTEMPT_LEASE_SECONDS": str(LEASE_SECONDS),
        "WEBHOOK_BATCH_SECONDS": str(BATCH_SECONDS),
    }

    def start():
        worker = start_celery_worker(env, "--pool=prefork", "--concurrency=1")
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        kill(worker)


def record(team):
    with transaction.atomic():
        return event_record(
            team=team,
            live_mode=True,
            type=EventType.WALLET_CREDIT,
            data_object={"object": "transaction", "id": "txn_real"},
        )


def test_a_lost_broker_message_is_delivered_by_the_sweep(
    team, https_receiver, broker, start_worker
):
    make_endpoint(team, https_receiver.url)
    event = record(team)  # its delivery message is now in Redis…
    broker.control.purge()  # …and the broker loses it
    start_worker()
    time.sleep(1)
    assert https_receiver.requests == []  # nothing will send it but the sweep

    broker.send_task("webhooks.tasks.sweep_deliveries")

    assert wait_until(lambda: len(https_receiver.requests) == 1)
    assert https_receiver.requests[0].headers["X-Service-Event-Id"] == event.id
    assert wait_until(lambda: Delivery.objects.get().status == "succeeded")


def test_a_worker_killed_mid_send_is_made_good_by_the_sweep(
    team, https_receiver, broker, start_worker
):
    https_receiver.respond("/slow", status=200, delay=2.0)
    make_endpoint(team, https_receiver.url_for("/slow"))
    worker = start_worker()
    event = record(team)
    assert wait_until(lambda: len(https_receiver.requests) == 1)  # the request is in flight

    os.killpg(worker.pid, signal.SIGKILL)  # the worker dies before it records the answer
    worker.wait()
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and delivery.attempt_count == 1
    assert delivery.attempts.count() == 0

    https_receiver.respond("/slow", status=200)
    start_worker()
    time.sleep(LEASE_SECONDS + 0.5)  # the dead worker's lease runs out
    broker.send_task("webhooks.tasks.sweep_deliveries")

    assert wait_until(lambda: len(https_receiver.requests) == 2)
    assert https_receiver.requests[1].headers["X-Service-Event-Id"] == event.id
    assert wait_until(lambda: Delivery.objects.get().status == "succeeded")
    delivery.refresh_from_db()
    assert delivery.attempt_count == 2
    assert [a.number for a in delivery.attempts.all()] == [2]


def test_a_worker_killed_mid_batch_leaves_leases_that_run_out_and_the_sweep_resends(
    team, https_receiver, broker, start_worker
):
    https_receiver.respond("/slow", status=200, delay=2.0)
    make_endpoint(team, https_receiver.url_for("/slow"))
    events = [record(team) for _ in range(3)]  # one message: the later commits found it queued
    worker = start_worker()
    assert wait_until(lambda: len(https_receiver.requests) == 1)  # the first is in flight

    os.killpg(worker.pid, signal.SIGKILL)  # the worker dies mid-batch
    worker.wait()
    first, *waiting = Delivery.objects.order_by("pk")
    assert first.in_flight and first.attempt_count == 1 and first.attempts.count() == 0
    # The rest of its batch: leased under the same lease, not in flight, never attempted.
    assert {delivery.lease_id for delivery in waiting} == {first.lease_id}
    assert all(not d.in_flight and d.attempt_count == 0 and d.leased_until for d in waiting)

    https_receiver.respond("/slow", status=200)
    start_worker()
    latest = max(delivery.leased_until for delivery in [first, *waiting])
    assert wait_until(lambda: timezone.now() > latest, timeout=LEASE_SECONDS + BATCH_SECONDS + 5)
    broker.send_task("webhooks.tasks.sweep_deliveries")

    assert wait_until(lambda: len(https_receiver.requests) == 4)
    sent = [request.headers["X-Service-Event-Id"] for request in https_receiver.requests]
    assert sent == [events[0].id, *(event.id for event in events)]  # the first twice, in order
    assert wait_until(
        lambda: set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}
    )
    assert [d.attempt_count for d in Delivery.objects.order_by("pk")] == [2, 1, 1]
    first.refresh_from_db()
    assert [a.number for a in first.attempts.all()] == [2]
