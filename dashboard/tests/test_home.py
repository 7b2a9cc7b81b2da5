"""The panel's home page and a team's overview (dashboard/display.py): the figures are the wallet's
and the ledger's, another team's data never shows, support sees what needs attention first, and
the pages cost a bounded number of queries."""

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import partial

import pytest
import time_machine
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from agencies.models import ApiKey
from agencies.tests.factories import SupportUserFactory
from bookings.models import Booking
from bookings.selectors import pending_holds_total
from bookings.services import booking_airline_changes_sync
from bookings.tests.helpers import book, holdable, offers
from dashboard.display import periods, support_home, team_home
from tests.kit.factories import fund, make_endpoint
from tests.kit.panel import browser_for
from tests.kit.passengers import passenger
from wallet.models import ProviderNotification, Transaction, Wallet
from wallet.selectors import wallet_balance
from wallet.services import recharge_complete, recharge_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

HOME = reverse("admin:index")
panel = partial(browser_for, language="en")


def api_for(live_key):
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {live_key}")
    return api


def a_day_of(team, live_key, *, fail_one=False):
    """Money in, a recharge paid and one pending, an instant booking, a hold; optionally a
    booking that fails at issuance (refunded)."""
    seeded = Transaction.objects.filter(team=team).count()
    fund(team, "20000.00", reference_id=f"rch_seed_{seeded}")
    paid = recharge_create(
        team=team, live_mode=True, amount=Decimal("1234.56"), payment_method="pix"
    )
    recharge_complete(recharge=paid)
    pending = recharge_create(
        team=team, live_mode=True, amount=Decimal("500.00"), payment_method="boleto"
    )
    api = api_for(live_key)
    assert book(api, offers(api)[0], type="instant").status_code == 201
    assert book(api, holdable(api, origin="CGH", destination="SDU")).status_code == 201
    if fail_one:
        offer = offers(api)[0]
        people = [passenger(offer["passengers"][0]["id"], family_name="Issuancefail")]
        assert book(api, offer, type="instant", people=people).json()["status"] == "failed"
    return pending


# --- Figures ---------------------------------------------------------------------------------


def test_a_teams_figures_are_what_the_wallet_and_the_ledger_say(
    team, team_keys, other_team, other_team_keys
):
    pending = a_day_of(team, team_keys.live_key, fail_one=True)
    a_day_of(other_team, other_team_keys.live_key)
    home = team_home(team=team, live_mode=True)

    wallet = Wallet.objects.get(team=team)
    api_balance = wallet_balance(team=team, live_mode=True)
    assert home["wallet"]["balance"] == wallet.balance == Decimal(api_balance["balance"])
    assert home["wallet"]["holds"] == pending_holds_total(team=team, live_mode=True)
    assert home["wallet"]["holds"] == Decimal(api_balance["pending_amount"]) > 0
    assert home["wallet"]["available"] == Decimal(api_balance["available_credit"])
    assert home["recharges"]["count"] == 1 and home["recharges"]["amount"] == pending.amount

    ledger = Transaction.objects.filter(team=team, live_mode=True)
    debits = ledger.filter(type="debit", reference_type="booking").aggregate(s=Sum("amount"))["s"]
    refunds = ledger.filter(reference_type="refund").aggregate(s=Sum("amount"))["s"]
    assert home["activity"]["spend_today"] == home["activity"]["spend_month"] == debits
    assert home["activity"]["refunds_today"] == refunds > 0
    assert home["activity"]["net_spend_today"] == debits - refunds
    made = Booking.objects.filter(team=team, live_mode=True).count()
    assert home["activity"]["bookings_today"] == home["activity"]["bookings_month"] == made == 3

    # Test mode: the sandbox wallet, and none of the live figures.
    test = team_home(team=team, live_mode=False)
    assert test["wallet"]["balance"] == Decimal("5000.00")
    assert test["activity"]["bookings_month"] == 0 and test["recharges"]["count"] == 0


def test_support_figures_are_the_sums_of_every_teams(team, team_keys, other_team, other_team_keys):
    a_day_of(team, team_keys.live_key)
    a_day_of(other_team, other_team_keys.live_key, fail_one=True)
    one = team_home(team=team, live_mode=True)
    two = team_home(team=other_team, live_mode=True)
    every = support_home(live_mode=True)
    for group, name in [
        ("wallet", "balance"),
        ("wallet", "holds"),
        ("wallet", "available"),
        ("recharges", "amount"),
        ("recharges", "count"),
        ("activity", "spend_month"),
        ("activity", "bookings_today"),
    ]:
        assert every[group][name] == one[group][name] + two[group][name], name
    assert every["wallet"]["balance"] == sum(w.balance for w in Wallet.objects.all())


def test_days_and_months_are_sao_paulos():
    # 01:30 UTC on 1 December is still 30 November in São Paulo.
    when = periods(datetime(2026, 12, 1, 1, 30, tzinfo=UTC))
    assert str(when.today) == "2026-11-30"
    assert when.day_start == datetime(2026, 11, 30, 3, 0, tzinfo=UTC)
    assert when.month_start == datetime(2026, 11, 1, 3, 0, tzinfo=UTC)
    assert when.month_end == datetime(2026, 12, 1, 3, 0, tzinfo=UTC)


