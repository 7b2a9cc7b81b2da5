"""Sending deliveries: claim, sign, POST, record, retry or give up.

A delivery is claimed with a conditional UPDATE (a lease) before its request is sent and
released when the attempt is recorded, so the same delivery is never sent by two workers at
once; a worker that dies mid-send leaves a lease that expires, and the beat sweep sends the
delivery again. No database transaction is open while a request is in flight.

At most WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT attempts are in flight per endpoint, so
that one slow receiver never holds every worker. A delivery over the cap is not attempted: it
stays due, and the next attempt of its endpoint to finish hands its slot on to it (the sweep
is the safety net).

Deliveries are sent in batches (`deliveries_send_batch`, one task per endpoint): one claim
leases up to WEBHOOK_BATCH_SIZE of the endpoint's due deliveries, oldest first, and the batch
sends them one at a time. Only the one being sent is in flight: a batch is one attempt against
the cap. The transaction that records an attempt also puts the next delivery of the batch in
flight (or gives the rest back): one transaction per delivery instead of two. A batch stops at
the first failed attempt (the rest waits for the sweep: a receiver that just failed is not
sent the rest at once), when the endpoint changes (deactivated, paused, new URL), and after
WEBHOOK_BATCH_SECONDS (a continuation is queued).

The rules are here; the SQL written by hand for them, and the claim's precompiled reads, are in
webhooks/services/delivery_sql.py."""

import hashlib
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import orjson
import requests
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, F
from django.utils import timezone

from webhooks import http
from webhooks.models import Delivery, DeliveryAttempt, Event, WebhookEndpoint
from webhooks.payloads import event_object
from webhooks.services.delivery_sql import (
    attempt_insert,
    claim_for_attempt,
    claimable,
    count_success,
    due_waiting,
    free_of_lease,
    in_flight_counts,
    lease_batch,
    locked_endpoint,
    release_and_take,
    success_record,
    team_claims_lock,
)
from webhooks.tasks import deliver_webhooks, send_deactivation_alert

logger = logging.getLogger(__name__)

# How long a delivery the sweep queued waits for its worker before the sweep queues it again.
DISPATCH_LEASE = timedelta(minutes=2)
SWEEP_BATCH = 500
EXCERPT_CHARS = 500


def event_payload(event: Event, *, webhook_id: str, api_version: str) -> bytes:
    """The body of a delivery: exactly the spec's fields, in the endpoint's API version."""
    return orjson.dumps(event_object(event, webhook_id=webhook_id, api_version=api_version))


def sign(*, secret: str, timestamp: int, body: bytes) -> str:
    """HMAC-SHA256, hex, over `<timestamp>.<raw body>` (the spec's signed string)."""
    signed = f"{timestamp}.".encode() + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


# While a batch message of an endpoint is queued and not yet started, new deliveries of that
# endpoint queue no other: that message's batch takes them (a key in the cache, set when the
# message is queued, deleted when its task starts). Expires in case the message is lost.
QUEUED_MARK_SECONDS = 60


def batch_queued_key(endpoint_id: str) -> str:
    return f"webhooks:batch-queued:{endpoint_id}"


def deliveries_dispatch_on_commit(endpoint_ids: Iterable[str]) -> None:
    """Once the transaction that wrote deliveries to these endpoints commits, queue a batch task
    for each, unless one is queued and not started yet (its batch will take them). A lost
    message costs nothing but time: the sweep finds the deliveries due and queues them."""
    endpoints = list(dict.fromkeys(endpoint_ids))
    if not endpoints:
        return

    def send() -> None:
        for endpoint_id in endpoints:
            _queue_batch(endpoint_id)

    transaction.on_commit(send)


def deliveries_queue_batch(endpoint_id: str) -> None:
    """Queue a batch message of the endpoint (a delivery pool stopping with endpoints it had
    noted). Whatever the endpoint's queued mark says: a message the pool took to run a batch
    again left it set. A duplicate message is harmless."""
    _forget_queued(endpoint_id)
    _queue_batch(endpoint_id)


def _queue_batch(endpoint_id: str, *, lease_id: str = "") -> None:
    """Queue one batch task for the endpoint. Without a lease (new deliveries, continuations)
    only if none is waiting in the queue already; the sweep's (with a lease) always."""
    key = batch_queued_key(endpoint_id)
    if not lease_id:
        try:
            if not cache.add(key, 1, QUEUED_MARK_SECONDS):
                return  # a queued batch of this endpoint, not started yet, will take them
        except Exception:  # cache down: queue anyway, a duplicate message is harmless
            logger.warning("Could not mark webhook batch of %s queued", endpoint_id, exc_info=True)
    try:
        deliver_webhooks.delay(endpoint_id, lease_id)
    except Exception:  # broker down: the sweep will pick the deliveries up
        logger.warning("Could not queue webhook deliveries of %s", endpoint_id, exc_info=True)
        if not lease_id:
            _forget_queued(endpoint_id)


def _forget_queued(endpoint_id: str) -> None:
    try:
        cache.delete(batch_queued_key(endpoint_id))
    except Exception:  # cache down: the mark expires by itself
        logger.warning("Could not clear webhook batch mark of %s", endpoint_id, exc_info=True)


