from django.db import models
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
