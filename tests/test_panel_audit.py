"""Every confirmed panel action writes one audit entry (who, when, which action, what it did to
the amounts, old and new values); plain changes are audited too; each object's history page
shows them, and the activity list is scoped like everything else."""

from decimal import Decimal
from functools import partial

import pytest
import time_machine
from django.urls import reverse
from django.utils import translation
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from agencies.models import ApiKey, Client, Integration, Team
from agencies.services import integration_connect
from agencies.tests.factories import ClientFactory, SupportUserFactory
from bookings.models import Booking
from bookings.tests.helpers import book, offers
from core.audit import action_label, action_labels
from core.models import AuditEntry
from tests.kit import panel
from tests.kit.clock import NOW
from tests.kit.factories import fund, make_endpoint
from wallet.models import Recharge, Wallet
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


browser_for = partial(panel.browser_for, language="en")  # the English texts below


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def run_action(browser, model, action, obj):
    """The two POSTs of a confirmed action: the confirmation page, then "Yes, I'm sure"."""
    chosen = {"action": action, "_selected_action": [obj.pk]}
    confirmation = browser.post(changelist(model), chosen)
    assert confirmation.status_code == 200
    assert "admin/confirm_action.html" in [t.name for t in confirmation.templates]
    # The page posts back the same action (as a browser would submit it).
    assert f'name="action" value="{action}"' in confirmation.content.decode()
    before = AuditEntry.objects.count()
    browser.post(changelist(model), {**chosen, "post": "yes"})
    assert AuditEntry.objects.count() == before + 1  # one entry per action, not two
    return confirmation.content.decode(), AuditEntry.objects.order_by("-pk").first()


def assert_entry(entry, *, actor, action, obj, changes):
    assert entry.actor == actor
    assert entry.additional_data["action"] == action
    assert entry.object_pk == str(obj.pk)
    for field, (old, new) in changes.items():
        assert entry.changes[field] == [old, new], (field, entry.changes)


def test_revoking_a_key(team, team_owner):
    key = ApiKey.objects.get(team=team, live_mode=True)
    page, entry = run_action(browser_for(team_owner), ApiKey, "revoke", key)
    key.refresh_from_db()
    assert "This cannot be undone" in page
    assert_entry(
        entry,
        actor=team_owner,
        action="api_key_revoke",
        obj=key,
        changes={},
    )
    old, new = entry.changes["revoked_at"]
    assert old == "None" and new.startswith(key.revoked_at.strftime("%Y-%m-%d %H:%M:%S"))
    assert entry.team_id == team.pk


def test_marking_a_recharge_paid_shows_the_credit_and_records_the_balance(team, live_client):
    recharge_id = live_client.post(
        "/api/v1/wallet/recharge",
        {"amount": "500.00", "currency": "BRL", "payment_method": "pix"},
        format="json",
    ).json()["data"]["id"]
    recharge = Recharge.objects.get(pk=recharge_id)
    support = SupportUserFactory()
    page, entry = run_action(browser_for(support), Recharge, "mark_paid", recharge)
    assert "The wallet is credited R$\N{NO-BREAK SPACE}500.00." in page
    assert Wallet.objects.get(team=team).balance == Decimal("500.00")
    assert_entry(
        entry,
        actor=support,
        action="recharge_mark_paid",
        obj=recharge,
        changes={"status": ("pending", "completed"), "wallet balance": ("0.00", "500.00")},
    )
    assert "R$\N{NO-BREAK SPACE}500.00" in entry.additional_data["summary"]


def test_cancelling_a_recharge(team, live_client):
    recharge_id = live_client.post(
        "/api/v1/wallet/recharge",
        {"amount": "600.00", "currency": "BRL", "payment_method": "pix"},
        format="json",
    ).json()["data"]["id"]
    recharge = Recharge.objects.get(pk=recharge_id)
    support = SupportUserFactory()
    page, entry = run_action(browser_for(support), Recharge, "cancel", recharge)
    assert "The charge of R$\N{NO-BREAK SPACE}600.00 is withdrawn; nothing is credited." in page
    assert_entry(
        entry,
        actor=support,
        action="recharge_cancel",
        obj=recharge,
        changes={"status": ("pending", "cancelled")},
    )