def deliveries_not_taken(
    endpoint_id: str, *, lease_id: str = "", forget_queued: bool = True
) -> None:
    """A batch message of the endpoint that no one will run now (a worker's delivery pool had
    no thread free for it, or will run the endpoint's running batch again instead): nothing
    was claimed. A new delivery of the endpoint queues a message of its own again (unless
    `forget_queued` is false: a batch that is sure to run will take it), and the sweep's lease
    (`lease_id`) is given back, so that its deliveries are due and free at once: for the
    pool's next free thread, a slot handed on, or the sweep."""
    if forget_queued:
        _forget_queued(endpoint_id)
    if lease_id:
        Delivery.objects.filter(endpoint_id=endpoint_id, lease_id=lease_id, in_flight=False).update(
            leased_until=None, lease_id=""
        )


def deliveries_sweep(*, now: datetime | None = None) -> int:
    """Queue the deliveries that are due and in nobody's hands (retries, lost messages, killed
    workers, the rest of a batch stopped by a failure, batches a full delivery pool turned
    away), in batches: per endpoint no more than its free slots' worth of batches, per team no
    more batches than the team's free slots. Rows are claimed with FOR UPDATE SKIP LOCKED, so
    concurrent sweeps split the work instead of queueing the same delivery twice. Returns how
    many deliveries were queued."""
    now = now or timezone.now()
    lease_id = secrets.token_hex(8)
    size = settings.WEBHOOK_BATCH_SIZE
    with transaction.atomic():
        busy, team_busy = _attempts_in_flight(now=now)
        cap = settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT
        team_cap = settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM
        saturated = [endpoint_id for endpoint_id, count in busy.items() if count >= cap]
        full_teams = [team for team, count in team_busy.items() if team_cap and count >= team_cap]
        candidates = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(free_of_lease(now), status=Delivery.Status.PENDING, next_attempt_at__lte=now)
            .filter(endpoint__active=True)
            .exclude(endpoint_id__in=saturated)
            .exclude(endpoint__team_id__in=full_teams)
            .order_by("next_attempt_at")
            .values_list("pk", "endpoint_id", "endpoint__team_id")[:SWEEP_BATCH]
        )
        # No more per endpoint than its free slots take in batches, and no more batches per
        # team than its free slots: the rest would only be turned away.
        due: dict[str, list[int]] = {}
        batches: Counter[str] = Counter()  # per team
        for delivery_id, endpoint_id, team_id in candidates:
            taken = due.setdefault(endpoint_id, [])
            if len(taken) % size == 0:  # this one would start a new batch of its endpoint
                endpoint_free = cap - busy.get(endpoint_id, 0) - len(taken) // size
                team_free = team_cap - team_busy.get(team_id, 0) - batches[team_id]
                if endpoint_free <= 0 or (team_cap and team_free <= 0):
                    continue
                batches[team_id] += 1
            taken.append(delivery_id)
        due_ids = [delivery_id for taken in due.values() for delivery_id in taken]
        Delivery.objects.filter(pk__in=due_ids).update(
            leased_until=now + DISPATCH_LEASE, lease_id=lease_id
        )
        for endpoint_id, taken in due.items():  # one message per batch
            for _ in range(0, len(taken), size):
                transaction.on_commit(partial(_queue_batch, endpoint_id, lease_id=lease_id))
    return len(due_ids)


def _attempts_in_flight(*, now: datetime) -> tuple[dict[str, int], dict[str, int]]:
    """Attempts being sent, per endpoint and per team: claimed by a worker whose lease still
    runs (a dead worker's slot frees itself when its lease runs out)."""
    rows = (
        Delivery.objects.filter(in_flight=True, leased_until__gt=now)
        .order_by()
        .values("endpoint_id", "endpoint__team_id")
        .annotate(count=Count("pk"))
    )
    per_endpoint: dict[str, int] = {}
    per_team: Counter[str] = Counter()
    for row in rows:
        per_endpoint[row["endpoint_id"]] = row["count"]
        per_team[row["endpoint__team_id"]] += row["count"]
    return per_endpoint, dict(per_team)


# While a claim turned away by its team's cap is recent, every attempt or batch of the team
# that ends hands its slot on (`_hand_on_team_slot`): several endpoints of the team may be
# waiting, and only a batch's own endpoint gets a continuation. A key in the cache, set at each
# such turn-away and left to expire (the sweep is the safety net should the cache be down).
TEAM_WAITING_SECONDS = 60


def _team_waiting_key(team_id: str) -> str:
    return f"webhooks:team-waiting:{team_id}"


def _mark_team_waiting(team_id: str) -> None:
    try:
        cache.set(_team_waiting_key(team_id), 1, TEAM_WAITING_SECONDS)
    except Exception:  # cache down: the sweep sends them
        logger.warning("Could not mark webhook team %s waiting", team_id, exc_info=True)


def _team_waiting(team_id: str) -> bool:
    """Whether a claim of the team was turned away by its cap lately."""
    if settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM <= 0:
        return False
    try:
        return bool(cache.get(_team_waiting_key(team_id)))
    except Exception:  # cache down: the last slot's holder and the sweep still hand slots on
        logger.warning("Could not read webhook team %s waiting", team_id, exc_info=True)
        return False


