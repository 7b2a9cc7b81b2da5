from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _("Webhooks")
    # The panel actions of the webhooks' admin, as their audit entries read (core/audit.py).
    audit_actions = {
        "webhook_deactivate": _("Deactivated webhook"),
        "webhook_reactivate": _("Reactivated webhook"),
        "webhook_test": _("Sent a test event"),
        "webhook_recover": _("Recovered events"),
        "webhook_rotate_secret": _("Rolled the signing secret"),
        "webhook_rotate_secret_api": _("Rolled the signing secret through the API"),
        "delivery_redeliver": _("Redelivered event"),
    }

    def ready(self) -> None:
        from webhooks.services import pool

        pool.connect()  # the worker's shutdown stops this process's delivery pool
