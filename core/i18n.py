"""The language and time zone of what is rendered outside a request (e-mails from tasks)."""

import re
from collections.abc import Sequence
from contextlib import contextmanager
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext

SAO_PAULO = ZoneInfo(settings.BUSINESS_TIME_ZONE)


@contextmanager
def people_locale(language: str | None = None):
    """Render for people: in `language` (a team's; Portuguese by default) and
    São Paulo time, whatever the worker or the calling request had active."""
    with (
        translation.override(language or settings.LANGUAGE_CODE),
        timezone.override(settings.TIME_ZONE),
    ):
        yield


# Dates and times written for people, in the active language: "15 de janeiro de 2027, 07:35"
# or "15 January 2027, 07:35". A flight's times are the airport's local time as the airline
# gives them (naive, printed as they are); deadlines are instants shown in São Paulo time.
def date_for_people(value: date) -> str:
    language = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    if language == "pt":  # months are not capitalized in Portuguese, whatever Django's names
        return dateformat.format(value, r"j \d\e F \d\e Y").lower()
    return dateformat.format(value, "j F Y")


def datetime_for_people(value: datetime) -> str:
    """An aware datetime in the active time zone; a naive one (a local flight time) as it is."""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return f"{date_for_people(value)}, {value:%H:%M}"


def sao_paulo_time_for_people(value: datetime) -> str:
    """An instant (a deadline, a payment) in São Paulo time, labelled as such."""
    with timezone.override(SAO_PAULO):
        written = datetime_for_people(value)
    return gettext("%(when)s (Brasília time)") % {"when": written}


def stored_text_for_people(stored: str, known: Sequence[tuple[re.Pattern[str], str]]) -> str:
    """A text stored in English as it was written when it happened (the API returns it as it
    is: ledger descriptions, attempt errors, failure reasons). The first of the `known`
    patterns it matches gives its message in the active language, filled with the pattern's
    named groups; anything else is shown as stored."""
    for pattern, message in known:
        match = pattern.fullmatch(stored)
        if match:
            return gettext(message) % match.groupdict()
    return stored
