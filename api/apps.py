from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The API's plumbing (docs/architecture.md, "core at the bottom"): it builds on core only;
    the apps' views, and agencies' API-key authentication (api/modes.py), build on it."""

    name = "api"
    label = "api"

    def ready(self):
        from api import schema  # noqa: F401 - registers the OpenAPI Bearer scheme