@pytest.mark.usefixtures("live_sandbox")  # live keys book with the sandbox
def test_cancelling_a_booking_shows_the_refund_it_then_makes(team, live_client):
    with time_machine.travel(NOW, tick=False):
        fund(team, "50000.00")
        refundable = next(
            o
            for o in offers(live_client)
            if o["conditions"]["refund_before_departure"]["allowed"]
            and o["conditions"]["refund_before_departure"]["penalty_amount"]
        )
        booking = Booking.objects.get(pk=book(live_client, refundable, type="instant").json()["id"])
        assert booking.status == "ticketed"
        balance_before = Wallet.objects.get(team=team).balance
        support = SupportUserFactory()
        page, entry = run_action(browser_for(support), Booking, "cancel", booking)
    balance_after = Wallet.objects.get(team=team).balance
    refund = balance_after - balance_before
    assert refund > 0
    # The page announced exactly the refund that was then credited.
    assert f"The wallet is refunded R$\N{NO-BREAK SPACE}{refund:,.2f}" in page
    assert "Penalty kept by the airline:" in page
    assert_entry(
        entry,
        actor=support,
        action="booking_cancel",
        obj=booking,
        changes={
            "status": ("ticketed", "cancelled"),
            "wallet balance": (f"{balance_before:.2f}", f"{balance_after:.2f}"),
        },
    )


@pytest.mark.usefixtures("live_sandbox")  # live keys book with the sandbox
def test_cancelling_an_unpaid_hold_says_it_costs_nothing(team, live_client):
    with time_machine.travel(NOW, tick=False):
        offer = next(
            o
            for o in offers(live_client)
            if not o["payment_requirements"]["requires_instant_payment"]
        )
        booking = Booking.objects.get(pk=book(live_client, offer).json()["id"])
        support = SupportUserFactory()
        page, entry = run_action(browser_for(support), Booking, "cancel", booking)
    assert "Cancelled at no cost: it was never paid." in page
    assert_entry(
        entry,
        actor=support,
        action="booking_cancel",
        obj=booking,
        changes={"status": ("pending", "cancelled")},
    )
    assert "wallet balance" not in entry.changes


def test_deactivating_and_reactivating_a_webhook(team, team_owner, https_receiver):
    endpoint = make_endpoint(team, https_receiver.url)
    browser = browser_for(team_owner)
    page, entry = run_action(browser, WebhookEndpoint, "deactivate", endpoint)
    assert f"No events are sent to {https_receiver.url}" in page
    assert_entry(
        entry,
        actor=team_owner,
        action="webhook_deactivate",
        obj=endpoint,
        changes={"active": ("True", "False")},
    )
    page, entry = run_action(browser, WebhookEndpoint, "reactivate", endpoint)
    assert_entry(
        entry,
        actor=team_owner,
        action="webhook_reactivate",
        obj=endpoint,
        changes={"active": ("False", "True")},
    )


def test_disconnecting_an_integration(team, team_owner):
    integration = integration_connect(
        team=team, live_mode=True, provider="duffel", access_token="duffel_live_x"
    )
    page, entry = run_action(browser_for(team_owner), Integration, "disconnect", integration)
    assert "The stored Duffel token is no longer used" in page
    assert_entry(
        entry,
        actor=team_owner,
        action="integration_disconnect",
        obj=integration,
        changes={"status": ("active", "disconnected")},
    )
    assert "duffel_live_x" not in str(entry.changes) + str(entry.serialized_data)


def test_changing_pricing(team, team_owner):
    browser = browser_for(team_owner)
    url = reverse("admin:agencies_team_change", args=[team.pk])
    posted = {
        "name": team.name,
        "markup_percent": "8.5",
        "fee": "25.50",
        "notification_email": team.notification_email,
    }
    page = browser.post(url, posted).content.decode()
    assert (
        "R$\N{NO-BREAK SPACE}1,110.50" in page and "R$\N{NO-BREAK SPACE}1,000.00" in page
    )  # after, and before the change
    browser.post(url, {**posted, "_pricing": "confirmed"})
    entry = AuditEntry.objects.order_by("-pk").first()
    assert_entry(
        entry,
        actor=team_owner,
        action="pricing_change",
        obj=team,
        changes={"markup_percent": ("0.00", "8.50"), "fee": ("R$0.00", "R$25.50")},
    )


def test_disabling_a_periodic_task():
    every = IntervalSchedule.objects.create(every=60, period=IntervalSchedule.SECONDS)
    task = PeriodicTask.objects.create(name="sweep", task="webhooks.tasks.sweep", interval=every)
    support = SupportUserFactory()
    page, entry = run_action(browser_for(support), PeriodicTask, "disable_tasks", task)
    assert "webhooks.tasks.sweep stops running" in page
    task.refresh_from_db()
    assert not task.enabled
    assert_entry(
        entry,
        actor=support,
        action="periodic_task_disable",
        obj=task,
        changes={"enabled": ("True", "False")},
    )
    assert entry.team_id is None  # support-only