@dataclass(frozen=True)
class _Slots:
    """What a claim counted in flight: the endpoint's attempts and its team's (every endpoint
    of the team, both modes), against WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT and
    WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM (0: no team cap)."""

    endpoint: int
    team: int

    @property
    def full(self) -> bool:
        """No slot free: the endpoint, or its team, is at its cap."""
        team_cap = settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM
        endpoint_cap = settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT
        return self.endpoint >= endpoint_cap or (team_cap > 0 and self.team >= team_cap)

    @property
    def team_full(self) -> bool:
        """The team is at its cap (whatever its endpoint's count)."""
        team_cap = settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM
        return team_cap > 0 and self.team >= team_cap

    @property
    def took_last(self) -> bool:
        """A claim made now takes the endpoint's last free slot."""
        return self.endpoint + 1 >= settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT

    @property
    def took_last_of_team(self) -> bool:
        """A claim made now takes the team's last free slot."""
        team_cap = settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM
        return team_cap > 0 and self.team + 1 >= team_cap

    @property
    def more_free(self) -> bool:
        """A claim made now still leaves a slot free, for the endpoint and for its team."""
        return not (self.took_last or self.took_last_of_team)


def _slots(endpoint: WebhookEndpoint, *, now: datetime) -> _Slots:
    """The attempts in flight of the endpoint and of its team, counted by a claim that holds the
    endpoint's row lock: the team's lock is taken first (when a team cap is set), so that
    claims of the team's other endpoints count after this one committed (lock order: endpoint,
    then team; nothing takes them the other way round)."""
    if settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM > 0:
        team_claims_lock(endpoint.team_id)
    endpoint_count, team_count = in_flight_counts(endpoint.pk, team_id=endpoint.team_id, now=now)
    return _Slots(endpoint=endpoint_count, team=team_count)


# How long the alert queued at a deactivation has to arrive before the sweep queues it again.
ALERT_GRACE = timedelta(minutes=2)


def deactivation_alerts_requeue(*, now: datetime | None = None) -> int:
    """Queue again the alerts of endpoints deactivated but not yet alerted: the broker was down
    at the deactivation, or the mail server refused. The e-mail itself goes once
    (`alert_sent_at`), however often it is queued. Returns how many were queued."""
    now = now or timezone.now()
    waiting = list(
        WebhookEndpoint.objects.filter(
            active=False, deactivated_at__lte=now - ALERT_GRACE, alert_sent_at__isnull=True
        ).values_list("pk", flat=True)
    )
    for endpoint_id in waiting:
        send_deactivation_alert.delay(endpoint_id)
    return len(waiting)


def delivery_claim(delivery_id: int, *, lease_id: str = "") -> Delivery | None:
    """Take the delivery for one attempt if it is due and free (or leased to the caller by the
    sweep), its endpoint is active and has a free slot. None otherwise: the delivery is left
    due, unattempted, with the sweep's lease (if it was the caller's) given back.

    The conditional UPDATE lets one of two workers holding the same id through. The cap needs
    more: claims of *different* deliveries of one endpoint never see each other's uncommitted
    UPDATE (READ COMMITTED), so a count inside the UPDATE alone would let every one of them in.
    Claims of one endpoint therefore take turns on the endpoint's row (a short lock, never held
    across the request), claims of one team's endpoints on the team's advisory lock, and each
    counts the attempts in flight after the previous committed.

    Four statements on PostgreSQL (three elsewhere): the endpoint locked and read with the
    delivery's event (what will be sent, read once: the secret is decrypted once), the team's
    lock, the counts (endpoint and team), the claim (which returns the delivery's new attempt
    count: the row read first is not locked and may have moved on)."""
    with transaction.atomic():
        # NO KEY UPDATE, as in _record_attempt: inserting deliveries (KEY SHARE) is not blocked.
        # Only the endpoint's row is locked; the event's never changes.
        found = list(
            Delivery.objects.select_related("event", "endpoint")
            .select_for_update(no_key=True, of=("endpoint",))
            .filter(pk=delivery_id)
            .order_by()
        )
        if not found:
            return None
        [delivery] = found
        now = timezone.now()
        slots = _slots(delivery.endpoint, now=now) if delivery.endpoint.active else None
        turned_away = slots is None or slots.full
        if turned_away:
            # Inactive: it waits for a reactivation. Over a cap: for a slot to free up.
            if lease_id:
                Delivery.objects.filter(pk=delivery_id, lease_id=lease_id, in_flight=False).update(
                    leased_until=None, lease_id=""
                )
            claimed = None
        else:
            claimed = claim_for_attempt(delivery_id, now=now, lease_id=lease_id)
    if turned_away and slots is not None and slots.team_full:
        _mark_team_waiting(delivery.endpoint.team_id)
    if claimed is None or slots is None:
        return None
    delivery.attempt_count, delivery.lease_id = claimed
    delivery.leased_until = now + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS)
    delivery.in_flight = True
    delivery.claimed_at = now  # type: ignore[attr-defined]  # not a field: the attempt starts here (see delivery_send)
    # Whether this attempt took the endpoint's (its team's) last free slot. A delivery is
    # turned away only while `cap` attempts are in flight, and the last of them to be claimed
    # took the last slot: that one hands its slot on when it ends (_record_attempt). An attempt
    # that left a slot free cannot have anyone waiting on it.
    delivery.hands_on_slot = slots.took_last  # type: ignore[attr-defined]
    delivery.hands_on_team_slot = slots.took_last_of_team  # type: ignore[attr-defined]
    return delivery


