"""The team's API version in the panel: shown on the team's page, upgraded by whom may change
the team's settings through a confirmation page, recorded in the audit log; never back."""

import pytest
from django.urls import reverse

from core.models import AuditEntry
from tests.kit import panel

pytestmark = pytest.mark.django_db

FIRST, LATEST = "2026-11-22", "2026-11-28"


def team_page(team) -> str:
    return reverse("admin:agencies_team_change", args=[team.pk])


def upgrade_page(team) -> str:
    return reverse("admin:agencies_team_api_version", args=[team.pk])


@pytest.fixture
def pinned_first(team):
    team.api_version = FIRST
    team.save()
    return team


def test_the_team_page_shows_the_version_and_offers_the_upgrade(pinned_first, team_owner):
    page = panel.browser_for(team_owner).get(team_page(pinned_first)).content.decode()

    assert '<span id="api-version">2026-11-22</span>' in page
    assert "Versão da API" in page
    assert f'href="{upgrade_page(pinned_first)}"' in page
    assert "Atualizar para 2026-11-28" in page


def test_on_the_latest_version_nothing_is_offered(team, team_owner):
    page = panel.browser_for(team_owner).get(team_page(team)).content.decode()

    assert '<span id="api-version">2026-11-28</span> (a mais recente)' in page
    assert upgrade_page(team) not in page


def test_on_the_latest_version_the_upgrade_page_leads_back_to_the_team(team, team_owner):
    response = panel.browser_for(team_owner).get(upgrade_page(team))
    assert response.status_code == 302 and response["Location"] == team_page(team)


def test_the_confirmation_says_what_changes_and_changes_nothing(pinned_first, team_owner):
    response = panel.browser_for(team_owner).get(upgrade_page(pinned_first))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Atualizar a versão da API de" in page
    assert "total_currency" in page and "2026-11-28" in page
    assert "Sim, atualizar para 2026-11-28" in page
    pinned_first.refresh_from_db()
    assert pinned_first.api_version == FIRST


def test_confirming_upgrades_the_team_and_records_it(pinned_first, team_owner, team_keys):
    browser = panel.browser_for(team_owner)
    before = AuditEntry.objects.count()

    response = browser.post(upgrade_page(pinned_first), {"version": LATEST})

    assert response.status_code == 302 and response["Location"] == team_page(pinned_first)
    pinned_first.refresh_from_db()
    assert pinned_first.api_version == LATEST
    assert AuditEntry.objects.count() == before + 1
    entry = AuditEntry.objects.order_by("-pk").first()
    assert entry.actor == team_owner
    assert entry.additional_data["action"] == "api_version_upgrade"
    assert entry.changes["api_version"] == [FIRST, LATEST]
    followed = browser.get(team_page(pinned_first)).content.decode()
    assert "A versão da API da equipe agora é 2026-11-28." in followed
    # The team's keys are answered in it at once (the keys' cache follows the team).
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    assert client.get("/api/v1/wallet/balance")["Api-Version"] == LATEST


@pytest.mark.parametrize("version", [FIRST, "2026-11-01", "2027-01-01", ""])
def test_never_back_nor_to_an_unknown_version(team, team_owner, version):
    before = AuditEntry.objects.count()
    browser = panel.browser_for(team_owner)

    response = browser.post(upgrade_page(team), {"version": version}, follow=True)

    team.refresh_from_db()
    assert team.api_version == LATEST
    assert AuditEntry.objects.count() == before
    assert "A equipe já está nesta versão da API ou numa posterior." in response.content.decode()


def test_another_teams_user_cannot_see_nor_upgrade_it(pinned_first, other_team_owner):
    browser = panel.browser_for(other_team_owner)

    assert browser.get(upgrade_page(pinned_first)).status_code == 404
    assert browser.post(upgrade_page(pinned_first), {"version": LATEST}).status_code == 404
    pinned_first.refresh_from_db()
    assert pinned_first.api_version == FIRST
