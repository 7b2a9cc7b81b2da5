from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _
from encrypted_fields.fields import EncryptedTextField

from api.versions import latest_version
from core.commit_order import CurrentTransactionId
from core.ids import PrefixedIdField


class EventType(models.TextChoices):
    BOOKING_CREATED = "booking.created"
    BOOKING_CONFIRMED = "booking.confirmed"
    BOOKING_TICKETED = "booking.ticketed"
    BOOKING_CANCELLED = "booking.cancelled"
    BOOKING_EXPIRED = "booking.expired"
    BOOKING_FAILED = "booking.failed"
    BOOKING_UPDATED = "booking.updated"
    BOOKING_AIRLINE_CHANGE_DETECTED = "booking.airline_change_detected"
    WALLET_CREDIT = "wallet.credit"
    WALLET_DEBIT = "wallet.debit"
    WALLET_RECHARGE_PENDING = "wallet.recharge.pending"
    WALLET_RECHARGE_COMPLETED = "wallet.recharge.completed"
    WALLET_RECHARGE_EXPIRED = "wallet.recharge.expired"
    WALLET_LOW_BALANCE = "wallet.low_balance"
    WALLET_REVERSAL = "wallet.reversal"
    WALLET_WITHDRAWAL_CREATED = "wallet.withdrawal.created"
    WALLET_WITHDRAWAL_COMPLETED = "wallet.withdrawal.completed"
    WALLET_WITHDRAWAL_FAILED = "wallet.withdrawal.failed"
    INTEGRATION_CONNECTED = "integration.connected"
    INTEGRATION_DISCONNECTED = "integration.disconnected"
    API_KEY_CREATED = "api_key.created"
    API_KEY_REVOKED = "api_key.revoked"
    # Sent only by the panel's "send a test event", to one endpoint; not subscribable.
    WEBHOOK_TEST = "webhook.test"


SUBSCRIBABLE_EVENT_TYPES = frozenset(EventType.values) - {EventType.WEBHOOK_TEST}


class Event(models.Model):
    """A domain event, written in the same transaction as the change it reports (the outbox).
    Rows are never updated; deliveries to webhook endpoints are made from them."""

    id = PrefixedIdField(prefix="evt")
    team = models.ForeignKey(
        "agencies.Team", on_delete=models.CASCADE, related_name="events", verbose_name=_("team")
    )
    live_mode = models.BooleanField(_("live mode"))
    type = models.CharField(_("type"), max_length=40, choices=EventType.choices)
    api_version = models.CharField(_("API version"), max_length=10)
    data_object = models.JSONField(_("data"), encoder=DjangoJSONEncoder)
    previous_attributes = models.JSONField(
        _("previous attributes"), encoder=DjangoJSONEncoder, default=dict, blank=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    # The transaction that recorded it (PostgreSQL's; 0 elsewhere): the events list's order is
    # (xact_id, created_at, id), which an event committing late cannot enter behind a reader
    # (core/commit_order.py, docs/webhooks.md "Reading events").
    xact_id = models.BigIntegerField(
        _("database transaction"), db_default=CurrentTransactionId(), editable=False
    )

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["team", "live_mode", "-created_at"]),
            models.Index(
                fields=["team", "live_mode", "xact_id", "created_at", "id"], name="event_list_order"
            ),
        ]

    def __str__(self):
        return f"{self.type} {self.id}"