def delivery_attempt(delivery_id: int, *, lease_id: str = "") -> DeliveryAttempt | None:
    """Make one attempt of a delivery if it is due; None when there was nothing to send (not
    due, in another worker's hands, endpoint inactive or at its cap of attempts in flight)."""
    delivery = delivery_claim(delivery_id, lease_id=lease_id)
    if delivery is None:
        return None
    return delivery_send(delivery)


@dataclass
class _Batch:
    """Deliveries of one endpoint claimed together, oldest first, all under one lease. Only the
    one being sent is in flight; the others wait, leased, for their turn."""

    endpoint: WebhookEndpoint
    deliveries: list[Delivery]
    lease_id: str
    started: float  # time.monotonic() at the claim
    full: bool  # as many as WEBHOOK_BATCH_SIZE: more may be due
    slots: _Slots  # what its claim counted in flight (see delivery_claim)
    stop: Callable[[], bool] | None = None  # the worker is stopping: take no next delivery
    more: Callable[[str], object] | None = None  # another batch of the endpoint, at once
    _hands_on_team: bool | None = None  # see hands_on_team_slot

    @property
    def took_last_slot(self) -> bool:
        return self.slots.took_last

    def hands_on_team_slot(self) -> bool:
        """Whether its end hands its team's slot on: it took the team's last free slot, or a
        claim of the team was turned away by the team's cap lately (the cache read once)."""
        if self._hands_on_team is None:
            self._hands_on_team = self.slots.took_last_of_team or _team_waiting(
                self.endpoint.team_id
            )
        return self._hands_on_team

    def goes_on(self) -> bool:
        """Whether the batch may put its next delivery in flight: its time is not up and its
        worker is not stopping."""
        if time.monotonic() - self.started >= settings.WEBHOOK_BATCH_SECONDS:
            return False
        return self.stop is None or not self.stop()


def deliveries_send_batch(
    endpoint_id: str,
    *,
    lease_id: str = "",
    stop: Callable[[], bool] | None = None,
    more: Callable[[str], object] | None = None,
) -> list[DeliveryAttempt]:
    """Send a batch of the endpoint's due deliveries, one at a time, oldest first; the attempts
    made (none when there was nothing to send: nothing due and free, endpoint inactive or at
    its cap of attempts in flight, or its team at its own). `lease_id`: the sweep's lease on
    some of them. `stop`: asked before each next delivery; true, the batch ends there and
    gives the rest back, as when its time is up (a worker shutting down). `more`: how the
    caller starts another batch of the endpoint at once (the delivery pool, on a free thread:
    webhooks/services/pool.py), called with the endpoint's id once the claim has committed when
    the batch is full and leaves the endpoint and its team a slot free, when a slow receiver's
    batch splits (`_split`), and for the batch's continuation instead of a queue message
    (unless the worker is stopping)."""
    # From now on a new delivery of this endpoint queues a message of its own: this claim may
    # be too early to see it.
    _forget_queued(endpoint_id)
    batch = _batch_claim(endpoint_id, lease_id=lease_id)
    if batch is None:
        return []
    batch.stop, batch.more = stop, more
    if more is not None and batch.full and batch.slots.more_free:
        more(endpoint_id)
    split = more is None  # a batch splits once at most
    attempts = []
    delivery: Delivery | None = batch.deliveries[0]
    while delivery is not None:
        outcome = _post(delivery)
        if delivery.is_test:  # a panel test: final whatever its outcome, counts for nothing
            attempts.append(_record_attempt(delivery, **outcome))
            # Recorded as before, in a transaction of its own: the batch stops there.
            rest = batch.deliveries[batch.deliveries.index(delivery) + 1 :]
            with transaction.atomic():
                release_and_take(
                    None,
                    {},
                    following=None,
                    give_back=rest,
                    lease_id=batch.lease_id,
                    now=timezone.now(),
                )
                _batch_end(batch, after=delivery, failed=False, active=True)
            break
        attempt, delivery = _record_in_batch(batch, delivery, outcome)
        attempts.append(attempt)
        if not split and delivery is not None and outcome["duration_ms"] >= SPLIT_AFTER_MS:
            split = _split(batch, after=delivery)
    return attempts


# A batch whose receiver took this long to answer gives half of its waiting deliveries to
# another batch of the endpoint, if the endpoint (and its team) had a slot free at the claim:
# a slow receiver's backlog is sent on both of its slots, not one after the other on one.
SPLIT_AFTER_MS = 1000


