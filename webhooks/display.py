"""A delivery attempt's error for people. It is stored as written when the attempt ended, in
English (webhooks/services/deliveries.py); the panel shows the known ones in the reader's
language, and anything else as stored."""

import re

from django.utils.translation import gettext_noop

from core.i18n import stored_text_for_people

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
