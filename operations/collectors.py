"""Gauges read at each scrape (docs/operations.md): the work waiting in the database and in
the broker, and when the ledger was last found clean. Each query is a count on an index,
capped at COUNT_CAP rows, so a scrape costs the same however large the backlog; a gauge at the
cap means "at least". The definitions are the apps' own: support's worklist in the panel
(`dashboard.display`), `bookings_needing_attention`, the delivery sweep's "due"."""

import functools
import logging
import time
from collections.abc import Callable, Iterator
from datetime import datetime

import redis
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from bookings.selectors import bookings_needing_attention
from dashboard.display import (
    ATTENTION_LOOKBACK,
    disabled_webhooks,
    failed_bookings,
    unknown_outcome_bookings,
)
from wallet.models import Recharge
from wallet.services import last_clean_ledger_check
from webhooks.models import Delivery

logger = logging.getLogger(__name__)

COUNT_CAP = 100_000
MODES = {"live": True, "test": False}
# kombu's Redis transport keeps a queue's messages of priority 3, 6 and 9 in lists of their own
# (the queue's name, this separator, the priority); priority 0 in the queue's name itself.
KOMBU_PRIORITY_SEPARATOR = "\x06\x16"
KOMBU_PRIORITIES = ("3", "6", "9")


def capped_count(queryset: QuerySet) -> int:
    return queryset.order_by()[:COUNT_CAP].count()


class OperationsCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        up = GaugeMetricFamily(
            "agency_metrics_source_up",
            "Whether the scrape could read a source of its gauges (database, broker).",
            labels=["source"],
        )
        try:
            families = list(_database_gauges(timezone.now()))
        except Exception:  # the database is down: the recorded series still answer
            logger.warning("Metrics: the database gauges failed", exc_info=True)
            families = []
        up.add_metric(["database"], 1 if families else 0)
        yield from families
        depths = broker_queue_depths()
        if depths is not None:
            up.add_metric(["broker"], 1 if depths else 0)
            if depths:
                queues = GaugeMetricFamily(
                    "agency_celery_queue_messages",
                    "Messages waiting in each Celery queue of the Redis broker.",
                    labels=["queue"],
                )
                for queue, depth in depths.items():
                    queues.add_metric([queue], depth)
                yield queues
        yield up


def _per_mode(name: str, documentation: str, queryset_of: Callable[[bool], QuerySet]):
    family = GaugeMetricFamily(name, documentation, labels=["mode"])
    for mode, live_mode in MODES.items():
        family.add_metric([mode], capped_count(queryset_of(live_mode)))
    return family


def _database_gauges(now: datetime) -> Iterator[GaugeMetricFamily]:
    pending = Delivery.objects.filter(status=Delivery.Status.PENDING)
    yield GaugeMetricFamily(
        "agency_webhook_deliveries_due",
        "Webhook deliveries due (their next attempt's time has come) to active endpoints.",
        value=capped_count(pending.filter(next_attempt_at__lte=now, endpoint__active=True)),
    )
    yield GaugeMetricFamily(
        "agency_webhook_deliveries_in_flight",
        "Webhook attempts being sent now (a worker's lease still runs).",
        value=capped_count(Delivery.objects.filter(in_flight=True, leased_until__gt=now)),
    )
    yield GaugeMetricFamily(
        "agency_webhook_deliveries_failed",
        "Webhook deliveries given up (every retry failed), created in the last 7 days.",
        value=capped_count(
            Delivery.objects.filter(
                status=Delivery.Status.FAILED, created_at__gte=now - ATTENTION_LOOKBACK
            )
        ),
    )
    yield _per_mode(
        "agency_webhook_endpoints_deactivated",
        "Webhook endpoints disabled after consecutive failures, until reactivated.",
        lambda live_mode: disabled_webhooks(live_mode=live_mode),
    )
    yield _per_mode(
        "agency_recharges_pending",
        "Recharges (PIX, boleto) waiting for their payment.",
        lambda live_mode: Recharge.objects.filter(
            live_mode=live_mode, status=Recharge.Status.PENDING
        ),
    )
    yield _per_mode(
        "agency_bookings_needing_attention",
        "Bookings support must look at: supplier outcome unknown past the grace period, "
        "ticketing stuck, or left without their supplier order.",
        lambda live_mode: bookings_needing_attention(now=now).filter(live_mode=live_mode),
    )
    yield _per_mode(
        "agency_bookings_outcome_unknown",
        "Bookings whose supplier outcome is unknown (the reconcile job is asking).",
        lambda live_mode: unknown_outcome_bookings(live_mode=live_mode),
    )
    yield _per_mode(
        "agency_bookings_failed",
        "Bookings failed in the last 7 days.",
        lambda live_mode: failed_bookings(live_mode=live_mode, since=now - ATTENTION_LOOKBACK),
    )
    last_clean = last_clean_ledger_check()
    if last_clean is not None:
        yield GaugeMetricFamily(
            "agency_ledger_last_clean_check_timestamp_seconds",
            "When `check_ledger` last found every wallet consistent (Unix time).",
            value=last_clean.timestamp(),
        )
        yield GaugeMetricFamily(
            "agency_ledger_seconds_since_clean_check",
            "Seconds since `check_ledger` last found every wallet consistent.",
            value=max(0.0, time.time() - last_clean.timestamp()),
        )


def broker_queue_depths() -> dict[str, int] | None:
    """Messages waiting per queue of a Redis broker; None when the broker is not Redis (the
    embedded filesystem transport); {} when Redis did not answer."""
    client = _broker_client(settings.CELERY_BROKER_URL)
    if client is None:
        return None
    names = [queue.name for queue in settings.CELERY_TASK_QUEUES]
    try:
        with client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.llen(name)
                for priority in KOMBU_PRIORITIES:
                    pipe.llen(f"{name}{KOMBU_PRIORITY_SEPARATOR}{priority}")
            lengths = pipe.execute()
    except redis.RedisError:
        logger.warning("Metrics: the broker's queue lengths failed", exc_info=True)
        return {}
    per_queue = 1 + len(KOMBU_PRIORITIES)
    return {name: sum(lengths[i * per_queue : (i + 1) * per_queue]) for i, name in enumerate(names)}


@functools.cache
def _broker_client(url: str) -> redis.Redis | None:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    # A scrape must answer within Prometheus's timeout even when Redis does not.
    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
