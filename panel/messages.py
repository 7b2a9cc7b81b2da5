"""API error messages that the panel also shows (an admin action's outcome). The API keeps the
spec's English; the panel shows them with `gettext(exc.message)`, so they are listed here for
`makemessages` to find. Nothing imports this module."""

from django.utils.translation import gettext_noop

PANEL_MESSAGES = [
    gettext_noop("An integration with this provider is already connected"),
    gettext_noop("Booking already cancelled"),
    gettext_noop("This booking can no longer be cancelled"),
    # Confirming a cancellation quote from the booking's cancel confirmation page.
    gettext_noop("The flight has departed"),
    gettext_noop("Cancellation not found"),
    gettext_noop("This cancellation quote has expired; ask for a new one"),
    gettext_noop("A newer cancellation quote exists for this booking; confirm that one"),
    gettext_noop(
        "A cancellation of this booking is being confirmed at the flight supplier, or its "
        "outcome is being checked with it: try again in a few minutes"
    ),
    gettext_noop(
        "The flight supplier has not confirmed the cancellation yet; we are checking with it "
        "(nothing was credited; the refund follows once it is known)"
    ),
    gettext_noop(
        "The flight supplier's cancellation quote cannot be settled automatically; contact support"
    ),
    gettext_noop(
        "The flight supplier has not confirmed this booking's outcome yet; we are checking "
        "with it: try again in a few minutes"
    ),
    gettext_noop("The flight supplier is unavailable; try again later"),
    gettext_noop("Only a pending recharge can be cancelled"),
    gettext_noop("Insufficient balance"),
    gettext_noop("Conflict"),
    # "Verify again" of a payment notification (support).
    gettext_noop("The payment provider is unavailable; try again later"),
    gettext_noop("Only a rejected notification can be verified again"),
    # Reactivating webhooks from their list (each is tested first).
    gettext_noop("The receiver did not accept the test event; the webhook stays deactivated"),
    # Names of third-party apps' pages in support's menu (django-axes, django-celery-beat ship
    # no Portuguese): Django merges every catalogue, so ours translates them.
    gettext_noop("Periodic Tasks"),
    gettext_noop("periodic task"),
    gettext_noop("periodic tasks"),
    gettext_noop("clocked"),
    gettext_noop("crontab"),
    gettext_noop("crontabs"),
    gettext_noop("interval"),
    gettext_noop("intervals"),
    gettext_noop("solar event"),
    gettext_noop("solar events"),
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
]
