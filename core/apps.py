from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Core"

    def ready(self):
        from core import schema  # noqa: F401 - registers the OpenAPI Bearer scheme
