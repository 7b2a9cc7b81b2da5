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
        adding = self._state.adding
        super().save(*args, **kwargs)
        if adding:
            self._record_actor_role()

    def _record_actor_role(self) -> None:
        """The role an agency user had in their team when they acted ("actor_role"): roles
        change, the entry keeps the one that allowed the action. Written after the insert:
        auditlog's middleware sets a panel request's actor as the entry is saved (pre_save)."""
        actor = self.actor if self.actor_id else None
        role = getattr(actor, "team_role", "") if getattr(actor, "team_id", None) else ""
        if not role or self.actor_role:
            return
        self.additional_data = {**(self.additional_data or {}), "actor_role": role}  # type: ignore[has-type]  # auditlog's field
        type(self).objects.filter(pk=self.pk).update(additional_data=self.additional_data)

    @property
    def actor_role(self) -> str:
        return (self.additional_data or {}).get("actor_role", "")

    @property
    def panel_action(self) -> str:
        return (self.additional_data or {}).get("action", "")
