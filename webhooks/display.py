"""What the panel shows of webhooks, for people: an endpoint's health, its attempt log
(filtered), the Brasília date-times people type ("25/11/2026 14:30"), and a delivery attempt's
error in the reader's language."""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.i18n import stored_text_for_people
from webhooks.models import Delivery, DeliveryAttempt, WebhookEndpoint

HEALTH_WINDOW = timedelta(hours=24)
ATTEMPTS_PER_PAGE = 50
TYPED_FORMAT = "%d/%m/%Y %H:%M"  # dd/mm/aaaa hh:mm, in Brasília time (both languages)


@dataclass(frozen=True)
class Health:
    active: bool
    # Why it is disabled: "failures" (deactivated after consecutive failed attempts) or
    # "paused" (a user deactivated it); "" when active.
    reason: str
    since: datetime | None  # when it was disabled
    attempts_24h: int
    succeeded_24h: int
    last_error: DeliveryAttempt | None
    next_retry: datetime | None
    waiting: int  # deliveries still to be sent (or waiting for a reactivation)

    @property
    def success_rate_24h(self) -> float | None:
        if not self.attempts_24h:
            return None
        return round(100 * self.succeeded_24h / self.attempts_24h, 2)


def endpoint_attempts(endpoint: WebhookEndpoint) -> QuerySet[DeliveryAttempt]:
    return DeliveryAttempt.objects.filter(delivery__endpoint=endpoint)


def endpoint_health(endpoint: WebhookEndpoint, *, now: datetime | None = None) -> Health:
    """Tests are left out of the success rate (they count toward nothing); the last error may
    be a test's, labelled as such."""
    now = now or timezone.now()
    counts = (
        endpoint_attempts(endpoint)
        .filter(attempted_at__gte=now - HEALTH_WINDOW, delivery__is_test=False)
        .aggregate(total=Count("pk"), ok=Count("pk", filter=Q(succeeded=True)))
    )
    last_error = (
        endpoint_attempts(endpoint)
        .filter(succeeded=False)
        .select_related("delivery__event")
        .order_by("-attempted_at", "-pk")
        .first()
    )
    pending = Delivery.objects.filter(endpoint=endpoint, status=Delivery.Status.PENDING)
    next_retry = (
        pending.filter(next_attempt_at__isnull=False, is_test=False)
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )
    if endpoint.active:
        reason, since = "", None
    elif endpoint.deactivated_at:
        reason, since = "failures", endpoint.deactivated_at
    else:
        reason, since = "paused", endpoint.paused_at
    return Health(
        active=endpoint.active,
        reason=reason,
        since=since,
        attempts_24h=counts["total"],
        succeeded_24h=counts["ok"],
        last_error=last_error,
        next_retry=next_retry,
        waiting=pending.count(),
    )


class InvalidTypedTime(ValueError):
    pass


def parse_brasilia(text: str) -> datetime:
    """ "25/11/2026 14:30" in São Paulo time, as an aware datetime. Raises InvalidTypedTime."""
    try:
        naive = datetime.strptime(text.strip(), TYPED_FORMAT)
    except (ValueError, AttributeError):
        raise InvalidTypedTime(text) from None
    return naive.replace(tzinfo=ZoneInfo(settings.BUSINESS_TIME_ZONE))


def format_brasilia(value: datetime) -> str:
    return timezone.localtime(value, ZoneInfo(settings.BUSINESS_TIME_ZONE)).strftime(TYPED_FORMAT)


@dataclass
class AttemptFilters:
    status: str = ""  # "succeeded", "failed", "test"
    event_type: str = ""
    since: datetime | None = None
    until: datetime | None = None
    errors: tuple[str, ...] = ()


def read_filters(params) -> AttemptFilters:
    filters = AttemptFilters(
        status=params.get("status", "") if params.get("status") in STATUSES else "",
        event_type=params.get("type", "").strip(),
    )
    errors = []
    for name in ("since", "until"):
        text = params.get(name, "").strip()
        if text:
            try:
                setattr(filters, name, parse_brasilia(text))
            except InvalidTypedTime:
                errors.append(name)
    filters.errors = tuple(errors)
    return filters


STATUSES = ("succeeded", "failed", "test")


def filter_attempts(endpoint: WebhookEndpoint, filters: AttemptFilters) -> QuerySet:
    """The endpoint's attempts, newest first, filtered."""
    attempts = endpoint_attempts(endpoint).select_related("delivery__event")
    if filters.status == "succeeded":
        attempts = attempts.filter(succeeded=True, delivery__is_test=False)
    elif filters.status == "failed":
        attempts = attempts.filter(succeeded=False, delivery__is_test=False)
    elif filters.status == "test":
        attempts = attempts.filter(delivery__is_test=True)
    if filters.event_type:
        attempts = attempts.filter(delivery__event__type=filters.event_type)
    if filters.since:
        attempts = attempts.filter(attempted_at__gte=filters.since)
    if filters.until:
        attempts = attempts.filter(attempted_at__lt=filters.until + timedelta(minutes=1))
    return attempts.order_by("-attempted_at", "-pk")


# --- Attempt errors -----------------------------------------------------------------------------

# A delivery attempt's error for people. It is stored as written when the attempt ended, in
# English (webhooks/services/deliveries.py); the panel shows the known ones in the reader's
# language, and anything else as stored.
_KNOWN = [
    (
        re.compile(r"HTTP (?P<status>\d{3}): redirects are not followed"),
        gettext_noop("HTTP %(status)s: redirects are not followed"),
    ),
    (
        re.compile(r"Refused: the URL resolves to a private or reserved address"),
        gettext_noop("Refused: the URL resolves to a private or reserved address"),
    ),
    (
        re.compile(r"No answer within (?P<seconds>[\d.]+) s"),
        gettext_noop("No answer within %(seconds)s s"),
    ),
    (
        re.compile(r"TLS error: the certificate could not be verified"),
        gettext_noop("TLS error: the certificate could not be verified"),
    ),
    (
        re.compile(r"Connection failed: (?P<kind>\w+)"),
        gettext_noop("Connection failed: %(kind)s"),
    ),
]


def attempt_error_for_people(stored: str) -> str:
    return stored_text_for_people(stored, _KNOWN)
