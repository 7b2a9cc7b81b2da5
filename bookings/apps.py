from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BookingsConfig(AppConfig):
    name = "bookings"
    verbose_name = _("Bookings")
    # The panel actions of bookings/admin.py, as their audit entries read (core/audit.py).
    audit_actions = {
        "booking_cancel": _("Cancelled booking"),
    }
