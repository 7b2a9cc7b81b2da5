"""At most WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT attempts in flight per endpoint: one slow
receiver never holds every worker. A delivery over the cap waits, due and unattempted; the next
attempt of its endpoint to finish hands its slot on; a dead worker's slot frees itself."""

import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from tests.kit.factories import make_endpoint, record
from tests.kit.marks import needs_postgresql
from webhooks.models import Delivery
from webhooks.services import deliveries_send_batch, deliveries_sweep, delivery_attempt
from webhooks.services.deliveries import delivery_claim


def backlog(team, count: int) -> list[int]:
    """`count` due deliveries to one endpoint, none queued (commit callbacks are not run)."""
    for _ in range(count):
        record(team)
    return list(Delivery.objects.order_by("pk").values_list("pk", flat=True))


def in_flight() -> int:
    return Delivery.objects.filter(in_flight=True, leased_until__gt=timezone.now()).count()


@pytest.mark.django_db
def test_a_delivery_over_the_cap_waits_due_without_an_attempt(team, https_receiver, settings):
    assert settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT == 2  # the default
    make_endpoint(team, https_receiver.url)
    first, second, third = backlog(team, 3)
    assert delivery_claim(first) is not None  # two workers are sending to this endpoint
    assert delivery_claim(second) is not None

    assert delivery_attempt(third) is None

    assert https_receiver.requests == []
    waiting = Delivery.objects.get(pk=third)
    assert waiting.status == "pending" and waiting.attempt_count == 0
    assert waiting.next_attempt_at <= timezone.now()  # still due
    assert waiting.leased_until is None and not waiting.in_flight
    assert waiting.attempts.count() == 0


@pytest.mark.django_db
def test_another_endpoint_is_not_held_back_by_a_full_one(team, other_team, https_receiver):
    make_endpoint(team, https_receiver.url_for("/slow"))
    make_endpoint(other_team, https_receiver.url_for("/fast"))
    first, second, _ = backlog(team, 3)
    delivery_claim(first), delivery_claim(second)
    record(other_team)
    theirs = Delivery.objects.get(endpoint__team=other_team)

    assert delivery_attempt(theirs.pk) is not None
    theirs.refresh_from_db()
    assert theirs.status == "succeeded"


@pytest.mark.django_db
def test_the_sweep_dispatches_no_more_than_the_free_slots(
    team, https_receiver, django_capture_on_commit_callbacks, settings
):
    """One batch per free slot, of at most WEBHOOK_BATCH_SIZE deliveries."""
    settings.WEBHOOK_BATCH_SIZE = 2
    make_endpoint(team, https_receiver.url)
    ids = backlog(team, 5)
    delivery_claim(ids[0])  # one in flight: one slot left

    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert deliveries_sweep() == 2
    assert len(queued) == 1  # one batch
    leased = Delivery.objects.filter(leased_until__isnull=False, in_flight=False)
    assert list(leased.order_by("pk").values_list("pk", flat=True)) == ids[1:3]  # the oldest


@pytest.mark.django_db
def test_a_swept_delivery_turned_away_gives_its_lease_back(
    team, https_receiver, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_BATCH_SIZE = 1
    endpoint = make_endpoint(team, https_receiver.url)
    ids = backlog(team, 4)
    with django_capture_on_commit_callbacks(execute=False):
        deliveries_sweep()  # leases ids[0] and ids[1] to their queued messages
    swept = Delivery.objects.get(pk=ids[0])
    # Before those messages arrive, two fresh deliveries take both slots.
    delivery_claim(ids[2]), delivery_claim(ids[3])

    assert deliveries_send_batch(endpoint.pk, lease_id=swept.lease_id) == []
    assert delivery_attempt(ids[1], lease_id=swept.lease_id) is None  # a message queued before

    for delivery in Delivery.objects.filter(pk__in=ids[:2]):
        assert delivery.leased_until is None and delivery.lease_id == ""  # free for a slot
        assert delivery.attempt_count == 0 and delivery.attempts.count() == 0
    assert https_receiver.requests == []


@pytest.mark.django_db
def test_a_finished_attempt_hands_its_slot_to_the_oldest_waiting_delivery(
    team, https_receiver, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 1
    make_endpoint(team, https_receiver.url)
    ids = backlog(team, 3)
    events = list(Delivery.objects.order_by("pk").values_list("event_id", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        delivery_attempt(ids[0])  # its end queues the next, whose end queues the last

    sent = [request.headers["X-Service-Event-Id"] for request in https_receiver.requests]
    assert sent == events
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}
    assert in_flight() == 0


@pytest.mark.django_db
def test_a_dead_workers_slot_frees_itself_when_its_lease_runs_out(team, https_receiver, settings):
    make_endpoint(team, https_receiver.url)
    first, second, third = backlog(team, 3)
    delivery_claim(first), delivery_claim(second)  # both workers die mid-send
    assert delivery_claim(third) is None

    later = timezone.now() + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS + 1)
    with time_machine.travel(later):
        assert delivery_claim(third) is not None


@pytest.mark.django_db
def test_an_inactive_endpoint_is_not_sent_to(team, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url)
    (delivery_id,) = backlog(team, 1)
    endpoint.active = False
    endpoint.save()

    assert delivery_attempt(delivery_id) is None

    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and delivery.attempt_count == 0
    assert https_receiver.requests == []


@needs_postgresql("concurrent transactions and row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_claims_on_postgresql_respect_the_cap(team, https_receiver, settings):
    make_endpoint(team, https_receiver.url)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 0  # commits queue (eagerly) in vain
    ids = backlog(team, 24)
    assert https_receiver.requests == []
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 2
    rounds, per_round = 3, 8
    for round_number in range(rounds):
        batch = ids[round_number * per_round : (round_number + 1) * per_round]
        barrier = threading.Barrier(per_round, timeout=30)
        claimed: list = []

        def claim(delivery_id, barrier, claimed):
            try:
                barrier.wait()
                claimed.append(delivery_claim(delivery_id))
            finally:
                connection.close()

        threads = [threading.Thread(target=claim, args=(pk, barrier, claimed)) for pk in batch]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in threads)

        assert len([c for c in claimed if c is not None]) == 2, f"round {round_number}"
        assert in_flight() == 2
        # The two finish (as _record_attempt leaves them) before the next round.
        Delivery.objects.filter(in_flight=True).update(
            in_flight=False, leased_until=None, lease_id="", status="succeeded"
        )


@pytest.mark.django_db
def test_the_attempt_holding_the_last_slot_hands_it_on(
    team, https_receiver, django_capture_on_commit_callbacks
):
    """Default cap of 2: the first attempt had a slot to spare and hands nothing on; the
    second took the last slot, so the delivery turned away meanwhile gets it when it ends."""
    from webhooks.services.deliveries import delivery_send

    make_endpoint(team, https_receiver.url)
    first, second, third = backlog(team, 3)
    spare, last = delivery_claim(first), delivery_claim(second)
    assert delivery_attempt(third) is None  # turned away by the cap

    with django_capture_on_commit_callbacks(execute=False) as queued:
        delivery_send(spare)
    assert queued == [] and not Delivery.objects.get(pk=third).leased_until
    with django_capture_on_commit_callbacks(execute=False) as queued:
        delivery_send(last)
    assert len(queued) == 1  # the waiting delivery's message
    assert Delivery.objects.get(pk=third).leased_until is not None  # leased to that message
