"""A failed booking's reason for people. It is stored as `<code>: <the supplier's message>` in
English (bookings/services/recording.py); the panel shows what the code means in the reader's
language (what was refunded is in the booking's money movements), and the stored text as it is
when the code is not one we know."""

import re

from django.utils.translation import gettext_noop

from core.i18n import stored_text_for_people

REASONS = {
    "issuance_failed": gettext_noop("The airline could not issue the tickets."),
    "tickets_not_issued": gettext_noop("The airline could not issue the tickets."),
    "supplier_unavailable": gettext_noop("The flight supplier was unavailable."),
    "supplier_error": gettext_noop("The flight supplier refused the order."),
    "timeout": gettext_noop("The flight supplier did not answer in time."),
    "offer_not_found": gettext_noop("The airline no longer has this offer."),
    "offer_expired": gettext_noop("The offer expired at the airline."),
    "payment_amount_mismatch": gettext_noop("The airline's price changed."),
    "invalid_passenger": gettext_noop("The airline refused the passengers' data."),
    "supplier_order_absent": gettext_noop("The flight supplier has no order for this booking."),
}


# Stored as "<code>: <the supplier's message>".
_KNOWN = [(re.compile(rf"{code}: .*", re.S), message) for code, message in REASONS.items()]


def failure_reason_for_people(stored: str) -> str:
    return stored_text_for_people(stored or "", _KNOWN)
