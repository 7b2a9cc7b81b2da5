from auditlog.context import auditlog_value
from auditlog.models import AbstractLogEntry
from django.db import models
from django.utils.translation import gettext_lazy as _
from encrypted_fields.fields import EncryptedTextField


class IdempotencyKey(models.Model):
    """A client's `Idempotency-Key`, claimed before its request runs and completed with the
    response to replay. The unique constraint, not a check-then-insert, decides who owns a key."""

    team = models.ForeignKey("agencies.Team", on_delete=models.CASCADE)
    live_mode = models.BooleanField()
    key = models.CharField(max_length=255)
    request_fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    # Both empty while the first request with this key is still in flight. The body is JSON
    # text, encrypted: it may hold a secret shown once (a webhook's) or passengers' data.
    response_status = models.PositiveSmallIntegerField(null=True)
    response_body = EncryptedTextField(null=True)
    completed_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["team", "live_mode", "key"], name="idempotency_key_unique"
            )
        ]
        indexes = [models.Index(fields=["created_at"])]

    def __str__(self):
        return self.key


class AuditEntry(AbstractLogEntry):
    """django-auditlog's log entry (AUDITLOG_LOGENTRY_MODEL) with the team it concerns, so that an
    agency user's activity list is one indexed filter. Support-only records (periodic tasks,
    support users) have no team."""

    team = models.ForeignKey(
        "agencies.Team",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,  # an entry outlives what it describes
        verbose_name=_("team"),
    )

    class Meta(AbstractLogEntry.Meta):
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["team", "-timestamp"])]

    def save(self, *args, **kwargs):
        # Registered models give their team through get_additional_data (auditlog's hook).
        if self.team_id is None and self.additional_data:
            self.team_id = self.additional_data.get("team_id")
        self._record_actor_role()
        super().save(*args, **kwargs)

    def _record_actor_role(self) -> None:
        """The role an agency user had in their team when they acted ("actor_role"): roles
        change, the entry keeps the one that allowed the action. The actor is the entry's, or
        the request's (auditlog's middleware sets it only as the entry is saved)."""
        if self.pk is not None or self.actor_role:
            return
        actor = self.actor if self.actor_id else _request_actor()
        role = getattr(actor, "team_role", "") if getattr(actor, "team_id", None) else ""
        if role:
            self.additional_data = {**(self.additional_data or {}), "actor_role": role}  # type: ignore[has-type]  # auditlog's field

    @property
    def actor_role(self) -> str:
        return (self.additional_data or {}).get("actor_role", "")

    @property
    def panel_action(self) -> str:
        return (self.additional_data or {}).get("action", "")


def _request_actor():
    """The panel user auditlog's middleware records entries for, in this request (if any)."""
    try:
        return auditlog_value.get().get("actor")
    except LookupError:
        return None
