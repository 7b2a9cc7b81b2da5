"""Ledger descriptions for people. A movement's `description` is stored as written when it
happened, in English (the API returns it as it is); the panel, the statement and its files
show the known ones in the reader's language, and anything else as stored."""

import re

from django.utils.translation import gettext_noop

from core.i18n import stored_text_for_people

# The stored English (as bookings/services/ and wallet/services/recharges.py write it) and
# its message for people; the pattern's groups fill the placeholders.
_KNOWN = [
    (
        re.compile(r"Booking (?P<booking>\S+) \((?P<airline>[^)]*)\)"),
        gettext_noop("Booking %(booking)s (%(airline)s)"),
    ),
    (
        re.compile(r"Refund of booking (?P<booking>\S+): issuance failed"),
        gettext_noop("Refund of booking %(booking)s: issuance failed"),
    ),
    (
        re.compile(r"Refund of booking (?P<booking>\S+)"),
        gettext_noop("Refund of booking %(booking)s"),
    ),
    (
        re.compile(r"Recharge (?P<recharge>\S+) by (?P<method>.+)"),
        gettext_noop("Recharge %(recharge)s by %(method)s"),
    ),
]


def description_for_people(stored: str) -> str:
    return stored_text_for_people(stored, _KNOWN)
