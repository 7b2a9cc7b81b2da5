"""The delivery pool's own rules, in this process (the worker's side is in test_pool_worker.py):
a message for an endpoint whose batch is running here makes that batch run once more instead
of claiming on a thread of its own, and a stopping pool queues what it had noted instead of
leaving it to the sweep. Threads and their own database connections: PostgreSQL."""

import base64
import json
import time

import pytest
import redis
from django.conf import settings as django_settings

from tests.kit.factories import make_endpoint, record
from tests.kit.marks import needs_postgresql
from webhooks.models import Delivery
from webhooks.services.pool import AGAIN, TAKEN, TURNED_AWAY, DeliveryPool

pytestmark = [
    needs_postgresql("threads with database connections of their own, a real broker"),
    pytest.mark.django_db(transaction=True),
]


def wait_for(condition, *, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.02)


def succeeded(endpoint) -> int:
    return Delivery.objects.filter(endpoint=endpoint, status="succeeded").count()


def queued_batches() -> list[list]:
    """The arguments of each `deliver_webhooks` message waiting in the broker's webhooks queue."""
    client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    messages = [json.loads(raw) for raw in client.lrange("webhooks", 0, -1)]
    bodies = [json.loads(base64.b64decode(message["body"])) for message in messages]
    return [args for args, _kwargs, _embed in bodies]


def test_messages_for_a_running_endpoint_run_its_batch_again_on_the_same_thread(
    team, https_receiver, broker
):
    endpoint = make_endpoint(team, https_receiver.url_for("/slowish"))
    https_receiver.respond("/slowish", delay=0.5)  # under a second: the batch does not split
    record(team)
    pool = DeliveryPool(4)
    try:
        assert pool.submit(endpoint.pk) == TAKEN
        wait_for(lambda: len(https_receiver.requests) == 1)  # the first is in flight

        # A burst: each commit's message reaches the pool while the batch is still sending.
        for _ in range(5):
            record(team)
        assert [pool.submit(endpoint.pk) for _ in range(5)] == [AGAIN] * 5

        wait_for(lambda: succeeded(endpoint) == 6)
        assert len(pool._threads) == 1  # one batch after the other, on the thread it had
        event_ids = [request.headers["X-Service-Event-Id"] for request in https_receiver.requests]
        assert len(event_ids) == 6 and len(set(event_ids)) == 6  # each sent once
    finally:
        pool.shutdown(10)


def test_a_batch_asking_for_another_still_takes_a_free_thread(team, https_receiver, broker):
    # `more`, as a full batch, a split or a continuation calls it: the endpoint's second slot
    # is filled at once, beside the batch still waiting on its receiver.
    endpoint = make_endpoint(team, https_receiver.url_for("/more"))
    https_receiver.respond("/more", delay=3.0)
    record(team)
    pool = DeliveryPool(4)
    try:
        assert pool.submit(endpoint.pk) == TAKEN
        wait_for(lambda: len(https_receiver.requests) == 1)
        record(team)
        pool.more(endpoint.pk)
        wait_for(lambda: succeeded(endpoint) == 2)
        first, second = https_receiver.requests
        assert second.received_at - first.received_at < 3.0  # sent while the first waited
        assert len(pool._threads) == 2
    finally:
        pool.shutdown(10)


def test_a_stopping_pool_queues_the_endpoints_it_had_noted(team, https_receiver, broker):
    slow = make_endpoint(team, https_receiver.url_for("/slow"))
    noted = make_endpoint(team, https_receiver.url_for("/noted"))
    again = make_endpoint(team, https_receiver.url_for("/again"))
    https_receiver.respond("/slow", delay=1.0)
    https_receiver.respond("/again", delay=1.0)
    record(team)  # one delivery to each endpoint
    broker.control.purge()  # the commit's own messages: only what the pool queues is read below
    pool = DeliveryPool(2)
    try:
        assert pool.submit(slow.pk) == TAKEN
        assert pool.submit(again.pk) == TAKEN
        wait_for(lambda: len(https_receiver.requests) == 2)
        assert pool.submit(noted.pk) == TURNED_AWAY  # both threads busy: noted
        record(team)
        broker.control.purge()
        assert pool.submit(again.pk) == AGAIN
    finally:
        left = pool.shutdown(10)

    assert left == 0 and succeeded(slow) == 1
    # Neither waits for the sweep: each has a message again, for any worker.
    assert sorted(args[0] for args in queued_batches()) == sorted([noted.pk, again.pk])
    assert pool.submit(noted.pk) == TURNED_AWAY  # a stopped pool takes nothing more
