"""Batches: one task sends several due deliveries of one endpoint, one at a time, oldest first,
under one claim. A batch is one attempt in flight against the per-endpoint cap; it stops at
the first failed attempt, when its time is up, and when the endpoint changes; a duplicate
message never sends a delivery twice."""

import threading

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from tests.kit.factories import SECRET, make_endpoint, record
from tests.kit.marks import needs_postgresql
from tests.kit.receiver import verify_signature
from tests.kit.stack import wait_until
from webhooks.models import Delivery, WebhookEndpoint
from webhooks.services import deliveries_send_batch, delivery_attempt, webhook_send_test_event
from webhooks.services.deliveries import batch_queued_key
from webhooks.tasks import deliver_webhook


def backlog(team, count: int) -> list[int]:
    """`count` due deliveries to the team's endpoint, none queued (in a `django_db` test the
    commit callbacks do not run)."""
    for _ in range(count):
        record(team)
    return list(Delivery.objects.order_by("pk").values_list("pk", flat=True))


def in_flight() -> int:
    return Delivery.objects.filter(in_flight=True, leased_until__gt=timezone.now()).count()


def sent_event_ids(receiver, path: str | None = None) -> list[str]:
    return [
        request.headers["X-Service-Event-Id"]
        for request in receiver.requests
        if path is None or request.path == path
    ]


def event_ids_in_order() -> list[str]:
    return list(Delivery.objects.order_by("pk").values_list("event_id", flat=True))


@pytest.mark.django_db
def test_one_task_sends_several_deliveries_of_an_endpoint_oldest_first(team, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url)
    backlog(team, 5)

    attempts = deliveries_send_batch(endpoint.pk)

    assert [attempt.succeeded for attempt in attempts] == [True] * 5
    assert sent_event_ids(https_receiver) == event_ids_in_order()
    for request in https_receiver.requests:
        assert verify_signature(SECRET, request.headers, request.body)
    for delivery in Delivery.objects.all():
        assert delivery.status == "succeeded" and delivery.attempt_count == 1
        assert not delivery.in_flight and delivery.leased_until is None
        assert [a.number for a in delivery.attempts.all()] == [1]
    endpoint.refresh_from_db()
    assert (endpoint.total_deliveries, endpoint.failed_deliveries) == (5, 0)
    assert deliveries_send_batch(endpoint.pk) == []  # a second message finds nothing


@pytest.mark.django_db
def test_a_batch_takes_no_more_than_the_batch_size_and_queues_the_rest(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_BATCH_SIZE = 3
    endpoint = make_endpoint(team, https_receiver.url)
    backlog(team, 5)

    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert len(deliveries_send_batch(endpoint.pk)) == 3
    assert len(queued) == 1  # a full batch: the next one is queued
    assert sent_event_ids(https_receiver) == event_ids_in_order()[:3]

    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()  # the continuation runs (eagerly): the last two
    assert sent_event_ids(https_receiver) == event_ids_in_order()
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}