def _split(batch: _Batch, *, after: Delivery) -> bool:
    """Give back the newer half of the deliveries waiting behind `after` (in flight now) and
    ask the caller for another batch of the endpoint (`batch.more`), which claims them if a
    slot is still free. Whether it did (a batch splits once)."""
    if batch.more is None or not batch.slots.more_free:
        return False  # this batch took the last slot: no other batch would be let in
    rest = batch.deliveries[batch.deliveries.index(after) + 1 :]
    given = rest[(len(rest) + 1) // 2 :]
    if not given:
        return False
    release_and_take(
        None, {}, following=None, give_back=given, lease_id=batch.lease_id, now=timezone.now()
    )
    batch.deliveries = batch.deliveries[: len(batch.deliveries) - len(given)]
    batch.more(batch.endpoint.pk)
    return True


def _batch_claim(endpoint_id: str, *, lease_id: str) -> _Batch | None:
    """Lease up to WEBHOOK_BATCH_SIZE due, free deliveries of the endpoint (or leased to the
    caller by the sweep), oldest first, and put the first in flight; the others are leased for
    as long as the batch may take to reach them. As in `delivery_claim`, claims of one endpoint
    take turns on its row, claims of one team on the team's lock, and each counts the attempts
    in flight after the previous committed.

    Five statements on PostgreSQL (four elsewhere): the endpoint locked and read, the team's
    lock, the counts, the deliveries with their events (FOR UPDATE SKIP LOCKED: rows another
    claim or sweep is taking are left to it), the lease."""
    size = settings.WEBHOOK_BATCH_SIZE
    precompiled = _claims_precompiled()
    with transaction.atomic():
        endpoint = locked_endpoint(endpoint_id, precompiled=precompiled)
        if endpoint is None:
            return None
        now = timezone.now()
        slots = _slots(endpoint, now=now) if endpoint.active else None
        turned_away = slots is None or slots.full
        if turned_away:
            # Inactive: they wait for a reactivation. Over a cap: for a batch of the endpoint
            # (or of the team) to end (it hands its slot on) or the sweep.
            if lease_id:
                Delivery.objects.filter(
                    endpoint_id=endpoint_id, lease_id=lease_id, in_flight=False
                ).update(leased_until=None, lease_id="")
            deliveries = []
        else:
            deliveries = claimable(
                endpoint_id, lease_id=lease_id, now=now, size=size, precompiled=precompiled
            )
        if deliveries:
            new_lease = secrets.token_hex(8)
            attempt_until = now + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS)
            lease_batch(
                deliveries,
                lease_id=new_lease,
                attempt_until=attempt_until,
                waiting_until=_batch_until(now),
            )
    if turned_away and slots is not None and slots.team_full:
        _mark_team_waiting(endpoint.team_id)  # after the transaction: no lock held meanwhile
    if not deliveries or slots is None:
        return None
    first = deliveries[0]
    for delivery in deliveries:
        delivery.endpoint = endpoint
        delivery.lease_id = new_lease
    first.attempt_count += 1
    first.in_flight = True
    first.leased_until = attempt_until
    first.claimed_at = now  # type: ignore[attr-defined]  # not a field: the attempt starts here
    return _Batch(
        endpoint=endpoint,
        deliveries=deliveries,
        lease_id=new_lease,
        started=time.monotonic(),
        full=len(deliveries) >= size,
        slots=slots,
    )


def _claims_precompiled() -> bool:
    """Whether the batch claim reads through statements compiled once per process and prepared
    (`core.sql.CompiledQuery`): PostgreSQL. Building the two querysets was most of a claim's
    CPU (docs/performance.md, "Webhook deliveries"). Elsewhere the querysets themselves."""
    return connection.vendor == "postgresql"


def _batch_until(now: datetime) -> datetime:
    """The lease of a batch's waiting deliveries: the batch puts none in flight after
    WEBHOOK_BATCH_SECONDS, and that one gets a lease of its own. If the worker dies, they are
    free again (and swept) after this."""
    return now + timedelta(
        seconds=settings.WEBHOOK_BATCH_SECONDS + settings.WEBHOOK_ATTEMPT_LEASE_SECONDS
    )


def _record_in_batch(
    batch: _Batch, delivery: Delivery, outcome: dict
) -> tuple[DeliveryAttempt, Delivery | None]:
    """Record an attempt of a batch and, in the same transaction, put the batch's next delivery
    in flight; or, when the batch stops here, give the rest back. Returns the attempt and the
    next delivery to send (None: the batch is over).

    A success is three statements: the endpoint's counters (which return whether it is still
    active at the same URL), the attempt, and one UPDATE that releases this delivery and takes
    the next (only if it is still this batch's: a redeliver or a lease that ran out may have
    given it to someone else). The batch is one slot against the cap throughout: the handover
    is one statement, so no count ever sees the slot free in between. On PostgreSQL the three
    are one statement (`_record_success_at_once`)."""
    rest = batch.deliveries[batch.deliveries.index(delivery) + 1 :]
    if not outcome["error"] and _records_at_once():
        return _record_success_at_once(batch, delivery, outcome, rest)
    with transaction.atomic():
        if not outcome["error"]:
            active, same_url = count_success(batch.endpoint, attempted_at=outcome["attempted_at"])
            attempt = _insert_attempt(delivery, succeeded=True, **outcome)
            changes: dict[str, object] = {
                "status": Delivery.Status.SUCCEEDED,
                "next_attempt_at": None,
            }
            going_on = active and same_url and bool(rest) and batch.goes_on()
        else:
            attempt, changes = _record_failure(delivery, **outcome)
            active = going_on = False
        now = timezone.now()
        following = rest[0] if going_on else None
        taken = release_and_take(
            delivery,
            changes,
            following=following,
            give_back=[] if going_on else rest,
            lease_id=batch.lease_id,
            now=now,
        )
        if following is not None and taken is None:
            # The next one is no longer this batch's: stop here and give the rest back.
            release_and_take(
                None, {}, following=None, give_back=rest[1:], lease_id=batch.lease_id, now=now
            )
            following = None
        if following is None or taken is None:
            _batch_end(batch, after=delivery, failed=bool(outcome["error"]), active=active)
            return attempt, None
    following.attempt_count = taken
    following.in_flight = True
    following.claimed_at = now  # type: ignore[attr-defined]  # not a field: see _post
    return attempt, following


