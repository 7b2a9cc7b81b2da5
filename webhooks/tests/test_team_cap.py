"""At most WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM attempts in flight over all the endpoints of
one team, as well as the per-endpoint cap: one team's many slow endpoints never fill the
delivery capacity. Enforced where the endpoint's cap is (single claim, batch claim, sweep,
slot hand-on); a delivery over it waits, due and unattempted; the team's slot is handed on to
its oldest due delivery on another endpoint."""

import threading

import pytest
from django.db import connection
from django.utils import timezone

from tests.kit.factories import make_endpoint, record
from tests.kit.marks import needs_postgresql
from webhooks.models import Delivery
from webhooks.services import deliveries_send_batch, deliveries_sweep, delivery_attempt
from webhooks.services.deliveries import delivery_claim, delivery_send


def in_flight(team=None) -> int:
    rows = Delivery.objects.filter(in_flight=True, leased_until__gt=timezone.now())
    return rows.filter(endpoint__team=team).count() if team else rows.count()


def endpoints(team, receiver, count: int) -> list:
    return [make_endpoint(team, receiver.url_for(f"/e{n}")) for n in range(count)]


def due_of(endpoint) -> list[int]:
    deliveries = Delivery.objects.filter(endpoint=endpoint).order_by("pk")
    return list(deliveries.values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_delivery_over_the_team_cap_waits_due_without_an_attempt(
    team, other_team, https_receiver, settings
):
    assert settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM == 4  # the default
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 3
    first, second, third = endpoints(team, https_receiver, 3)
    theirs = make_endpoint(other_team, https_receiver.url_for("/theirs"))
    for _ in range(2):
        record(team)
    record(other_team)
    a1, a2 = due_of(first)
    b1, _ = due_of(second)
    (c1, _) = due_of(third)
    assert delivery_claim(a1) and delivery_claim(a2) and delivery_claim(b1)  # three in flight

    assert delivery_attempt(c1) is None  # its endpoint has both slots free, its team none

    waiting = Delivery.objects.get(pk=c1)
    assert waiting.status == "pending" and waiting.attempt_count == 0
    assert waiting.leased_until is None and not waiting.in_flight
    assert waiting.attempts.count() == 0 and https_receiver.requests == []
    # Another team is not held back.
    [their_delivery] = due_of(theirs)
    assert delivery_attempt(their_delivery).succeeded


@pytest.mark.django_db
def test_a_batch_over_the_team_cap_claims_nothing(team, https_receiver, settings):
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 2
    first, second = endpoints(team, https_receiver, 2)
    for _ in range(2):
        record(team)
    delivery_claim(due_of(first)[0]), delivery_claim(due_of(second)[0])

    assert deliveries_send_batch(first.pk) == []
    assert deliveries_send_batch(second.pk) == []
    assert https_receiver.requests == []
    assert Delivery.objects.filter(leased_until__isnull=True).count() == 2  # still free


@pytest.mark.django_db
def test_no_team_cap_when_it_is_zero(team, https_receiver, settings):
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 0
    several = endpoints(team, https_receiver, 5)
    record(team)
    for endpoint in several:
        assert delivery_claim(due_of(endpoint)[0]) is not None
    assert in_flight(team) == 5


@pytest.mark.django_db
def test_the_sweep_dispatches_no_more_batches_than_the_team_has_free_slots(
    team, other_team, https_receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 3
    several = endpoints(team, https_receiver, 4)
    make_endpoint(other_team, https_receiver.url_for("/theirs"))
    for _ in range(2):
        record(team)
        record(other_team)
    delivery_claim(due_of(several[0])[0])  # one of the team's slots taken

    with django_capture_on_commit_callbacks(execute=False) as queued:
        queued_count = deliveries_sweep()

    # Two batches for the team (its two free slots), of the oldest endpoints' deliveries, and
    # one for the other team.
    assert len(queued) == 3
    leased = Delivery.objects.filter(in_flight=False, leased_until__isnull=False)
    assert queued_count == leased.count()
    ours = set(leased.filter(endpoint__team=team).values_list("endpoint_id", flat=True))
    assert len(ours) == 2
    assert leased.filter(endpoint__team=other_team).count() == 2


@pytest.mark.django_db
def test_the_attempt_holding_the_teams_last_slot_hands_it_to_another_endpoint(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    """Team cap 2, two endpoints: the first endpoint's two attempts fill the team; the second
    endpoint's delivery is turned away. The attempt that took the team's last slot hands it,
    when it ends, to the second endpoint's delivery (its own endpoint has nothing waiting)."""
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 2
    first, second = endpoints(team, https_receiver, 2)
    for _ in range(2):
        record(team)
    a1, a2 = due_of(first)
    b1, b2 = due_of(second)
    Delivery.objects.filter(pk=b2).update(status="succeeded", next_attempt_at=None)
    spare, last = delivery_claim(a1), delivery_claim(a2)
    assert delivery_attempt(b1) is None  # turned away by the team's cap

    with django_capture_on_commit_callbacks(execute=False) as queued:
        delivery_send(spare)
        delivery_send(last)
    assert len(queued) == 1  # the waiting delivery's message
    handed = Delivery.objects.get(pk=b1)
    assert handed.leased_until is not None and not handed.in_flight  # leased to that message
    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()
    assert Delivery.objects.get(pk=b1).status == "succeeded"


@pytest.mark.django_db
def test_a_batch_holding_the_teams_last_slot_hands_it_to_the_teams_oldest_waiting(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    """Team cap 1: a batch of the first endpoint holds the team's one slot; when it ends, the
    slot goes to the team's oldest due delivery, the second endpoint's."""
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 1
    first, second = endpoints(team, https_receiver, 2)
    record(team)
    record(team)
    (oldest, _) = due_of(second)
    Delivery.objects.filter(endpoint=second).exclude(pk=oldest).delete()
    Delivery.objects.filter(pk=oldest).update(next_attempt_at=timezone.now().replace(year=2020))

    with django_capture_on_commit_callbacks(execute=False) as queued:
        made = deliveries_send_batch(first.pk)

    assert [attempt.succeeded for attempt in made] == [True, True]
    assert len(queued) == 1  # the second endpoint's message
    handed = Delivery.objects.get(pk=oldest)
    assert handed.leased_until is not None and not handed.in_flight and handed.attempt_count == 0


@pytest.mark.django_db
def test_an_attempt_ending_while_claims_of_its_team_are_turned_away_hands_its_slot_on(
    team, https_receiver, settings, django_capture_on_commit_callbacks
):
    """Team cap 2, three endpoints: the first's attempt left a slot free at its claim, the
    second's took the last; the third's batch is turned away. The first ends first: although
    it did not take the team's last slot, a claim of its team was turned away meanwhile, so
    its slot goes to the third endpoint rather than waiting for the sweep."""
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 2
    first, second, third = endpoints(team, https_receiver, 3)
    record(team)
    spare = delivery_claim(due_of(first)[0])
    delivery_claim(due_of(second)[0])
    assert deliveries_send_batch(third.pk) == []  # turned away by the team's cap

    with django_capture_on_commit_callbacks(execute=False) as queued:
        delivery_send(spare)

    assert len(queued) == 1
    [waiting] = due_of(third)
    assert Delivery.objects.get(pk=waiting).leased_until is not None  # leased to that message


@needs_postgresql("concurrent transactions and row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_claims_of_one_teams_endpoints_on_postgresql_respect_the_team_cap(
    team, https_receiver, settings
):
    """Claims of different endpoints take turns on the team's lock: without it, each would
    count the others' uncommitted claims as free slots."""
    several = endpoints(team, https_receiver, 8)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 0  # commits queue (eagerly) in vain
    for _ in range(3):
        record(team)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 2
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = 3
    for round_number in range(3):
        ids = [due_of(endpoint)[round_number] for endpoint in several]  # one per endpoint
        barrier = threading.Barrier(len(ids), timeout=30)
        claimed: list = []

        def claim(delivery_id, barrier, claimed):
            try:
                barrier.wait()
                claimed.append(delivery_claim(delivery_id))
            finally:
                connection.close()

        threads = [threading.Thread(target=claim, args=(pk, barrier, claimed)) for pk in ids]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in threads)

        assert len([c for c in claimed if c is not None]) == 3, f"round {round_number}"
        assert in_flight(team) == 3
        Delivery.objects.filter(in_flight=True).update(
            in_flight=False, leased_until=None, lease_id="", status="succeeded"
        )
    assert https_receiver.requests == []
