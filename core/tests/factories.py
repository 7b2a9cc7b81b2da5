"""Factories of core's models. Their rows belong to a team, which core names only by its
label ("agencies.Team" in the models, a dotted path here): core imports no app."""

import factory
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone
from factory.django import DjangoModelFactory

from core.models import AuditEntry, IdempotencyKey


class IdempotencyKeyFactory(DjangoModelFactory):
    """A key claimed by a request still in flight (no response stored yet)."""

    class Meta:
        model = IdempotencyKey

    team = factory.SubFactory("agencies.tests.factories.TeamFactory")
    live_mode = True
    key = factory.Sequence(lambda n: f"order-{n:05d}")
    request_fingerprint = "0" * 64  # a SHA-256 in hex
    created_at = factory.LazyFunction(timezone.now)


class AuditEntryFactory(DjangoModelFactory):
    """A panel change to a team, as django-auditlog records it."""

    class Meta:
        model = AuditEntry

    team = factory.SubFactory("agencies.tests.factories.TeamFactory")
    content_type = factory.LazyFunction(lambda: ContentType.objects.get(model="team"))
    object_pk = factory.LazyAttribute(lambda entry: str(entry.team.pk))
    object_repr = factory.LazyAttribute(lambda entry: entry.team.name)
    action = AuditEntry.Action.UPDATE
    changes_text = ""