def _records_at_once() -> bool:
    """Whether a success is recorded in one statement (`_record_success_at_once`): PostgreSQL
    (data-modifying CTEs); elsewhere one transaction of three statements."""
    return connection.vendor == "postgresql"


def _record_success_at_once(
    batch: _Batch, delivery: Delivery, outcome: dict, rest: list[Delivery]
) -> tuple[DeliveryAttempt, Delivery | None]:
    """`_record_in_batch` of a success on PostgreSQL: the same three writes as ONE statement
    (`success_record`), in autocommit and prepared: one round trip per delivery instead of five
    (BEGIN, three statements, COMMIT), and no planning. A single statement is atomic by itself.
    When the batch ends here (its last delivery, time up, the endpoint changed, the next
    delivery no longer the batch's), the rest is given back and the end handled as in the
    three-statement path, in a transaction of their own."""
    going_on = bool(rest) and batch.goes_on()
    following = rest[0] if going_on else None
    now = timezone.now()
    attempt = _new_attempt(delivery, succeeded=True, **outcome)
    active, same_url, taken = success_record(
        attempt, endpoint=batch.endpoint, lease_id=batch.lease_id, following=following, now=now
    )
    if following is not None and taken is not None:
        following.attempt_count = taken
        following.in_flight = True
        following.claimed_at = now  # type: ignore[attr-defined]  # not a field: see _post
        return attempt, following
    if following is not None and active and same_url:
        # The next one is no longer this batch's (as in _record_in_batch: left alone).
        rest = rest[1:]
    if rest:
        with transaction.atomic():
            # The rest was leased to the batch, not in flight, until now: nobody took it.
            release_and_take(
                None, {}, following=None, give_back=rest, lease_id=batch.lease_id, now=now
            )
            _batch_end(batch, after=delivery, failed=False, active=active)
    elif batch.hands_on_team_slot():
        with transaction.atomic():  # the team's slot handed on: a delivery locked and leased
            _batch_end(batch, after=delivery, failed=False, active=active)
    elif active and (batch.full or batch.took_last_slot):  # else _batch_end does nothing
        # Only the look for waiting deliveries (one SELECT): no transaction of its own needed;
        # the continuation is queued once it has answered (on_commit runs at once).
        _batch_end(batch, after=delivery, failed=False, active=active)
    return attempt, None


def _batch_end(batch: _Batch, *, after: Delivery, failed: bool, active: bool) -> None:
    """A batch is over (in the transaction of its last record): its slot is handed on.

    A batch that held its team's last free slot, or ends while claims of its team are being
    turned away by the team's cap (`_team_waiting`), hands its slot to the team's oldest due
    delivery (`_hand_on_team_slot`): other endpoints of the team may be waiting, and whichever
    endpoint's delivery waited longest goes first, this one's included (unless it just failed
    or is no longer active).

    Otherwise, after a failed attempt nothing is queued: the rest, given back due, waits for
    the sweep (a receiver that just failed is not sent the next delivery at once). Otherwise,
    if it gave deliveries back (time up, worker stopping, endpoint changed), or was full, or
    held the endpoint's last free slot (a batch may have been turned away meanwhile: see
    delivery_claim), and a due, free delivery is waiting, a continuation is queued.
    `active`: the endpoint is still active."""
    if batch.hands_on_team_slot():
        skip = batch.endpoint.pk if failed or not active else None
        _hand_on_team_slot(team_id=batch.endpoint.team_id, skip_endpoint=skip)
        return
    if failed or not active:
        return
    gave_back = batch.deliveries[-1] is not after
    if not (gave_back or batch.full or batch.took_last_slot):
        return
    if not gave_back and not due_waiting(batch.endpoint.pk):
        return
    endpoint_id = batch.endpoint.pk
    more = batch.more
    if more is not None and not (batch.stop is not None and batch.stop()):
        # In the delivery pool: the next batch on a free thread of this process, no message.
        transaction.on_commit(lambda: more(endpoint_id))
    else:
        transaction.on_commit(lambda: _queue_batch(endpoint_id))


def delivery_send(delivery: Delivery) -> DeliveryAttempt:
    """Sign and POST a delivery its caller holds (a claim's lease, or a panel test created
    leased), then record the attempt."""
    return _record_attempt(delivery, **_post(delivery))


def _post(delivery: Delivery) -> dict:
    """Sign and POST a delivery: the attempt's outcome, as `_record_attempt` takes it."""
    endpoint = delivery.endpoint
    body = event_payload(delivery.event, webhook_id=endpoint.id, api_version=endpoint.api_version)
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "X-Service-Signature": sign(secret=endpoint.secret, timestamp=timestamp, body=body),
        "X-Service-Timestamp": str(timestamp),
        "X-Service-Event-Id": delivery.event_id,
    }
    # A rolled secret's overlap: the previous secret signs too, so a receiver that still has
    # only the old one accepts the delivery (docs/webhooks.md, "rotate_secret").
    previous = endpoint.previous_secret_at(timezone.now())
    if previous:
        headers["X-Service-Signature-Previous"] = sign(
            secret=previous, timestamp=timestamp, body=body
        )
    # An attempt is made from its claim: one claimed before a reactivation is "made before"
    # it, however late its answer comes (_record_attempt).
    attempted_at = getattr(delivery, "claimed_at", None) or timezone.now()
    started = time.perf_counter()
    status_code, excerpt, error = None, "", ""
    try:
        response = http.post_json(endpoint.url, body, headers)
        status_code, excerpt = response.status_code, response.excerpt
        if not 200 <= status_code < 300:
            error = _status_error(status_code)
    except http.UnsafeDestination:
        error = "Refused: the URL resolves to a private or reserved address"
    except requests.Timeout:
        error = f"No answer within {settings.WEBHOOK_TIMEOUT_SECONDS} s"
    except requests.exceptions.SSLError:
        error = "TLS error: the certificate could not be verified"
    except requests.RequestException as exc:
        error = f"Connection failed: {type(exc).__name__}"
    duration_ms = round((time.perf_counter() - started) * 1000)
    return {
        "attempted_at": attempted_at,
        "status_code": status_code,
        "duration_ms": duration_ms,
        "error": error,
        "excerpt": excerpt[:EXCERPT_CHARS],
        "request_headers": {**headers, "User-Agent": http.USER_AGENT},
    }