@pytest.mark.django_db
def test_the_batch_stops_at_the_first_timeout_and_leaves_the_rest_to_the_sweep(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    https_receiver.respond("/slow", delay=2.0)
    endpoint = make_endpoint(team, https_receiver.url_for("/slow"))
    first, *rest = backlog(team, 4)

    with django_capture_on_commit_callbacks(execute=False) as queued:
        (attempt,) = deliveries_send_batch(endpoint.pk)

    assert not attempt.succeeded and attempt.error == "No answer within 1 s"
    assert len(https_receiver.requests) == 1  # the receiver is not sent the rest at once
    assert queued == []  # nor queued again: the sweep takes them
    failed = Delivery.objects.get(pk=first)
    assert failed.status == "pending" and failed.attempt_count == 1
    assert failed.next_attempt_at > timezone.now()  # the retry schedule: 5 minutes
    for delivery in Delivery.objects.filter(pk__in=rest):
        assert delivery.attempt_count == 0 and delivery.attempts.count() == 0
        assert delivery.leased_until is None and delivery.lease_id == "" and not delivery.in_flight
        assert delivery.next_attempt_at <= timezone.now()  # due: the sweep sends them
    endpoint.refresh_from_db()
    assert (endpoint.consecutive_failures, endpoint.failed_deliveries) == (1, 1)


@pytest.mark.django_db
def test_a_failing_receiver_stops_the_batch_at_its_first_failure(team, https_receiver):
    https_receiver.respond("/down", status=503)
    endpoint = make_endpoint(team, https_receiver.url_for("/down"))
    backlog(team, 3)

    (attempt,) = deliveries_send_batch(endpoint.pk)

    assert attempt.status_code == 503 and not attempt.succeeded
    assert len(https_receiver.requests) == 1
    assert in_flight() == 0


@pytest.mark.django_db
def test_a_batch_out_of_time_gives_the_rest_back_and_queues_a_continuation(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_BATCH_SECONDS = 0  # time is up after the first attempt
    endpoint = make_endpoint(team, https_receiver.url)
    first, *rest = backlog(team, 3)

    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert len(deliveries_send_batch(endpoint.pk)) == 1

    assert len(queued) == 1
    assert Delivery.objects.get(pk=first).status == "succeeded"
    for delivery in Delivery.objects.filter(pk__in=rest):
        assert delivery.leased_until is None and delivery.attempt_count == 0


@pytest.mark.django_db
def test_new_deliveries_queue_no_message_while_one_of_their_endpoint_waits(
    team, https_receiver, django_capture_on_commit_callbacks
):
    endpoint = make_endpoint(team, https_receiver.url)
    cache.add(batch_queued_key(endpoint.pk), 1, 60)  # a batch message is in the queue, not started

    with django_capture_on_commit_callbacks(execute=True):
        record(team)
    assert https_receiver.requests == []  # no message of its own: the queued batch takes it

    assert len(deliveries_send_batch(endpoint.pk)) == 1  # that message's task
    with django_capture_on_commit_callbacks(execute=True):
        record(team)  # queued (and sent, eagerly) at once: no batch is waiting now
    assert len(https_receiver.requests) == 2


@pytest.mark.django_db
def test_a_message_queued_before_batches_is_still_delivered(team, https_receiver):
    make_endpoint(team, https_receiver.url)
    (delivery_id,) = backlog(team, 1)

    deliver_webhook(delivery_id)  # the old task, as a message already queued at deploy time

    assert sent_event_ids(https_receiver) == event_ids_in_order()
    assert Delivery.objects.get().status == "succeeded"


@pytest.mark.django_db
def test_a_duplicate_message_sends_nothing_twice(team, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url)
    ids = backlog(team, 3)

    deliveries_send_batch(endpoint.pk)
    assert deliveries_send_batch(endpoint.pk) == []  # the same message, delivered again
    assert all(delivery_attempt(pk) is None for pk in ids)  # nor an old-style message

    assert sent_event_ids(https_receiver) == event_ids_in_order()


@needs_postgresql("concurrent transactions and row locks")
@pytest.mark.django_db(transaction=True)
def test_two_messages_for_one_endpoint_at_once_never_send_a_delivery_twice(
    team, https_receiver, settings
):
    settings.WEBHOOK_BATCH_SIZE = 4
    endpoint = make_endpoint(team, https_receiver.url)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 0  # commits queue (eagerly) in vain
    backlog(team, 8)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 2
    barrier = threading.Barrier(2, timeout=30)

    def worker():
        try:
            barrier.wait()
            deliveries_send_batch(endpoint.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)

    sent = sent_event_ids(https_receiver)
    assert len(sent) == len(set(sent)) == 8  # each once: the two batches split them
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}
    assert set(Delivery.objects.values_list("attempt_count", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)  # a batch in another thread, committing
def test_a_batch_is_one_attempt_in_flight_against_the_cap(team, https_receiver, settings):
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 1
    settings.WEBHOOK_BATCH_SIZE = 3
    https_receiver.respond("/slow", delay=1.0)
    endpoint = make_endpoint(team, https_receiver.url_for("/slow"))
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 0  # commits queue (eagerly) in vain
    backlog(team, 5)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 1
    done = threading.Event()

    def worker():
        try:
            deliveries_send_batch(endpoint.pk)
        finally:
            connection.close()
            done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    assert wait_until(lambda: len(https_receiver.requests) >= 1)
    # Sending its first: one attempt in flight, the other two of the batch leased, waiting.
    assert in_flight() == 1
    assert Delivery.objects.filter(in_flight=False, leased_until__gt=timezone.now()).count() == 2
    assert deliveries_send_batch(endpoint.pk) == []  # another worker: turned away by the cap
    thread.join(timeout=60)
    assert done.is_set()

    # The batch held the endpoint's last slot: its end queued the rest (run eagerly).
    assert sent_event_ids(https_receiver) == event_ids_in_order()
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}
    assert in_flight() == 0


@pytest.mark.django_db(transaction=True)  # a batch in another thread, committing
def test_a_batch_stops_when_its_endpoint_changes_url(team, https_receiver, settings):
    https_receiver.respond("/old", delay=1.0)
    endpoint = make_endpoint(team, https_receiver.url_for("/old"))
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 0  # commits queue (eagerly) in vain
    backlog(team, 3)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 2

    def worker():
        try:
            deliveries_send_batch(endpoint.pk)
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    assert wait_until(lambda: len(https_receiver.requests) >= 1)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(url=https_receiver.url_for("/new"))
    thread.join(timeout=60)
    assert not thread.is_alive()

    order = event_ids_in_order()
    assert sent_event_ids(https_receiver, "/old") == order[:1]
    # The rest was given back and queued again (run eagerly): sent to the new URL.
    assert sent_event_ids(https_receiver, "/new") == order[1:]
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}


@pytest.mark.django_db
def test_a_panel_test_event_in_a_batch_is_sent_once_and_ends_the_batch(
    team, https_receiver, django_capture_on_commit_callbacks
):
    endpoint = make_endpoint(team, https_receiver.url)
    webhook_send_test_event(endpoint=endpoint)  # not queued: commit callbacks do not run
    backlog(team, 2)

    with django_capture_on_commit_callbacks(execute=False) as queued:
        (attempt,) = deliveries_send_batch(endpoint.pk)

    test_delivery = Delivery.objects.get(is_test=True)
    assert attempt.delivery_id == test_delivery.pk and test_delivery.status == "succeeded"
    endpoint.refresh_from_db()
    assert endpoint.total_deliveries == 0  # a test counts for nothing
    waiting = Delivery.objects.filter(is_test=False)
    assert all(d.leased_until is None and d.attempt_count == 0 for d in waiting)  # given back
    assert len(queued) == 1  # and queued again
    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()
    assert sent_event_ids(https_receiver) == event_ids_in_order()