def test_plain_changes_are_audited_with_the_actor(team, team_owner):
    client = ClientFactory(team=team, full_name="Ana", email="ana@example.com")
    browser_for(team_owner).post(
        reverse("admin:agencies_client_change", args=[client.pk]),
        {"live_mode": "on", "full_name": "Ana Souza", "email": "ana@example.com"},
    )
    entry = AuditEntry.objects.filter(object_pk=client.pk).order_by("-pk").first()
    assert entry.action == AuditEntry.Action.UPDATE and entry.actor == team_owner
    assert entry.changes["full_name"] == ["Ana", "Ana Souza"]
    assert entry.team_id == team.pk


def test_history_page_shows_the_entries(team, team_owner):
    key = ApiKey.objects.get(team=team, live_mode=True)
    run_action(browser_for(team_owner), ApiKey, "revoke", key)
    history = browser_for(team_owner).get(reverse("admin:agencies_apikey_history", args=[key.pk]))
    html = history.content.decode()
    assert history.status_code == 200
    assert "Revoked API key" in html and team_owner.username in html and "Revoked at" in html


def test_recorded_values_read_as_people_write_them(team, team_owner, https_receiver):
    """The review's finding: audit and history values read as stored ("True", "R$25.50",
    "2026-11-22T15:00:00+00:00", English field names). In Portuguese they read "Sim"/"Não",
    "R$ 25,50", "8,50", times in São Paulo, and the fields' translated names."""
    from panel.admin import change_display

    browser = panel.browser_for(team_owner, language="pt-br")
    url = reverse("admin:agencies_team_change", args=[team.pk])
    posted = {
        "name": team.name,
        "markup_percent": "8,5",
        "fee": "25,50",
        "notification_email": team.notification_email,
        "_pricing": "confirmed",
    }
    browser.post(url, posted)
    endpoint = make_endpoint(team, https_receiver.url)
    run_action(browser, WebhookEndpoint, "deactivate", endpoint)

    with translation.override("pt-br"):
        pricing = AuditEntry.objects.filter(additional_data__action="pricing_change").get()
        rows = {name: (old, new) for name, old, new in change_display(pricing)}
        deactivation = AuditEntry.objects.filter(additional_data__action="webhook_deactivate").get()
        webhook_rows = {name: (old, new) for name, old, new in change_display(deactivation)}

    assert rows["Taxa"] == ("R$\N{NO-BREAK SPACE}0,00", "R$\N{NO-BREAK SPACE}25,50"), rows
    assert rows["Margem (%)"] == ("0,00", "8,50"), rows
    [active] = [v for k, v in webhook_rows.items() if k.lower().startswith("ativ")]
    assert active == ("Sim", "Não"), webhook_rows
    assert not any(
        "True" in old + new or "False" in old + new for old, new in webhook_rows.values()
    )
    history = browser.get(reverse("admin:agencies_team_history", args=[team.pk])).content.decode()
    assert "R$\N{NO-BREAK SPACE}25,50" in history
    # Written in English at the time, read in Portuguese now.
    from panel.admin import value_for_people

    fee = Team._meta.get_field("fee")
    with translation.override("pt-br"):
        assert value_for_people(fee, "fee", "R$1,234.56") == "R$\N{NO-BREAK SPACE}1.234,56"
        assert value_for_people(fee, "fee", "R$ 1.234,56") == "R$\N{NO-BREAK SPACE}1.234,56"


def test_agency_users_see_support_as_support_without_its_login_or_address(team, team_owner):
    """The review's finding: audit entries shown to agency users revealed support's login
    e-mail and IP address. They read "Support" now, with no address; support still sees both."""
    support = SupportUserFactory(email="maria.suporte@backoffice.example")
    support.username = support.email
    support.save()
    support_browser = browser_for(support)
    support_browser.defaults["REMOTE_ADDR"] = "10.9.8.7"
    key = ApiKey.objects.get(team=team, live_mode=True)
    _, entry = run_action(support_browser, ApiKey, "revoke", key)
    assert entry.actor == support and entry.remote_addr == "10.9.8.7"
    assert entry.team_id == team.pk  # the agency's own activity
    agency = browser_for(team_owner)
    pages = [
        agency.get(changelist(AuditEntry)),
        agency.get(changelist(AuditEntry) + "?q=maria"),
        agency.get(reverse("admin:core_auditentry_change", args=[entry.pk])),
        agency.get(reverse("admin:agencies_apikey_history", args=[key.pk])),
    ]
    for page in pages:
        assert page.status_code == 200
        html = page.content.decode()
        assert "backoffice.example" not in html and "10.9.8.7" not in html
    assert all("Support" in page.content.decode() for page in pages[::2] + pages[3:])
    # Searching by support's login finds nothing for an agency user.
    assert list(pages[1].context["cl"].queryset) == []
    # Support sees who and from where.
    seen = support_browser.get(reverse("admin:core_auditentry_change", args=[entry.pk]))
    assert "maria.suporte@backoffice.example" in seen.content.decode()
    assert "10.9.8.7" in seen.content.decode()
    # (The team's own people keep their names: test_history_page_shows_the_entries.)


