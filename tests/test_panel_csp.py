"""The panel's Content-Security-Policy (django-csp, config/settings/base.py): its pages carry
it, the API's answers do not, and a real Chromium reports no violation on the pages an agency
user and support go through (the admin's and ours: no inline script, no inline style)."""

import pytest
from django.test import Client as BrowserClient
from django.urls import reverse

from tests.kit.browsers import console_errors, log_in, needs_chromium, open_page
from tests.scenarios import agency_with_a_day_of_work


@pytest.mark.django_db
def test_panel_pages_carry_the_policy_and_the_api_does_not(team):
    panel = BrowserClient().get(reverse("admin:login"))
    policy = panel["Content-Security-Policy"]
    for directive in (
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ):
        assert directive in policy
    assert "unsafe-inline" not in policy
    api = BrowserClient().get("/api/v1/wallet/balance")
    assert "Content-Security-Policy" not in api


@needs_chromium
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_sandbox")
def test_the_panels_pages_break_no_rule_of_the_policy(live_server, browser_pt_br):
    from selenium.webdriver.support.ui import WebDriverWait

    from bookings.models import Booking

    made = agency_with_a_day_of_work()
    wait = WebDriverWait(browser_pt_br, 20)
    log_in(live_server, browser_pt_br, wait)
    booking = Booking.objects.filter(team=made.team).first()
    pages = [
        reverse("admin:index"),
        reverse("admin:bookings_booking_changelist"),
        reverse("admin:bookings_booking_change", args=[booking.pk]),
        reverse("admin:wallet_recharge_changelist"),
        reverse("admin:wallet_recharge_add"),
        reverse("admin:agencies_apikey_add"),
        reverse("admin:agencies_team_change", args=[made.team.pk]),
        reverse("admin:webhooks_webhookendpoint_changelist"),
    ]
    console_errors(browser_pt_br)  # what the login left
    for url in pages:
        open_page(live_server, browser_pt_br, wait, url)
        violations = [e for e in console_errors(browser_pt_br) if "Content Security Policy" in e]
        assert violations == [], url
