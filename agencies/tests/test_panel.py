"""The admin is a multi-tenant panel: an agency user sees and opens only their own team's rows;
support staff see all."""

import re

import pytest
from django.test import Client as BrowserClient
from django.urls import reverse

from agencies.models import ApiKey, Client, Integration, hash_secret
from agencies.services import integration_connect
from agencies.tests.factories import ClientFactory, SupportUserFactory
from tests.kit.panel import browser_for
from webhooks.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_teams(team, team_owner, other_team, other_team_owner):
    """The owners of two teams (`owner.team`), each team with a client and a Duffel account."""
    for made in (team, other_team):
        ClientFactory(team=made, full_name=f"Client of {made.name}")
        integration_connect(
            team=made,
            live_mode=True,
            provider="duffel",
            access_token=f"duffel_live_{made.name}",
        )
    return team_owner, other_team_owner


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def change_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


@pytest.mark.parametrize("model", [ApiKey, Client, Integration, Event])
def test_agency_user_lists_only_their_team(two_teams, model):
    mine, _ = two_teams
    page = browser_for(mine).get(changelist(model))
    assert page.status_code == 200
    visible = set(page.context["cl"].queryset.values_list("team", flat=True))
    assert visible == {mine.team.pk}


def test_agency_user_team_list_shows_only_their_team(two_teams):
    mine, theirs = two_teams
    page = browser_for(mine).get(reverse("admin:agencies_team_changelist"))
    assert list(page.context["cl"].queryset) == [mine.team]
    assert theirs.team.name not in page.content.decode()


@pytest.mark.parametrize("model", [ApiKey, Client, Integration])
def test_agency_user_cannot_open_another_teams_object(two_teams, model):
    mine, theirs = two_teams
    other_object = model.objects.filter(team=theirs.team).first()
    response = browser_for(mine).get(change_url(other_object))
    # The admin answers "doesn't exist" (a redirect to the index) rather than showing it.
    assert response.status_code in (302, 404)
    assert other_object.pk not in response.content.decode()


def test_agency_user_cannot_open_another_team(two_teams):
    mine, theirs = two_teams
    response = browser_for(mine).get(change_url(theirs.team))
    assert response.status_code in (302, 404)


def test_support_staff_see_every_team(two_teams):
    support = SupportUserFactory()
    page = browser_for(support).get(changelist(ApiKey))
    teams = set(page.context["cl"].queryset.values_list("team", flat=True))
    assert teams == {t.team.pk for t in two_teams}


def test_agency_user_creates_a_key_shown_once_for_their_team(two_teams):
    mine, _ = two_teams
    browser = browser_for(mine)
    form = browser.get(reverse("admin:agencies_apikey_add"))
    assert "team" not in form.context["adminform"].form.fields  # cannot pick another team
    response = browser.post(
        reverse("admin:agencies_apikey_add"),
        {"name": "Checkout server", "live_mode": "on"},
        follow=True,
    )
    assert response.status_code == 200
    shown = re.findall(r"sk_live_[A-Za-z0-9]{40}", response.content.decode())
    assert len(shown) == 1
    key = ApiKey.objects.get(name="Checkout server")
    assert key.team == mine.team and key.live_mode and key.secret_hash == hash_secret(shown[0])
    # Shown once: the key's page afterwards shows only its display prefix.
    again = browser.get(change_url(key)).content.decode()
    assert shown[0] not in again and key.display_prefix in again


def test_agency_user_revokes_their_key_with_the_admin_action(two_teams):
    mine, _ = two_teams
    key = ApiKey.objects.get(team=mine.team, live_mode=True)
    browser = browser_for(mine)
    chosen = {"action": "revoke", "_selected_action": [key.pk]}
    confirmation = browser.post(changelist(ApiKey), chosen)
    assert "Requisições com sk_live_" in confirmation.content.decode()  # Portuguese
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None  # not before "yes"
    response = browser.post(changelist(ApiKey), {**chosen, "post": "yes"}, follow=True)
    assert response.status_code == 200
    key.refresh_from_db()
    assert key.revoked_at is not None
    assert Event.objects.filter(type="api_key.revoked", data_object__id=key.pk).count() == 1