def _status_error(status_code: int) -> str:
    if 300 <= status_code < 400:
        return f"HTTP {status_code}: redirects are not followed"
    return f"HTTP {status_code}"


@transaction.atomic
def _record_attempt(
    delivery: Delivery,
    *,
    attempted_at: datetime,
    status_code: int | None,
    duration_ms: int,
    error: str,
    excerpt: str,
    request_headers: dict | None = None,
) -> DeliveryAttempt:
    """Record an attempt and move the delivery and its endpoint on. A panel test (`is_test`)
    is final whatever its outcome and leaves the endpoint's counters alone. A failure of an
    attempt made before the endpoint's last reactivation (it was in flight then) is recorded,
    but the new run of consecutive failures starts after the reactivation: it does not count."""
    succeeded = not error
    if delivery.is_test:
        # NO KEY UPDATE: does not wait for transactions that are inserting deliveries for this
        # endpoint (their foreign keys take KEY SHARE locks on its row).
        WebhookEndpoint.objects.select_for_update(no_key=True).get(pk=delivery.endpoint_id)
        attempt = _insert_attempt(
            delivery,
            attempted_at=attempted_at,
            succeeded=succeeded,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error,
            excerpt=excerpt,
            request_headers=request_headers,
        )
        final = Delivery.Status.SUCCEEDED if succeeded else Delivery.Status.FAILED
        Delivery.objects.filter(pk=delivery.pk, lease_id=delivery.lease_id).update(
            leased_until=None, lease_id="", in_flight=False, status=final, next_attempt_at=None
        )
        return attempt
    changes: dict[str, object]  # Delivery's fields to update
    if succeeded:
        # The counters move in one UPDATE, which also takes the row lock: no SELECT first, and
        # no audit entry (django-auditlog leaves these counters out; it would only read the row
        # again to find that out).
        WebhookEndpoint.objects.filter(pk=delivery.endpoint_id).update(
            total_deliveries=F("total_deliveries") + 1,
            consecutive_failures=0,
            last_triggered_at=attempted_at,
            updated_at=timezone.now(),
        )
        attempt = _insert_attempt(
            delivery,
            attempted_at=attempted_at,
            succeeded=succeeded,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error,
            excerpt=excerpt,
            request_headers=request_headers,
        )
        changes = {"status": Delivery.Status.SUCCEEDED, "next_attempt_at": None}
    else:
        attempt, changes = _record_failure(
            delivery,
            attempted_at=attempted_at,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error,
            excerpt=excerpt,
            request_headers=request_headers,
        )
    # Only the holder of the lease moves the delivery on (a lease taken over after expiry
    # belongs to someone else now; the attempt itself is still on record).
    Delivery.objects.filter(pk=delivery.pk, lease_id=delivery.lease_id).update(
        leased_until=None, lease_id="", in_flight=False, **changes
    )
    team_id = delivery.endpoint.team_id
    if getattr(delivery, "hands_on_team_slot", False) or _team_waiting(team_id):
        _hand_on_team_slot(team_id=team_id)
    elif getattr(delivery, "hands_on_slot", True):
        _hand_on_slot(endpoint_id=delivery.endpoint_id)
    return attempt


def _insert_attempt(delivery: Delivery, **outcome: Any) -> DeliveryAttempt:
    """The attempt's row, saved (`outcome`: `_new_attempt`'s keywords)."""
    attempt = _new_attempt(delivery, **outcome)
    attempt_insert(attempt)
    return attempt


def _new_attempt(
    delivery: Delivery,
    *,
    attempted_at: datetime,
    succeeded: bool,
    status_code: int | None,
    duration_ms: int,
    error: str,
    excerpt: str,
    request_headers: dict | None,
) -> DeliveryAttempt:
    """The attempt of `delivery` with this outcome, not saved."""
    return DeliveryAttempt(
        delivery=delivery,
        number=delivery.attempt_count,
        attempted_at=attempted_at,
        succeeded=succeeded,
        status_code=status_code,
        duration_ms=duration_ms,
        error=error,
        response_excerpt=excerpt,
        request_headers=request_headers or {},
    )


