from django.apps import AppConfig


class CoreConfig(AppConfig):
    # The panel heads the audit entries (core.AuditEntry) with the app's name: "Core".
    name = "core"
