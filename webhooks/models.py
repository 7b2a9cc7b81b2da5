from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from core.ids import PrefixedIdField


class EventType(models.TextChoices):
    BOOKING_CREATED = "booking.created"
    BOOKING_CONFIRMED = "booking.confirmed"
    BOOKING_TICKETED = "booking.ticketed"
    BOOKING_CANCELLED = "booking.cancelled"
    BOOKING_EXPIRED = "booking.expired"
    BOOKING_FAILED = "booking.failed"
    BOOKING_UPDATED = "booking.updated"
    WALLET_CREDIT = "wallet.credit"
    WALLET_DEBIT = "wallet.debit"
    WALLET_RECHARGE_PENDING = "wallet.recharge.pending"
    WALLET_RECHARGE_COMPLETED = "wallet.recharge.completed"
    WALLET_RECHARGE_EXPIRED = "wallet.recharge.expired"
    WALLET_LOW_BALANCE = "wallet.low_balance"
    INTEGRATION_CONNECTED = "integration.connected"
    INTEGRATION_DISCONNECTED = "integration.disconnected"
    API_KEY_CREATED = "api_key.created"
    API_KEY_REVOKED = "api_key.revoked"


class Event(models.Model):
    """A domain event, written in the same transaction as the change it reports (the outbox).
    Rows are never updated; deliveries to webhook endpoints are made from them."""

    id = PrefixedIdField(prefix="evt")
    team = models.ForeignKey("agencies.Team", on_delete=models.CASCADE, related_name="events")
    live_mode = models.BooleanField()
    type = models.CharField(max_length=40, choices=EventType.choices)
    api_version = models.CharField(max_length=10)
    data_object = models.JSONField(encoder=DjangoJSONEncoder)
    previous_attributes = models.JSONField(encoder=DjangoJSONEncoder, default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["team", "live_mode", "-created_at"])]

    def __str__(self):
        return f"{self.type} {self.id}"
