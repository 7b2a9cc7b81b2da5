"""A batch's successful attempt recorded in ONE statement on PostgreSQL
(`_record_success_at_once`) does what the three-statement transaction does (the path SQLite
takes, and the reference here): the same counters, attempt, releases and handover, under the
same conditions: only rows still under the batch's lease move, and the next delivery is put in
flight only if it is still pending and its endpoint is active at the batch's URL as the
counters' UPDATE leaves it (after any transaction holding the endpoint's row)."""

import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from tests.kit.factories import make_endpoint, record
from tests.kit.marks import needs_postgresql
from webhooks.models import Delivery, DeliveryAttempt, WebhookEndpoint
from webhooks.services import deliveries as service

pytestmark = needs_postgresql("the one-statement path is PostgreSQL's")


def success(started_at) -> dict:
    """What `_post` returns for an answer 200 (the request itself is not the subject here)."""
    return {
        "attempted_at": started_at,
        "status_code": 200,
        "duration_ms": 3,
        "error": "",
        "excerpt": "ok",
        "request_headers": {"Content-Type": "application/json"},
    }


def snapshot(endpoint, batch, result) -> dict:
    """What the record left, in terms that do not depend on ids or clocks."""
    now = timezone.now()
    position = {delivery.pk: index for index, delivery in enumerate(batch.deliveries)}

    def lease(row: Delivery) -> str:
        if row.lease_id == batch.lease_id:
            return "batch"
        return "none" if not row.lease_id else "other"

    rows = Delivery.objects.filter(endpoint=endpoint).order_by("pk")
    endpoint.refresh_from_db()
    attempt, following = result
    return {
        "deliveries": [
            (
                row.status,
                row.attempt_count,
                row.in_flight,
                lease(row),
                row.leased_until is not None and row.leased_until > now,
                row.next_attempt_at is None,
            )
            for row in rows
        ],
        "attempts": [
            (position[a.delivery_id], a.number, a.succeeded, a.status_code, a.response_excerpt)
            for a in DeliveryAttempt.objects.filter(delivery__endpoint=endpoint).order_by("pk")
        ],
        "returned": (
            attempt.pk == DeliveryAttempt.objects.filter(delivery__endpoint=endpoint).last().pk,
            None if following is None else (position[following.pk], following.attempt_count),
        ),
        "endpoint": (
            endpoint.total_deliveries,
            endpoint.failed_deliveries,
            endpoint.consecutive_failures,
            endpoint.last_triggered_at is not None,
        ),
    }


def lose_lease(batch, index: int) -> None:
    """The delivery's lease ran out and another worker took it."""
    Delivery.objects.filter(pk=batch.deliveries[index].pk).update(lease_id="someone-else")


def redeliver(batch, index: int) -> None:
    """The panel restarted it (delivery_redeliver's UPDATE): no longer the batch's."""
    Delivery.objects.filter(pk=batch.deliveries[index].pk).update(
        status="pending", attempt_count=0, leased_until=None, lease_id="", in_flight=False
    )


SCENARIOS = {
    "the next one taken": lambda endpoint, batch: None,
    "the sent one's lease lost": lambda endpoint, batch: lose_lease(batch, 0),
    "the next one's lease lost": lambda endpoint, batch: lose_lease(batch, 1),
    "the next one redelivered": lambda endpoint, batch: redeliver(batch, 1),
    "the next one no longer pending": lambda endpoint, batch: Delivery.objects.filter(
        pk=batch.deliveries[1].pk
    ).update(status="failed"),
    "the endpoint deactivated": lambda endpoint, batch: WebhookEndpoint.objects.filter(
        pk=endpoint.pk
    ).update(active=False),
    "the endpoint's URL changed": lambda endpoint, batch: WebhookEndpoint.objects.filter(
        pk=endpoint.pk
    ).update(url=endpoint.url + "new"),
    "the batch's time up": lambda endpoint, batch: setattr(batch, "started", -1e9),
}