def test_activity_list_is_scoped_to_the_team(team, team_owner, other_team, other_team_owner):
    for owner in (team_owner, other_team_owner):
        key = ApiKey.objects.get(team=owner.team, live_mode=True)
        run_action(browser_for(owner), ApiKey, "revoke", key)
    entries = changelist(AuditEntry)
    mine = browser_for(team_owner).get(entries)
    assert mine.status_code == 200
    assert {e.team_id for e in mine.context["cl"].queryset} == {team.pk}
    everyone = browser_for(SupportUserFactory()).get(entries)
    assert {team.pk, other_team.pk} <= {e.team_id for e in everyone.context["cl"].queryset}
    # Another team's object history is not readable by its address either.
    theirs = ApiKey.objects.get(team=other_team, live_mode=True)
    page = browser_for(team_owner).get(reverse("admin:agencies_apikey_history", args=[theirs.pk]))
    assert page.status_code == 302 and theirs.display_prefix not in page.content.decode()


def test_changes_outside_the_panel_are_audited_too(team):
    Team.objects.filter(pk=team.pk)  # the API and services save through the ORM as well
    team.name = "Alpha Viagens"
    team.save()
    entry = AuditEntry.objects.filter(object_pk=team.pk).order_by("-pk").first()
    assert entry.actor is None and entry.changes["name"] == ["Alpha Travel", "Alpha Viagens"]


def test_the_unaudited_fields_stay_out(team):
    key = ApiKey.objects.filter(team=team).first()
    created = AuditEntry.objects.get(object_pk=key.pk, action=AuditEntry.Action.CREATE)
    assert "secret_hash" not in created.changes
    client = Client.objects.create(team=team, live_mode=True, full_name="B", email="b@example.com")
    assert AuditEntry.objects.filter(object_pk=client.pk).exists()


# How each panel action's entry reads, in English and Portuguese.
ACTION_TEXTS = {
    "api_key_revoke": ("Revoked API key", "Chave de API revogada"),
    "integration_disconnect": ("Disconnected integration", "Integração desconectada"),
    "pricing_change": ("Changed pricing", "Precificação alterada"),
    "api_version_upgrade": ("Upgraded API version", "Versão da API atualizada"),
    "member_role_change": ("Changed role", "Perfil alterado"),
    "member_deactivate": ("Deactivated member", "Membro desativado"),
    "member_reactivate": ("Reactivated member", "Membro reativado"),
    "booking_cancel": ("Cancelled booking", "Reserva cancelada"),
    "recharge_mark_paid": ("Marked recharge paid", "Recarga marcada como paga"),
    "recharge_cancel": ("Cancelled recharge", "Recarga cancelada"),
    "payout_key_register": ("Registered payout PIX key", "Chave PIX de saque cadastrada"),
    "withdrawal_check_again": (
        "Checked withdrawal again with the provider",
        "Saque verificado de novo com o provedor",
    ),
    "webhook_deactivate": ("Deactivated webhook", "Webhook desativado"),
    "webhook_reactivate": ("Reactivated webhook", "Webhook reativado"),
    "webhook_test": ("Sent a test event", "Evento de teste enviado"),
    "webhook_recover": ("Recovered events", "Eventos recuperados"),
    "webhook_rotate_secret": ("Rolled the signing secret", "Segredo de assinatura trocado"),
    "webhook_rotate_secret_api": (
        "Rolled the signing secret through the API",
        "Segredo de assinatura trocado pela API",
    ),
    "delivery_redeliver": ("Redelivered event", "Evento reenviado"),
    "periodic_task_disable": ("Disabled periodic task", "Tarefa periódica desativada"),
    "periodic_task_enable": ("Enabled periodic task", "Tarefa periódica ativada"),
}


def test_each_app_names_its_actions_and_entries_read_them_in_both_languages():
    """The apps declare their actions (AppConfig.audit_actions); gathered from the registry,
    they are every action of the panel, each read in the reader's language."""
    assert set(action_labels()) == set(ACTION_TEXTS)
    for code, (english, portuguese) in ACTION_TEXTS.items():
        entry = AuditEntry(additional_data={"action": code, "summary": "R$ 10,00"})
        with translation.override("en"):
            assert action_label(entry) == f"{english}: R$ 10,00"
        with translation.override("pt-br"):
            assert action_label(entry) == f"{portuguese}: R$ 10,00"
