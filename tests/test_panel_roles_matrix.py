"""Roles in a team, enforced on the server: every page the panel registers, and every page it adds
by hand, is walked as each role, by GET and by a direct POST. A role outside a page's area gets
403; a role that only reads an area sees its pages and can change nothing there (no add, change,
delete or action, even posted by hand); a role that works in the area gets its pages
(panel/roles.py, docs/roles.md)."""

from decimal import Decimal

import pytest
from django.contrib import admin
from django.urls import URLPattern, URLResolver, reverse

from agencies.models import ApiKey, Client, Integration, Invitation, Member, Team, User
from agencies.services import agency_user_create
from agencies.tests.factories import ClientFactory, IntegrationFactory, InvitationFactory
from bookings.models import Booking
from bookings.tests.factories import BookingFactory
from core.models import AuditEntry
from panel.admin import TeamScopedAdmin
from panel.roles import Area, TeamRole, may_change, may_view
from tests.kit import panel
from wallet.models import PayoutKey, Recharge, Reversal, Transaction, Wallet, Withdrawal
from wallet.tests.factories import (
    TEAM_CNPJ,
    PayoutKeyFactory,
    RechargeFactory,
    ReversalFactory,
    WithdrawalFactory,
)
from webhooks.models import Delivery, Event, WebhookEndpoint
from webhooks.tests.factories import DeliveryFactory

pytestmark = pytest.mark.django_db

AGENCY_ROLES = [role.value for role in TeamRole]

# The panel's own pages beside the model admins' (get_urls), each with the area it belongs to
# and whether it reads (GET) or acts (POST). None: support only. A new page must be placed here.
CUSTOM_PAGES = {
    "agencies_team_overview": ("team", None, "GET"),
    "agencies_team_api_version": ("team", Area.SETTINGS, "POST"),  # the upgrade of the pin
    "bookings_sales_report": (None, Area.REPORTS, "GET"),
    "bookings_sales_report_csv": (None, Area.REPORTS, "GET"),
    "bookings_sales_report_pdf": (None, Area.REPORTS, "GET"),
    "bookings_sales_report_nfse": (None, Area.REPORTS, "GET"),
    "wallet_statement": (None, Area.WALLET, "GET"),
    "wallet_statement_csv": (None, Area.WALLET, "GET"),
    "wallet_statement_pdf": (None, Area.WALLET, "GET"),
    "webhooks_delivery_redeliver": ("delivery", Area.DEVELOPERS, "POST"),
    "webhooks_webhookendpoint_attempts": ("endpoint", Area.DEVELOPERS, "GET"),
    "webhooks_webhookendpoint_test": ("endpoint", Area.DEVELOPERS, "POST"),
    "webhooks_webhookendpoint_reactivate": ("endpoint", Area.DEVELOPERS, "POST"),
    "webhooks_webhookendpoint_recover": ("endpoint", Area.DEVELOPERS, "POST"),
    "webhooks_webhookendpoint_rotate_secret": ("endpoint", Area.DEVELOPERS, "POST"),
}
# The admin's own pages, not a team's (login, the index, the menu of an app, ...).
SITE_PAGES = {
    "index",
    "login",
    "logout",
    "password_change",
    "password_change_done",
    "autocomplete",
    "jsi18n",
    "view_on_site",
    "app_list",
}
MODEL_PAGE_SUFFIXES = ("_changelist", "_add", "_change", "_delete", "_history")


def url_names(patterns):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield pattern.name


def custom_page_names() -> set[str]:
    return {
        name
        for name in url_names(admin.site.get_urls())
        if name not in SITE_PAGES and not name.endswith(MODEL_PAGE_SUFFIXES)
    }


@pytest.fixture
def rows(team, team_owner) -> dict:
    """One row of each of the team's kinds, to open and act on."""
    Team.objects.filter(pk=team.pk).update(tax_id=TEAM_CNPJ)
    team.refresh_from_db()
    client = ClientFactory(team=team, live_mode=True)
    delivery = DeliveryFactory(endpoint__team=team)
    reversal = ReversalFactory(team=team, amount=Decimal("300.00"))
    return {
        Team: team,
        Member: Member.objects.get(pk=team_owner.pk),
        ApiKey: ApiKey.objects.filter(team=team).first(),
        Client: client,
        Integration: IntegrationFactory(team=team),
        Invitation: InvitationFactory(team=team),
        Wallet: Wallet.objects.get(team=team),
        Transaction: Transaction.objects.filter(team=team).first(),
        Recharge: RechargeFactory(team=team),
        Reversal: reversal,
        PayoutKey: PayoutKeyFactory(team=team, key=TEAM_CNPJ),
        Withdrawal: WithdrawalFactory(team=team),
        Booking: BookingFactory(client=client, team=team),
        Delivery: delivery,
        WebhookEndpoint: delivery.endpoint,
        Event: delivery.event,
        AuditEntry: AuditEntry.objects.filter(team=team).first(),
        User: team_owner,
    }