def _record_failure(
    delivery: Delivery,
    *,
    attempted_at: datetime,
    status_code: int | None,
    duration_ms: int,
    error: str,
    excerpt: str,
    request_headers: dict | None,
) -> tuple[DeliveryAttempt, dict[str, object]]:
    """A failed attempt: the endpoint is read under its lock (a failure may deactivate it),
    saved through the model (and the audit log) only when it is deactivated."""
    endpoint = WebhookEndpoint.objects.select_for_update(no_key=True).get(pk=delivery.endpoint_id)
    attempt = _insert_attempt(
        delivery,
        attempted_at=attempted_at,
        succeeded=False,
        status_code=status_code,
        duration_ms=duration_ms,
        error=error,
        excerpt=excerpt,
        request_headers=request_headers,
    )
    before_reactivation = bool(endpoint.reactivated_at and attempted_at < endpoint.reactivated_at)
    endpoint.total_deliveries += 1
    endpoint.failed_deliveries += 1
    endpoint.last_triggered_at = attempted_at
    if not before_reactivation:
        endpoint.consecutive_failures += 1
    delays = settings.WEBHOOK_RETRY_DELAYS
    changes: dict[str, object]
    if delivery.attempt_count >= len(delays):
        changes = {"status": Delivery.Status.FAILED, "next_attempt_at": None}
    else:
        changes = {"next_attempt_at": attempted_at + delays[delivery.attempt_count]}
    counters = [
        "total_deliveries",
        "failed_deliveries",
        "consecutive_failures",
        "last_triggered_at",
        "updated_at",
    ]
    if (
        endpoint.active
        and endpoint.consecutive_failures >= settings.WEBHOOK_FAILURES_BEFORE_DEACTIVATION
    ):
        _deactivate(endpoint)
        # A change people see in the audit trail: through the model.
        endpoint.save(update_fields=[*counters, "active", "deactivated_at", "last_deactivated_at"])
    else:
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
            total_deliveries=endpoint.total_deliveries,
            failed_deliveries=endpoint.failed_deliveries,
            consecutive_failures=endpoint.consecutive_failures,
            last_triggered_at=attempted_at,
            updated_at=timezone.now(),
        )
    return attempt, changes


def _hand_on_slot(*, endpoint_id: str) -> None:
    """The slot this attempt frees goes to the endpoint's oldest due delivery, if one waits
    (turned away by the cap): its backlog drains at the cap's pace, not the sweep's."""
    now = timezone.now()
    waiting = list(
        Delivery.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(free_of_lease(now), endpoint_id=endpoint_id, status=Delivery.Status.PENDING)
        .filter(next_attempt_at__lte=now, endpoint__active=True)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:1]
    )
    if waiting:
        lease_id = secrets.token_hex(8)
        Delivery.objects.filter(pk__in=waiting).update(
            leased_until=now + DISPATCH_LEASE, lease_id=lease_id
        )
        transaction.on_commit(lambda: _queue_batch(endpoint_id, lease_id=lease_id))


def _hand_on_team_slot(*, team_id: str, skip_endpoint: str | None = None) -> None:
    """The team's slot this attempt (or batch) frees goes to the team's oldest due delivery,
    on any of its active endpoints with a slot of their own free (`skip_endpoint` left out):
    a delivery turned away by the team's cap would otherwise wait for the sweep, and the sweep
    finds no free slot while the team's other batches keep it full. Leased to one queued
    message, as `_hand_on_slot` does."""
    now = timezone.now()
    at_their_cap = (
        Delivery.objects.filter(in_flight=True, leased_until__gt=now, endpoint__team_id=team_id)
        .order_by()
        .values("endpoint_id")
        .annotate(count=Count("pk"))
        .filter(count__gte=settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT)
        .values("endpoint_id")
    )
    waiting = (
        Delivery.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(free_of_lease(now), status=Delivery.Status.PENDING, next_attempt_at__lte=now)
        .filter(endpoint__team_id=team_id, endpoint__active=True)
        .exclude(endpoint_id__in=at_their_cap)
    )
    if skip_endpoint is not None:
        waiting = waiting.exclude(endpoint_id=skip_endpoint)
    found = list(waiting.order_by("next_attempt_at").values_list("pk", "endpoint_id")[:1])
    if found:
        [(delivery_id, endpoint_id)] = found
        lease_id = secrets.token_hex(8)
        Delivery.objects.filter(pk=delivery_id).update(
            leased_until=now + DISPATCH_LEASE, lease_id=lease_id
        )
        transaction.on_commit(lambda: _queue_batch(endpoint_id, lease_id=lease_id))


def _deactivate(endpoint: WebhookEndpoint) -> None:
    endpoint.active = False
    endpoint.deactivated_at = endpoint.last_deactivated_at = timezone.now()
    logger.warning(
        "Webhook %s deactivated after %s consecutive failed attempts",
        endpoint.pk,
        endpoint.consecutive_failures,
    )
    send_deactivation_alert.delay_on_commit(endpoint.pk)  # type: ignore[attr-defined]  # DjangoTask


@transaction.atomic
def delivery_redeliver(*, delivery: Delivery) -> Delivery:
    """Send a delivery again from its first attempt (the panel's "redeliver"). One being sent
    right now is left to finish: restarting it would send the event twice."""
    now = timezone.now()
    restarted = (
        Delivery.objects.filter(pk=delivery.pk)
        .exclude(in_flight=True, leased_until__gt=now)
        .update(
            status=Delivery.Status.PENDING,
            attempt_count=0,
            next_attempt_at=now,
            leased_until=None,
            lease_id="",
            in_flight=False,
        )
    )
    if restarted:
        deliveries_dispatch_on_commit([delivery.endpoint_id])
    delivery.refresh_from_db()
    return delivery