class WebhookEndpoint(models.Model):
    """An agency's HTTPS receiver for the events of one mode (test or live)."""

    id = PrefixedIdField(prefix="wh")
    team = models.ForeignKey(
        "agencies.Team", on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("team")
    )
    live_mode = models.BooleanField(_("live mode"))
    url = models.CharField(_("URL"), max_length=2048)
    events = models.JSONField(_("events"), default=list, help_text=_("Subscribed event types."))
    secret = EncryptedTextField(
        _("secret"), help_text=_("Signing secret; stored encrypted, shown once.")
    )
    # A rolled secret's predecessor, still signing (X-Service-Signature-Previous) until
    # `previous_secret_expires_at`; compared to the time of each attempt, and dropped by beat.
    previous_secret = EncryptedTextField(
        _("previous secret"),
        null=True,
        blank=True,
        help_text=_("The secret before the last rotation, while it still signs; encrypted."),
    )
    previous_secret_expires_at = models.DateTimeField(
        _("previous secret expires at"), null=True, blank=True
    )
    secret_rotated_at = models.DateTimeField(_("secret rotated at"), null=True, blank=True)
    active = models.BooleanField(_("active"), default=True)
    consecutive_failures = models.PositiveIntegerField(_("consecutive failures"), default=0)
    deactivated_at = models.DateTimeField(
        _("deactivated at"),
        null=True,
        blank=True,
        help_text=_("Set when deactivated after consecutive failures."),
    )
    alert_sent_at = models.DateTimeField(_("alert sent at"), null=True, blank=True)
    reactivated_at = models.DateTimeField(
        _("reactivated at"),
        null=True,
        blank=True,
        help_text=_("Failures of attempts made before this moment no longer count."),
    )
    last_deactivated_at = models.DateTimeField(
        _("last deactivated at"),
        null=True,
        blank=True,
        help_text=_("Kept after a reactivation: where the events it missed begin."),
    )
    paused_at = models.DateTimeField(
        _("paused at"), null=True, blank=True, help_text=_("Set when a user deactivated it.")
    )
    total_deliveries = models.PositiveIntegerField(
        _("attempts"), default=0, help_text=_("Attempts made.")
    )
    failed_deliveries = models.PositiveIntegerField(
        _("failed attempts"), default=0, help_text=_("Attempts failed.")
    )
    last_triggered_at = models.DateTimeField(_("last sent at"), null=True, blank=True)
    # The version its deliveries are rendered in (api/versions.py): set at creation, the team's
    # pin unless the API request names another.
    api_version = models.CharField(
        _("API version"),
        max_length=10,
        default=latest_version,
        help_text=_("The API version its deliveries are rendered in."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "live_mode", "url"], name="one_webhook_per_url_and_mode"
            )
        ]
        indexes = [models.Index(fields=["team", "live_mode", "active"])]

    def __str__(self):
        return self.url

    def previous_secret_at(self, now) -> str | None:
        """The previous secret if it still signs at `now`, else None."""
        expires = self.previous_secret_expires_at
        if self.previous_secret and expires is not None and now < expires:
            return self.previous_secret
        return None

    def get_additional_data(self):
        return {"team_id": self.team_id}  # the team of its audit entries (django-auditlog)

    @property
    def success_rate(self) -> float:
        """Share of attempts answered with 2xx, in percent (100.0 before the first attempt)."""
        if not self.total_deliveries:
            return 100.0
        succeeded = self.total_deliveries - self.failed_deliveries
        return round(100 * succeeded / self.total_deliveries, 2)


class Delivery(models.Model):
    """One event for one endpoint: the outbox row. Retry state lives here, never in the queue:
    `next_attempt_at` is when the next attempt is due, and `leased_until` marks a delivery a
    worker (or the sweep's dispatch) has in hand, so two workers never send it at once."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")

    id = models.BigAutoField(primary_key=True)
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("event")
    )
    endpoint = models.ForeignKey(
        WebhookEndpoint,
        on_delete=models.CASCADE,
        related_name="deliveries",
        verbose_name=_("webhook"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    attempt_count = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    leased_until = models.DateTimeField(_("leased until"), null=True, blank=True)
    lease_id = models.CharField(_("lease"), max_length=32, blank=True, default="")
    # The lease is a worker's attempt being sent (not the sweep's dispatch lease): what the cap
    # of concurrent attempts per endpoint counts, while `leased_until` is still ahead.
    in_flight = models.BooleanField(
        _("being sent"), default=False, db_default=False
    )  # raw INSERTs too
    # A panel test: one attempt, never retried, never counted toward deactivation.
    is_test = models.BooleanField(_("test"), default=False, db_default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["event", "endpoint"], name="one_delivery_per_endpoint")
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status="pending"),
                name="delivery_due",
            ),
            # Counting an endpoint's attempts in flight reads a handful of rows, not its history.
            models.Index(
                fields=["endpoint"], condition=models.Q(in_flight=True), name="delivery_in_flight"
            ),
            # The deliveries given up lately, counted at each metrics scrape (docs/operations.md).
            models.Index(
                fields=["created_at"], condition=models.Q(status="failed"), name="delivery_failed"
            ),
        ]

    def __str__(self):
        return f"{self.event_id} → {self.endpoint_id}"


class DeliveryAttempt(models.Model):
    delivery = models.ForeignKey(
        Delivery, on_delete=models.CASCADE, related_name="attempts", verbose_name=_("delivery")
    )
    number = models.PositiveSmallIntegerField(_("attempt"))
    attempted_at = models.DateTimeField(_("attempted at"))
    succeeded = models.BooleanField(_("succeeded"))
    status_code = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"))
    error = models.CharField(_("error"), max_length=200, blank=True)
    response_excerpt = models.TextField(_("response excerpt"), blank=True)
    # The headers sent (signature and timestamp differ on every attempt); the body is the
    # event's payload, rebuilt from the event (rows never change).
    request_headers = models.JSONField(_("request headers"), default=dict, blank=True)

    class Meta:
        verbose_name = _("attempt")
        verbose_name_plural = _("attempts")
        ordering = ["attempted_at"]

    def __str__(self):
        outcome = self.status_code or self.error
        return _("attempt %(number)s: %(outcome)s") % {"number": self.number, "outcome": outcome}
