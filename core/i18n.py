"""The language and time zone of what is rendered outside a request (e-mails from tasks)."""

from contextlib import contextmanager

from django.conf import settings
from django.utils import timezone, translation


@contextmanager
def people_locale(language: str | None = None):
    """Render for people: Portuguese by default (a team's own language is a later issue) and
    São Paulo time, whatever the worker or the calling request had active."""
    with (
        translation.override(language or settings.LANGUAGE_CODE),
        timezone.override(settings.TIME_ZONE),
    ):
        yield
