"""A team chooses the language of its e-mails in its settings: Portuguese by default, English
available (docs/emails.md)."""

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from tests.kit.factories import make_endpoint
from tests.kit.panel import browser_for
from webhooks.emails import deactivation_alert_send

pytestmark = pytest.mark.django_db


def test_a_new_team_writes_its_emails_in_portuguese(team):
    assert team.language == "pt-br"


def test_an_agency_user_switches_its_emails_to_english_in_the_team_settings(team, team_owner):
    browser = browser_for(team_owner)
    url = reverse("admin:agencies_team_change", args=[team.pk])
    page = browser.get(url).content.decode()
    assert 'name="language"' in page and "Idioma dos e-mails" in page  # the panel's Portuguese
    assert '<option value="en">English</option>' in page
    posted = {
        "name": team.name,
        "markup_percent": "0",
        "fee": "0,00",
        "notification_email": "ops@alpha.example",
        "language": "en",
    }
    response = browser.post(url, posted)
    assert response.status_code == 302, response.content
    team.refresh_from_db()
    assert team.language == "en"

    endpoint = make_endpoint(team, "https://hooks.alpha.example/x", active=False)
    deactivation_alert_send(endpoint_id=endpoint.pk)
    [alert] = mail.outbox
    assert alert.subject == "Webhook deactivated after failed deliveries"
    assert alert.reply_to == [settings.SUPPORT_EMAIL_ADDRESS]  # the service's alert: support


def test_a_language_outside_the_choices_is_refused(team, team_owner):
    browser = browser_for(team_owner)
    url = reverse("admin:agencies_team_change", args=[team.pk])
    posted = {"name": team.name, "markup_percent": "0", "fee": "0,00", "language": "fr"}
    response = browser.post(url, posted)
    assert response.status_code == 200 and "language" in response.context["adminform"].form.errors
    team.refresh_from_db()
    assert team.language == "pt-br"
