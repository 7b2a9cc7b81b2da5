"""Helpers shared by the agencies' test modules (a plain module, not a test module)."""

from django.test import Client as BrowserClient


def browser_for(user):
    """A Django test client logged into the panel as `user`."""
    browser = BrowserClient()
    browser.force_login(user)
    return browser
