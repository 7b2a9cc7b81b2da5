"""The panel as the tests browse it without a browser."""

from django.test import Client


def browser_for(user, *, language: str | None = None) -> Client:
    """A Django test client logged into the panel as `user`, asking for `language` ("en") or,
    without one, shown the panel's default language (Brazilian Portuguese)."""
    browser = Client(headers={"accept-language": language} if language else None)
    browser.force_login(user)
    return browser