@pytest.mark.django_db
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("size", [1, 3])
def test_one_statement_records_what_the_three_statements_do(
    scenario, size, team, monkeypatch, django_capture_on_commit_callbacks, settings
):
    if size == 1 and scenario not in ("the next one taken", "the sent one's lease lost"):
        pytest.skip("needs a next delivery")
    settings.WEBHOOK_BATCH_SIZE = size  # a full batch: its end looks for waiting deliveries
    # Two endpoints of one team: each event makes a delivery for each. One is recorded the
    # three-statement way, the other in one statement; a fourth event waits outside the batch.
    three, one = (make_endpoint(team, f"https://hooks.example/{name}") for name in "ab")
    for _ in range(size + 1):
        record(team)

    outcomes = {}
    for endpoint, at_once in ((three, False), (one, True)):
        monkeypatch.setattr(service, "_records_at_once", lambda at_once=at_once: at_once)
        batch = service._batch_claim(endpoint.pk, lease_id="")
        assert batch is not None and len(batch.deliveries) == size
        SCENARIOS[scenario](endpoint, batch)
        first = batch.deliveries[0]
        with django_capture_on_commit_callbacks() as queued:
            result = service._record_in_batch(
                batch,
                first,
                success(first.claimed_at),  # type: ignore[attr-defined]
            )
        outcomes[at_once] = snapshot(endpoint, batch, result), len(queued)

    assert outcomes[True] == outcomes[False]
    (state, queued) = outcomes[True]
    # And the outcome is the one intended, not merely the same:
    assert state["deliveries"][0][0] == (
        "pending" if scenario == "the sent one's lease lost" else "succeeded"
    )
    assert state["attempts"] == [(0, 1, True, 200, "ok")]
    assert state["endpoint"] == (1, 0, 0, True)
    taken = scenario in ("the next one taken", "the sent one's lease lost") and size > 1
    assert state["returned"] == (True, (1, 1) if taken else None)
    if taken:
        assert state["deliveries"][1] == ("pending", 1, True, "batch", True, False)
        assert state["deliveries"][2][3] == "batch"  # still the batch's, waiting
    elif size > 1:
        # Given back: nobody's (unless taken by someone else before), not in flight. A next
        # one still under the lease but no longer pending is left alone, by both paths.
        left_alone = 2 if scenario == "the next one no longer pending" else 1
        assert all(row[3] in ("none", "other") for row in state["deliveries"][left_alone:size])
        assert not any(row[2] for row in state["deliveries"][1:size])


@pytest.mark.django_db(transaction=True)  # another connection holds the endpoint's row
def test_the_handover_sees_the_endpoint_as_left_by_a_transaction_it_waited_for(team, settings):
    """The counters' UPDATE waits for a transaction holding the endpoint's row (a claim, a
    deactivation) and the handover decides on the row as that transaction left it: here the
    endpoint was deactivated meanwhile, so the next delivery is not put in flight."""
    settings.WEBHOOK_BATCH_SIZE = 3
    endpoint = make_endpoint(team, "https://hooks.example/a")
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 0  # commits queue (eagerly) in vain
    for _ in range(3):
        record(team)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 2
    batch = service._batch_claim(endpoint.pk, lease_id="")
    assert batch is not None and len(batch.deliveries) == 3
    holding, release = threading.Event(), threading.Event()

    def deactivate() -> None:
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute(
                    "SELECT 1 FROM webhooks_webhookendpoint WHERE id = %s FOR NO KEY UPDATE",
                    [endpoint.pk],
                )
                holding.set()
                release.wait(timeout=30)
                cursor.execute(
                    "UPDATE webhooks_webhookendpoint SET active = false WHERE id = %s",
                    [endpoint.pk],
                )
                cursor.execute("COMMIT")
        finally:
            other.close()

    thread = threading.Thread(target=deactivate)
    thread.start()
    assert holding.wait(timeout=30)

    seen_waiting = threading.Event()

    def let_go_once_blocked() -> None:
        watcher = connections.create_connection("default")
        try:
            deadline = timezone.now() + timedelta(seconds=30)
            while timezone.now() < deadline:
                with watcher.cursor() as cursor:
                    cursor.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND query LIKE 'WITH counted AS%%'"
                    )
                    if cursor.fetchone()[0] > 0:
                        seen_waiting.set()
                        break
                threading.Event().wait(0.01)
        finally:
            watcher.close()
            release.set()

    releaser = threading.Thread(target=let_go_once_blocked)
    releaser.start()
    first = batch.deliveries[0]
    attempt, following = service._record_in_batch(
        batch,
        first,
        success(first.claimed_at),  # type: ignore[attr-defined]
    )
    thread.join(timeout=30)
    releaser.join(timeout=30)
    assert seen_waiting.is_set()  # the statement did wait for the other transaction

    assert following is None  # the endpoint is no longer active: the batch stops
    rows = list(Delivery.objects.order_by("pk"))
    assert (rows[0].status, rows[0].in_flight, rows[0].lease_id) == ("succeeded", False, "")
    for row in rows[1:]:  # given back, not in flight, due: for a reactivation
        assert (row.status, row.in_flight, row.lease_id, row.attempt_count) == (
            "pending",
            False,
            "",
            0,
        )
    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.total_deliveries == 1
    assert attempt.pk == DeliveryAttempt.objects.get().pk