def test_spend_counts_the_sao_paulo_day_and_month(team, team_keys):
    fund(team, "20000.00")
    api = api_for(team_keys.live_key)
    with time_machine.travel(datetime(2026, 11, 1, 2, 30, tzinfo=UTC), tick=False):
        # 23:30 on 31 October in São Paulo: last month.
        assert book(api, offers(api)[0], type="instant").status_code == 201
    with time_machine.travel(datetime(2026, 11, 22, 2, 30, tzinfo=UTC), tick=False):
        # 23:30 on 21 November: this month, yesterday.
        assert book(api, offers(api, origin="CGH")[0], type="instant").status_code == 201
    assert book(api, offers(api, origin="GIG")[0], type="instant").status_code == 201
    debits = list(Transaction.objects.filter(type="debit").order_by("created_at"))
    home = team_home(team=team, live_mode=True)
    assert home["activity"]["spend_today"] == debits[2].amount
    assert home["activity"]["spend_month"] == debits[1].amount + debits[2].amount
    assert home["activity"]["bookings_today"] == 1 and home["activity"]["bookings_month"] == 2


# --- What each user sees ---------------------------------------------------------------------


def test_an_agency_user_sees_their_team_only(
    team, team_keys, team_owner, other_team, other_team_keys
):
    a_day_of(team, team_keys.live_key)
    a_day_of(other_team, other_team_keys.live_key)
    mine = make_endpoint(team, "https://hooks.alpha.example/in", consecutive_failures=3)
    theirs = make_endpoint(
        other_team, "https://hooks.beta.example/in", active=False, consecutive_failures=9
    )
    page = panel(team_owner).get(HOME).content.decode()
    assert "Alpha Travel" in page and "Beta Tours" not in page
    assert mine.url in page and theirs.url not in page
    for key in ApiKey.objects.filter(team=other_team):
        assert key.display_prefix not in page
    for booking in Booking.objects.filter(team=other_team):
        assert booking.id not in page
    assert 'id="attention"' not in page  # support's worklist
    assert reverse("admin:agencies_apikey_changelist") in page  # the app list stays below
    # Their own figures (English here: R$ 20,000.00-style).
    wallet = Wallet.objects.get(team=team)
    assert f"{wallet.balance:,.2f}" in page
    # An agency user's links carry no team filter (their lists have none).
    assert "team__id__exact" not in page


def test_the_home_page_switches_to_test_data(team, team_keys, team_owner):
    a_day_of(team, team_keys.live_key)
    page = panel(team_owner).get(HOME, {"mode": "test"}).content.decode()
    assert 'data-mode="test"' in page and "5,000.00" in page
    assert "1,234.56" not in page  # live recharge not among the test figures
    assert panel(team_owner).get(HOME).content.decode().count('data-mode="live"') == 1


def test_the_home_page_is_portuguese_by_default(team, team_keys, team_owner):
    a_day_of(team, team_keys.live_key)
    page = panel(team_owner, language="pt-br").get(HOME).content.decode()
    for text in ("Saldo", "Crédito disponível", "Recargas pendentes", "Dados reais", "Hoje"):
        assert text in page, text
    assert "R$\N{NO-BREAK SPACE}500,00" in page  # the pending boleto


