from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class ApiConfig(AppConfig):
    """The API's plumbing (docs/architecture.md, "core at the bottom"): it builds on core and
    agencies (keys, teams); the apps' views build on it."""

    name = "api"
    label = "api"

    def ready(self):
        from api import schema  # noqa: F401 - registers the OpenAPI Bearer scheme
        from api.key_cache import keys_changed

        # Requests keep resolved keys and their teams per process (api/key_cache.py): any
        # change to either (a revocation, a new markup or fee) must reach every process.
        for model in ("ApiKey", "Team"):
            for signal in (post_save, post_delete):
                signal.connect(
                    keys_changed,
                    sender=f"agencies.{model}",
                    dispatch_uid=f"agencies.{model}.{signal is post_save}.keys_changed",
                )