def member(team, role: str, team_owner) -> User:
    if role == TeamRole.OWNER:
        return team_owner
    return agency_user_create(team=team, email=f"{role}@alpha.example", role=role)


def admin_url(model, page: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{page}", args=args)


def expected(model_admin, role: str) -> tuple[bool, bool]:
    """(views, changes): what the role may do on the admin's pages."""
    if not isinstance(model_admin, TeamScopedAdmin):
        return False, False  # support's pages: no agency user's
    user = User(team_role=role, team_id=1)
    return may_view(user, model_admin.panel_area), may_change(user, model_admin.panel_area)


def test_every_team_page_names_its_area():
    """An admin of a team's rows without an area would be the owner's alone: each names one."""
    for model, model_admin in admin.site._registry.items():
        if isinstance(model_admin, TeamScopedAdmin):
            assert model_admin.panel_area in Area.values, model


def test_every_custom_page_is_placed_in_an_area():
    """A page added by get_urls must be listed in CUSTOM_PAGES, so that this walk covers it."""
    assert custom_page_names() == set(CUSTOM_PAGES)


@pytest.mark.parametrize("role", AGENCY_ROLES)
def test_each_role_opens_only_its_areas_pages(role, team, team_owner, rows):
    browser = panel.browser_for(member(team, role, team_owner))
    for model, model_admin in admin.site._registry.items():
        views, changes = expected(model_admin, role)
        listed = browser.get(admin_url(model, "changelist"))
        assert listed.status_code == (200 if views else 403), (role, model)
        obj = rows.get(model)
        if obj is None:
            continue
        page = browser.get(admin_url(model, "change", obj.pk))
        assert page.status_code == (200 if views else 403), (role, model)
        history = browser.get(admin_url(model, "history", obj.pk))
        assert history.status_code == (200 if views else 403), (role, model)
        if not changes:
            assert browser.post(admin_url(model, "change", obj.pk), {}).status_code == 403
            assert browser.get(admin_url(model, "add")).status_code == 403, (role, model)
            assert browser.post(admin_url(model, "add"), {}).status_code == 403, (role, model)
            deleted = browser.post(admin_url(model, "delete", obj.pk), {"post": "yes"})
            assert deleted.status_code == 403, (role, model)
            assert model._default_manager.filter(pk=obj.pk).exists()


@pytest.mark.parametrize("role", AGENCY_ROLES)
def test_actions_are_offered_and_run_only_in_the_areas_a_role_works_in(
    role, team, team_owner, rows
):
    """A reader's list offers no action, and an action posted by hand (both the confirmation
    page's POST and its "yes") does nothing: no confirmation page, no audit entry."""
    browser = panel.browser_for(member(team, role, team_owner))
    for model, model_admin in admin.site._registry.items():
        obj = rows.get(model)
        if obj is None or not model_admin.actions:
            continue
        views, changes = expected(model_admin, role)
        listed = browser.get(admin_url(model, "changelist"))
        if changes:
            continue
        if views:
            assert not listed.context.get("action_form"), (role, model)
        entries = AuditEntry.objects.count()
        for action in model_admin.actions:
            if not isinstance(action, str):
                continue
            for post in ("", "yes"):
                answer = browser.post(
                    admin_url(model, "changelist"),
                    {"action": action, "_selected_action": [obj.pk], "post": post, "index": 0},
                )
                assert answer.status_code in (200, 302, 403), (role, model, action)
                assert b"confirm-question" not in answer.content
        assert AuditEntry.objects.count() == entries, (role, model)


@pytest.mark.parametrize("role", AGENCY_ROLES)
def test_each_role_opens_only_its_areas_custom_pages(role, team, team_owner, rows):
    browser = panel.browser_for(member(team, role, team_owner))
    user = User(team_role=role, team_id=1)
    objects = {
        "team": rows[Team],
        "delivery": rows[Delivery],
        "endpoint": rows[WebhookEndpoint],
    }
    for name, (needs, area, method) in CUSTOM_PAGES.items():
        url = reverse(f"admin:{name}", args=[objects[needs].pk] if needs else [])
        if area is None:
            allowed = False
        elif method == "GET":
            allowed = may_view(user, area)
        else:
            allowed = may_change(user, area)
        if method == "GET":
            assert browser.get(url).status_code == (200 if allowed else 403), (role, name)
        elif not allowed:  # (an allowed one would send a test event or queue a delivery)
            assert browser.post(url, {}).status_code == 403, (role, name)
            # Nor is its confirmation page shown (where a page has one).
            assert browser.get(url).status_code in (403, 405), (role, name)
