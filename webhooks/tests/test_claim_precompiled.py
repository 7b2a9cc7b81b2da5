"""A batch's claim through statements compiled once and prepared (PostgreSQL's path,
`_claims_precompiled`) takes what the querysets take (SQLite's path, and the reference here):
the same endpoint, the same deliveries with their events, in the same order, leased the same
way, and the same rows left behind. Both claims run on the same rows at the same (frozen)
time, each in a transaction rolled back afterwards."""

from datetime import timedelta

import pytest
from django.db import connections, transaction
from django.utils import timezone

from tests.kit.factories import make_endpoint, record
from tests.kit.marks import needs_postgresql
from webhooks.models import Delivery
from webhooks.services import deliveries as service
from webhooks.services import delivery_sql

pytestmark = needs_postgresql("the precompiled claim is PostgreSQL's")

SWEEP = "sweep-lease"


def fields(instance, lease_name) -> dict:
    values = {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}
    if "lease_id" in values:
        values["lease_id"] = lease_name(values["lease_id"])
    return {**values, "_db": instance._state.db, "_adding": instance._state.adding}


def claim(endpoint, lease_id: str, *, precompiled: bool, monkeypatch) -> tuple:
    """The batch `_batch_claim` returns and the endpoint's rows it leaves, in terms free of
    the random lease id; rolled back."""
    monkeypatch.setattr(service, "_claims_precompiled", lambda: precompiled)
    with transaction.atomic():
        batch = service._batch_claim(endpoint.pk, lease_id=lease_id)

        def lease_name(value: str) -> str:
            return "batch" if batch is not None and value == batch.lease_id else value

        rows = [
            (
                row.pk,
                row.status,
                row.attempt_count,
                row.in_flight,
                lease_name(row.lease_id),
                row.leased_until,
                row.next_attempt_at,
            )
            for row in Delivery.objects.filter(endpoint=endpoint).order_by("pk")
        ]
        claimed = None
        if batch is not None:
            claimed = {
                "endpoint": fields(batch.endpoint, lease_name),
                "deliveries": [
                    (
                        fields(delivery, lease_name),
                        Delivery.event.is_cached(delivery),
                        fields(delivery.event, lease_name),
                        getattr(delivery, "claimed_at", None),
                        delivery.endpoint is batch.endpoint,
                    )
                    for delivery in batch.deliveries
                ],
                "full": batch.full,
                "took_last_slot": batch.took_last_slot,
            }
        transaction.set_rollback(True)
    return claimed, rows


def shift(delivery_ids, **changes) -> None:
    Delivery.objects.filter(pk__in=delivery_ids).update(**changes)


def situation(name: str, ids: list[int], endpoint, now) -> tuple[str, list[int]]:
    """Sets the rows up; returns the lease id to claim with and the rows another transaction
    is to hold locked (as a concurrent claim or sweep does)."""
    later, earlier = now + timedelta(minutes=5), now - timedelta(minutes=5)
    if name == "all due and free":
        return "", []
    if name == "oldest first, not due left out":
        # Due in another order than the ids; one not due yet; one no longer pending.
        for offset, pk in zip([3, 1, 4, 2, 5], ids, strict=True):
            shift([pk], next_attempt_at=now - timedelta(seconds=offset))
        shift([ids[2]], next_attempt_at=later)
        shift([ids[4]], status="succeeded", next_attempt_at=None)
        return "", []
    if name == "endpoint inactive":
        endpoint.__class__.objects.filter(pk=endpoint.pk).update(active=False)
        shift(ids[:2], lease_id=SWEEP, leased_until=later)  # given back by the claim
        return SWEEP, []
    if name == "cap reached by attempts in flight":
        shift(ids[:2], in_flight=True, lease_id="others", leased_until=later)
        shift(ids[2:4], lease_id=SWEEP, leased_until=later)
        return SWEEP, []
    if name == "one slot left (the last)":
        shift(ids[:1], in_flight=True, lease_id="others", leased_until=later)
        return "", []
    if name == "in flight with an expired lease counts for nothing":
        shift(ids[:2], in_flight=True, lease_id="dead", leased_until=earlier)
        return "", []
    if name == "rows locked by another claim skipped":
        return "", [ids[0], ids[2]]
    if name == "leased to the message by the sweep":
        shift(ids[1:3], lease_id=SWEEP, leased_until=later)
        shift(ids[3:4], lease_id="another message", leased_until=later)
        return SWEEP, []
    if name == "the sweep's lease, claimed without it":
        shift(ids[1:3], lease_id=SWEEP, leased_until=later)
        return "", []
    if name == "nothing due":
        shift(ids, next_attempt_at=later)
        return "", []
    raise AssertionError(name)


