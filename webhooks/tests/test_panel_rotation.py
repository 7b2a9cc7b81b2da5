"""Rolling a webhook's secret in the panel: a confirmation page, the new secret shown once (in
Portuguese), the endpoint's page telling until when the previous one signs, the history entry
naming who did it; bad hours asked again; another team's endpoint not found."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.audit import entries_for
from tests.kit.factories import SECRET, make_endpoint
from tests.kit.panel import browser_for
from webhooks.display import format_brasilia
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


def rotate_page(endpoint):
    return reverse("admin:webhooks_webhookendpoint_rotate_secret", args=[endpoint.pk])


def test_the_confirmation_page_asks_how_long_the_previous_secret_signs(
    team, team_owner, https_receiver
):
    endpoint = make_endpoint(team, https_receiver.url)

    html = browser_for(team_owner).get(rotate_page(endpoint)).content.decode()

    assert "Trocar o segredo de assinatura" in html
    assert 'name="hours" value="24"' in html
    endpoint.refresh_from_db()
    assert endpoint.secret == SECRET  # a GET changes nothing
    page = reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    assert rotate_page(endpoint) in browser_for(team_owner).get(page).content.decode()


def test_confirming_shows_the_new_secret_once_and_records_who_rolled_it(
    team, team_owner, https_receiver
):
    endpoint = make_endpoint(team, https_receiver.url)
    browser = browser_for(team_owner)

    response = browser.post(rotate_page(endpoint), {"hours": "48"})

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]  # the secret is on this answer only
    endpoint.refresh_from_db()
    html = response.content.decode()
    assert endpoint.secret != SECRET and endpoint.secret in html
    assert "Copie agora: este segredo não será mostrado novamente." in html
    until = format_brasilia(endpoint.previous_secret_expires_at)
    assert f"continua assinando as entregas até {until} (horário de Brasília)" in html
    assert endpoint.previous_secret == SECRET
    assert endpoint.previous_secret_expires_at == endpoint.secret_rotated_at + timedelta(hours=48)
    # The endpoint's page tells the overlap, never a secret.
    page = browser.get(reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]))
    page_html = page.content.decode()
    assert f"também assina as entregas até {until}" in page_html
    assert endpoint.secret not in page_html and SECRET not in page_html
    [entry] = [e for e in entries_for(endpoint) if "action" in e.additional_data]
    assert entry.actor == team_owner
    assert entry.additional_data["action"] == "webhook_rotate_secret"
    assert entry.additional_data["summary"] == "O segredo anterior continua assinando por 48 horas."
    assert endpoint.secret not in str(entry.changes) and SECRET not in str(entry.changes)


def test_zero_hours_stops_the_previous_secret_at_once(team, team_owner, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url)

    html = browser_for(team_owner).post(rotate_page(endpoint), {"hours": "0"}).content.decode()

    assert "O segredo anterior não assina mais as entregas." in html
    endpoint.refresh_from_db()
    assert endpoint.previous_secret is None and endpoint.previous_secret_expires_at is None


@pytest.mark.parametrize("typed", ["", "abc", "169", "-1", "1.5"])
def test_hours_out_of_bounds_are_asked_again_and_nothing_changes(
    team, team_owner, https_receiver, typed
):
    endpoint = make_endpoint(team, https_receiver.url)

    response = browser_for(team_owner).post(rotate_page(endpoint), {"hours": typed})

    assert response.status_code == 400
    assert "Digite um número inteiro de horas, de 0 a 168." in response.content.decode()
    endpoint.refresh_from_db()
    assert (
        endpoint.secret == SECRET
        and not entries_for(endpoint).filter(additional_data__has_key="action").exists()
    )


def test_another_teams_endpoint_cannot_be_rolled(team_owner, other_team, https_receiver):
    theirs = make_endpoint(other_team, https_receiver.url)

    for method in ("get", "post"):
        response = getattr(browser_for(team_owner), method)(rotate_page(theirs), {"hours": "1"})
        assert response.status_code == 404
    assert WebhookEndpoint.objects.get(pk=theirs.pk).secret == SECRET


def test_an_expired_overlap_is_not_shown(team, team_owner, https_receiver):
    endpoint = make_endpoint(
        team,
        https_receiver.url,
        previous_secret="whsec_old",
        previous_secret_expires_at=timezone.now() - timedelta(minutes=1),
    )
    page = reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    assert "também assina as entregas" not in browser_for(team_owner).get(page).content.decode()