def test_agency_user_cannot_revoke_another_teams_key(two_teams):
    mine, theirs = two_teams
    key = ApiKey.objects.get(team=theirs.team, live_mode=True)
    browser_for(mine).post(
        changelist(ApiKey), {"action": "revoke", "_selected_action": [key.pk], "post": "yes"}
    )
    key.refresh_from_db()
    assert key.revoked_at is None


def test_agency_user_changes_their_pricing(two_teams):
    mine, _ = two_teams
    browser = browser_for(mine)
    posted = {
        "name": mine.team.name,
        "markup_percent": "8,5",  # the panel is in Portuguese by default
        "fee": "12,00",
        "notification_email": "ops@alpha.example",
    }
    confirmation = browser.post(change_url(mine.team), posted)
    # A pricing change is confirmed first: old and new pricing of an example offer.
    assert confirmation.status_code == 200
    assert "admin/agencies/team/confirm_pricing.html" in [t.name for t in confirmation.templates]
    page = confirmation.content.decode()
    assert "R$\N{NO-BREAK SPACE}1.097,00" in page  # 1000 + 8,5 % + 12,00 after the change
    mine.team.refresh_from_db()
    assert mine.team.markup_percent == 0  # nothing saved before "yes"
    response = browser.post(change_url(mine.team), {**posted, "_pricing": "confirmed"})
    assert response.status_code == 302, response.content
    mine.team.refresh_from_db()
    assert str(mine.team.markup_percent) == "8.50" and str(mine.team.fee.amount) == "12.00"


def test_login_page_and_a_real_login_as_agency_user(team_owner):
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.get(email=team_owner.email)
    owner.set_password("a-long-panel-password")
    owner.save()
    browser = BrowserClient()
    assert browser.get(reverse("admin:login")).status_code == 200  # anonymous
    response = browser.post(
        reverse("admin:login"),
        {
            "username": owner.username,
            "password": "a-long-panel-password",
            "next": reverse("admin:index"),
        },
        follow=True,
    )
    assert response.status_code == 200
    assert response.context["user"] == owner
    assert "Chaves de API" in response.content.decode()  # Portuguese by default


def test_agency_user_connects_and_disconnects_a_duffel_integration(team, team_owner):
    browser = browser_for(team_owner)
    url = reverse("admin:agencies_integration_add")
    form = browser.get(url)
    assert "team" not in form.context["adminform"].form.fields
    response = browser.post(
        url,
        {"provider": "duffel", "live_mode": "on", "access_token": "duffel_live_secret123"},
        follow=True,
    )
    assert response.status_code == 200
    integration = Integration.objects.get(team=team)
    assert integration.access_token == "duffel_live_secret123" and integration.live_mode
    assert "duffel_live_secret123" not in browser.get(change_url(integration)).content.decode()
    assert Event.objects.filter(type="integration.connected", team=team).count() == 1
    chosen = {"action": "disconnect", "_selected_action": [integration.pk]}
    confirmation = browser.post(changelist(Integration), chosen)
    assert "O token guardado da Duffel deixa de ser usado" in confirmation.content.decode()
    assert Integration.objects.get(pk=integration.pk).status == "active"
    browser.post(changelist(Integration), {**chosen, "post": "yes"})
    integration.refresh_from_db()
    assert integration.status == "disconnected"
    assert Event.objects.filter(type="integration.disconnected").count() == 1


def test_the_token_is_encrypted_at_rest(team):
    from django.db import connection

    from agencies.services import integration_connect

    integration_connect(
        team=team, live_mode=True, provider="duffel", access_token="duffel_live_plaintext"
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT access_token FROM agencies_integration")
        stored = cursor.fetchone()[0]
    assert "duffel_live_plaintext" not in stored