SITUATIONS = [
    "all due and free",
    "oldest first, not due left out",
    "endpoint inactive",
    "cap reached by attempts in flight",
    "one slot left (the last)",
    "in flight with an expired lease counts for nothing",
    "rows locked by another claim skipped",
    "leased to the message by the sweep",
    "the sweep's lease, claimed without it",
    "nothing due",
]


@pytest.mark.django_db(transaction=True)  # another connection holds rows locked
@pytest.mark.parametrize("size", [3, 20])
@pytest.mark.parametrize("name", SITUATIONS)
def test_the_precompiled_claim_takes_what_the_querysets_take(
    name, size, team, settings, monkeypatch
):
    endpoint = make_endpoint(team, "https://hooks.example/a")
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 0  # commits queue (eagerly) in vain
    for _ in range(5):
        record(team)
    settings.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = 2
    settings.WEBHOOK_BATCH_SIZE = size
    rows = Delivery.objects.filter(endpoint=endpoint).order_by("pk")
    ids = list(rows.values_list("pk", flat=True))
    now = timezone.now()
    lease_id, locked = situation(name, ids, endpoint, now)
    monkeypatch.setattr(service.timezone, "now", lambda: now)  # one `now` for both claims

    other = connections.create_connection("default")
    try:
        if locked:
            with other.cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute(
                    "SELECT id FROM webhooks_delivery WHERE id = ANY(%s) FOR UPDATE", [locked]
                )
        delivery_sql.due_deliveries_compiled.cache_clear()
        by_querysets = claim(endpoint, lease_id, precompiled=False, monkeypatch=monkeypatch)
        precompiled = claim(endpoint, lease_id, precompiled=True, monkeypatch=monkeypatch)
    finally:
        other.close()

    assert precompiled == by_querysets
    # And the outcome is the one intended, not merely the same:
    claimed, rows = precompiled
    taken = [] if claimed is None else [d[0]["id"] for d in claimed["deliveries"]]
    expected = {
        "all due and free": ids[:size],
        "oldest first, not due left out": [ids[0], ids[3], ids[1]],
        "endpoint inactive": [],
        "cap reached by attempts in flight": [],
        "one slot left (the last)": ids[1:],
        "in flight with an expired lease counts for nothing": ids,
        "rows locked by another claim skipped": [ids[1], ids[3], ids[4]],
        "leased to the message by the sweep": [ids[0], ids[1], ids[2], ids[4]],
        "the sweep's lease, claimed without it": [ids[0], ids[3], ids[4]],
        "nothing due": [],
    }[name][:size]
    assert taken == expected
    if claimed is not None:
        assert delivery_sql.due_deliveries_compiled.cache_info().currsize == 1  # it did run
        first, *others = claimed["deliveries"]
        assert first[0]["in_flight"] and first[0]["lease_id"] == "batch" and first[1]
        assert first[3] == now and first[4]
        assert [row[0] for row in rows if row[3] and row[4] == "batch"] == taken[:1]
        assert all(d[0]["lease_id"] == "batch" for d in others)
        assert claimed["full"] == (len(taken) == size)
        assert claimed["took_last_slot"] == (name == "one slot left (the last)")
        leased = {row[0]: row for row in rows if row[4] == "batch"}
        assert sorted(leased) == sorted(taken)
        assert leased[taken[0]][3] and leased[taken[0]][2] == 1  # in flight, counted
    if name in ("endpoint inactive", "cap reached by attempts in flight"):
        # The sweep's lease on what the claim could not take is given back.
        assert not any(row[4] == SWEEP for row in rows)