def test_support_sees_what_needs_attention_first(team, team_keys, other_team):
    a_day_of(team, team_keys.live_key, fail_one=True)
    late = recharge_create(
        team=other_team, live_mode=True, amount=Decimal("300.00"), payment_method="pix"
    )
    recharge_complete(recharge=late, paid_at=late.expires_at + timedelta(minutes=5))
    on_time = recharge_create(
        team=other_team, live_mode=True, amount=Decimal("200.00"), payment_method="pix"
    )
    recharge_complete(recharge=on_time)
    ProviderNotification.objects.create(
        provider="asaas",
        event_id="evt_rejected_1",
        event_type="PAYMENT_RECEIVED",
        payment_id="pay_404",
        payload={},
        state=ProviderNotification.State.REJECTED,
        reason=ProviderNotification.Reason.PAYMENT_NOT_FOUND,
    )
    api = api_for(team_keys.live_key)  # the airline changes a ticketed booking's flights
    offer = offers(api)[0]
    people = [passenger(offer["passengers"][0]["id"], family_name="Schedulechange")]
    changed = Booking.objects.get(pk=book(api, offer, type="instant", people=people).json()["id"])
    booking_airline_changes_sync(booking=changed)
    unknown = Booking.objects.filter(team=team, status="pending").first()
    unknown_label = unknown.booking_reference or unknown.id
    Booking.objects.filter(pk=unknown.pk).update(outcome_unknown_since=timezone.now())
    disabled = make_endpoint(
        other_team,
        "https://hooks.beta.example/down",
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now() - timedelta(days=1),
    )
    old = make_endpoint(  # disabled long ago and still disabled: listed all the same
        other_team,
        "https://hooks.beta.example/old",
        active=False,
        deactivated_at=timezone.now() - timedelta(days=30),
    )

    lists = {item["key"]: item for item in support_home(live_mode=True)["attention"]}
    failed = Booking.objects.get(status="failed")
    failed_label = failed.booking_reference or failed.id
    assert [r["label"] for r in lists["failed_bookings"]["rows"]] == [failed_label]
    assert [r["label"] for r in lists["late_recharges"]["rows"]] == [late.id]
    assert [r["label"] for r in lists["rejected_notifications"]["rows"]] == ["pay_404"]
    assert [r["label"] for r in lists["unknown_outcome"]["rows"]] == [unknown_label]
    assert [r["label"] for r in lists["airline_changes"]["rows"]] == [changed.booking_reference]
    assert [r["label"] for r in lists["disabled_webhooks"]["rows"]] == [disabled.url, old.url]
    assert {key: item["count"] for key, item in lists.items()} == {
        **{key: 1 for key in lists},
        "unknown_cancellations": 0,
        "wallets_in_debt": 0,
        "reversals": 0,
        "stuck_withdrawals": 0,
        "disabled_webhooks": 2,
    }

    support = SupportUserFactory()
    page = panel(support).get(HOME).content.decode()
    assert page.index('id="attention"') < page.index('id="figures"')  # attention first
    for text in (failed_label, late.id, unknown_label, disabled.url, changed.booking_reference):
        assert text in page, text
    assert "pay_404" in page and "Beta Tours" in page
    assert reverse("admin:agencies_team_overview", args=[other_team.pk]) in page
    # Test mode has none of it (notifications have no mode and stay listed).
    test = {item["key"]: item["count"] for item in support_home(live_mode=False)["attention"]}
    assert test == {
        "unknown_outcome": 0,
        "unknown_cancellations": 0,
        "airline_changes": 0,
        "late_recharges": 0,
        "rejected_notifications": 1,
        "stuck_withdrawals": 0,
        "failed_bookings": 0,
        "disabled_webhooks": 0,
    }


# --- A team's overview -------------------------------------------------------------------------


def test_a_teams_overview_is_supports_and_gathers_the_team(
    team, team_keys, team_owner, other_team, other_team_keys, other_team_owner
):
    a_day_of(team, team_keys.live_key)
    a_day_of(other_team, other_team_keys.live_key)
    make_endpoint(team, "https://hooks.alpha.example/in")
    make_endpoint(other_team, "https://hooks.beta.example/in")
    url = reverse("admin:agencies_team_overview", args=[team.pk])

    assert panel(team_owner).get(url).status_code == 403  # agency users: not even their own
    page = panel(SupportUserFactory()).get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Overview: Alpha Travel" in body
    for booking in Booking.objects.filter(team=team):
        assert reverse("admin:bookings_booking_change", args=[booking.pk]) in body
    assert team_owner.email in body and "https://hooks.alpha.example/in" in body
    for key in ApiKey.objects.filter(team=team, live_mode=True):
        assert key.display_prefix in body
    assert "Beta Tours" not in body and "https://hooks.beta.example/in" not in body
    assert other_team_owner.email not in body
    assert f"team__id__exact={team.pk}" in body  # links to the lists of this team
    # Every link it has opens (no list rejects its filters).
    support = panel(SupportUserFactory())
    for link in set(re.findall(r'href="(/admin/[^"]+\?[^"]+)"', body)):
        answer = support.get(link.replace("&amp;", "&"))
        assert answer.status_code == 200 and "?e=1" not in answer.get("Location", ""), link
    missing = reverse("admin:agencies_team_overview", args=["team_missing"])
    assert support.get(missing).status_code == 404


def test_the_team_list_links_each_overview_for_support(team, team_owner):
    page = panel(SupportUserFactory()).get(reverse("admin:agencies_team_changelist"))
    assert reverse("admin:agencies_team_overview", args=[team.pk]) in page.content.decode()
    own = panel(team_owner).get(reverse("admin:agencies_team_changelist")).content.decode()
    assert "/overview/" not in own


# --- Bounded queries ---------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["agency", "support", "overview"])
def test_the_pages_cost_a_bounded_number_of_queries(
    team, team_keys, team_owner, other_team, other_team_keys, who, django_assert_max_num_queries
):
    user = team_owner if who == "agency" else SupportUserFactory()
    url = HOME if who != "overview" else reverse("admin:agencies_team_overview", args=[team.pk])
    browser = panel(user)

    a_day_of(team, team_keys.live_key, fail_one=True)
    a_day_of(other_team, other_team_keys.live_key, fail_one=True)
    for n in range(12):
        make_endpoint(team, f"https://hooks.alpha.example/{n}", consecutive_failures=n + 1)
        make_endpoint(
            other_team,
            f"https://hooks.beta.example/{n}",
            active=False,
            deactivated_at=timezone.now(),
        )
    with django_assert_max_num_queries(25):
        assert browser.get(url).status_code == 200
    # More of everything costs no more queries.
    a_day_of(team, team_keys.live_key, fail_one=True)
    a_day_of(other_team, other_team_keys.live_key, fail_one=True)
    with django_assert_max_num_queries(25):
        assert browser.get(url).status_code == 200
