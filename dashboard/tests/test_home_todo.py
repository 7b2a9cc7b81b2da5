"""The agency's to-do on the home page (dashboard/display.py `team_todo`): holds with their
pay-by countdown and whether the balance pays them, bookings failed lately with their reason,
airline changes to answer, a recharge prompt when the balance is short; and the activity feed
naming bookings by locator and passenger."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from agencies.tests.factories import ClientFactory, SupportUserFactory
from bookings.models import Booking
from bookings.retention import ERASED
from bookings.tests.factories import (
    BookingAirlineChangeFactory,
    BookingFactory,
    BookingPassengerFactory,
)
from bookings.tests.helpers import book, holdable
from dashboard.display import countdown_for_people, recent_events, team_home
from tests.kit.factories import fund, record
from tests.kit.panel import browser_for
from tests.kit.passengers import passenger
from wallet.models import Wallet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

HOME = reverse("admin:index")


def a_hold(team, *, cost: str, pay_within: timedelta, given="Bruno", family="Carvalho", **fields):
    booking = BookingFactory(
        client=ClientFactory(team=team),
        base_cost_brl=Decimal(cost),
        payment_required_by=timezone.now() + pay_within,
        **fields,
    )
    BookingPassengerFactory(booking=booking, given_name=given, family_name=family)
    BookingPassengerFactory(booking=booking, position=1, given_name="Zeca", family_name="Segundo")
    return booking


def todo_of(team, live_mode=True):
    with translation.override("pt-br"):
        return team_home(team=team, live_mode=live_mode)["todo"]


# --- Holds ---------------------------------------------------------------------------------------


def test_countdowns_are_words_counted_to_the_deadline():
    now = timezone.now()
    with translation.override("pt-br"):
        assert countdown_for_people(now + timedelta(hours=3, minutes=20), now) == (
            "vence em 3 h 20 min"
        )
        assert countdown_for_people(now + timedelta(minutes=7, seconds=30), now) == (
            "vence em 7 min"
        )
        assert countdown_for_people(now + timedelta(days=2, hours=5), now) == "vence em 2 d 5 h"
        assert countdown_for_people(now, now) == "vencida"
        assert countdown_for_people(now - timedelta(hours=1), now) == "vencida"
    assert countdown_for_people(None, now) == ""


def test_holds_count_down_and_say_whether_the_balance_pays_them(team, other_team):
    fund(team, "1000.00")
    soon = a_hold(team, cost="612.40", pay_within=timedelta(hours=3, minutes=20))
    late = a_hold(team, cost="1200.00", pay_within=timedelta(hours=-1), given="Carla")
    a_hold(other_team, cost="50.00", pay_within=timedelta(hours=1), given="Outra")
    BookingFactory(client=ClientFactory(team=team), type=Booking.Type.INSTANT)  # not a hold
    BookingFactory(client=ClientFactory(team=team), status=Booking.Status.CONFIRMED)  # paid

    todo = todo_of(team)
    holds = todo["holds"]
    # The overdue one first (the earliest deadline), then the one due in 3 h 20 min.
    assert [r["booking_id"] for r in holds["rows"]] == [late.id, soon.id]
    overdue, due = holds["rows"]
    assert (overdue["countdown"], overdue["overdue"]) == ("vencida", True)
    assert (due["countdown"], due["overdue"]) == ("vence em 3 h 20 min", False)
    assert due["label"] == soon.booking_reference and due["passenger"] == "Bruno Carvalho"
    assert overdue["passenger"] == "Carla Carvalho"
    assert due["url"] == reverse("admin:bookings_booking_change", args=[soon.pk])
    # 612.40 fits in 1000.00, 1200.00 does not, nor does their sum.
    assert (due["covered"], overdue["covered"]) == (True, False)
    assert holds["count"] == 2 and holds["total"] == Decimal("1812.40")
    assert holds["covered"] is False and holds["short"] == Decimal("812.40")
    assert todo["recharge_prompt"] is True and todo["restricted"] is False


def test_a_balance_that_pays_every_hold_asks_for_no_recharge(team, team_owner):
    fund(team, "5000.00")
    a_hold(team, cost="612.40", pay_within=timedelta(hours=20))
    a_hold(team, cost="900.00", pay_within=timedelta(days=2))
    todo = todo_of(team)
    assert todo["holds"]["covered"] is True and todo["holds"]["short"] == 0
    assert all(row["covered"] for row in todo["holds"]["rows"])
    assert todo["recharge_prompt"] is False
    page = browser_for(team_owner).get(HOME).content.decode()
    assert 'id="todo-recharge"' not in page
    assert "o saldo (R$\N{NO-BREAK SPACE}5.000,00) paga todas" in page


def test_an_empty_balance_asks_for_a_recharge(team, team_owner):
    todo = todo_of(team)
    assert todo["holds"]["count"] == 0 and todo["balance"] == 0
    assert todo["recharge_prompt"] is True
    page = browser_for(team_owner).get(HOME).content.decode()
    assert 'id="todo-recharge"' in page and "O saldo está vazio." in page
    assert reverse("docs") in page  # recharges are made through the API: its documentation
    # ...or here: the panel's form.
    assert (
        f'<a href="{reverse("admin:wallet_recharge_add")}" id="todo-recharge-add">Nova recarga</a>'
        in page
    )


def test_a_restricted_wallet_pays_no_hold(team, team_owner):
    fund(team, "5000.00")
    a_hold(team, cost="100.00", pay_within=timedelta(hours=5))
    Wallet.objects.filter(team=team).update(debt=Decimal("300.00"), balance=Decimal("0.00"))
    todo = todo_of(team)
    assert todo["restricted"] is True
    assert todo["holds"]["covered"] is False and not todo["holds"]["rows"][0]["covered"]
    page = browser_for(team_owner).get(HOME).content.decode()
    assert 'id="todo-restricted"' in page and "a carteira está restrita" in page


def test_test_mode_holds_are_checked_against_the_sandbox_balance(team):
    a_hold(team, cost="612.40", pay_within=timedelta(hours=5), live_mode=False)
    todo = todo_of(team, live_mode=False)
    assert [r["covered"] for r in todo["holds"]["rows"]] == [True]
    assert todo["recharge_prompt"] is False  # no wallet to recharge in test mode
    assert todo_of(team)["holds"]["count"] == 0  # and none of it in live data


# --- Failed bookings and airline changes ---------------------------------------------------------


def test_bookings_failed_in_the_last_7_days_say_why(team, team_owner, other_team):
    failed = BookingFactory(
        client=ClientFactory(team=team),
        status=Booking.Status.FAILED,
        failure_reason="issuance_failed: ticketing timeout at GOL",
    )
    BookingPassengerFactory(booking=failed, given_name="Dora", family_name="Lima")
    old = BookingFactory(client=ClientFactory(team=team), status=Booking.Status.FAILED)
    Booking.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(days=8))
    BookingFactory(client=ClientFactory(team=other_team), status=Booking.Status.FAILED)

    failed_list = todo_of(team)["failed"]
    assert failed_list["count"] == 1
    (row,) = failed_list["rows"]
    assert row["label"] == failed.booking_reference and row["passenger"] == "Dora Lima"
    assert row["reason"] == "A companhia aérea não conseguiu emitir os bilhetes."
    page = browser_for(team_owner).get(HOME).content.decode()
    assert "A companhia aérea não conseguiu emitir os bilhetes." in page
    assert f'title="{failed.id}">{failed.booking_reference}</a>' in page
    assert old.booking_reference not in page


def test_airline_changes_left_unanswered_are_to_answer(team, team_owner):
    change = BookingAirlineChangeFactory(booking__client=ClientFactory(team=team))
    BookingPassengerFactory(booking=change.booking, given_name="Eva", family_name="Rocha")
    BookingAirlineChangeFactory(
        booking__client=ClientFactory(team=team),
        action_taken="accept",
        action_taken_at=timezone.now(),
    )
    changes = todo_of(team)["changes"]
    assert [(r["label"], r["passenger"]) for r in changes["rows"]] == [
        (change.booking.booking_reference, "Eva Rocha")
    ]
    assert changes["count"] == 1
    page = browser_for(team_owner).get(HOME).content.decode()
    assert "Alterações da companhia aérea para responder" in page


def test_an_erased_passenger_is_not_named(team):
    hold = a_hold(team, cost="100.00", pay_within=timedelta(hours=5), given=ERASED, family=ERASED)
    (row,) = todo_of(team)["holds"]["rows"]
    assert row["booking_id"] == hold.id and row["passenger"] == "[apagado]"


def test_the_to_do_is_the_agencys_and_on_its_overview_not_supports_home(team, team_owner):
    hold = a_hold(team, cost="100.00", pay_within=timedelta(hours=5))
    assert 'id="todo"' in browser_for(team_owner).get(HOME).content.decode()
    support = browser_for(SupportUserFactory())
    assert 'id="todo"' not in support.get(HOME).content.decode()  # across teams: no to-do
    overview = support.get(reverse("admin:agencies_team_overview", args=[team.pk]))
    body = overview.content.decode()
    assert 'id="todo"' in body and hold.booking_reference in body
    assert f"team__id__exact={team.pk}" in body  # its links are the team's lists


# --- The activity feed ---------------------------------------------------------------------------


def test_the_activity_feed_names_bookings_by_locator_and_passenger(team, team_keys, team_owner):
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    offer = holdable(api)
    people = [passenger(offer["passengers"][0]["id"], given_name="Bruno", family_name="Carvalho")]
    made = book(api, offer, people=people)
    assert made.status_code == 201, made.json()
    booking = Booking.objects.get(pk=made.json()["id"])
    assert booking.booking_reference

    (row,) = [e for e in recent_events(team=team, live_mode=True)["rows"] if e.booking]
    assert row.booking_name == f"{booking.booking_reference} · Bruno Carvalho"
    page = browser_for(team_owner).get(HOME).content.decode()
    feed = page[page.index('id="home-events"') :]
    assert f'title="{booking.id}">{booking.booking_reference} · Bruno Carvalho</a>' in feed
    assert f">{booking.id}<" not in feed  # the id only as the link's title


def test_the_activity_feed_costs_the_same_queries_for_one_booking_or_many(team):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            rows = recent_events(team=team, live_mode=True)["rows"]
        # Every booking event of the page names its booking.
        assert [e.booking_id for e in rows if e.booking] == [
            e.data_object["id"] for e in rows if e.type == "booking.created"
        ]
        return len(captured), sum(1 for e in rows if e.booking)

    def a_booking_event():
        booking = BookingFactory(client=ClientFactory(team=team))
        BookingPassengerFactory(booking=booking)
        record(team, type="booking.created", data={"object": "booking", "id": booking.id})

    a_booking_event()
    one, named = queries()
    assert named == 1
    for _ in range(9):
        a_booking_event()
    many, named = queries()
    assert named > 1 and many == one


def test_the_to_do_links_only_to_pages_the_role_opens(team, team_owner):
    """Finance pays holds but does not open bookings; an agent sells but does not recharge: the
    to-do shows each what it works on, and no link of it answers 403."""
    from agencies.services import agency_user_create
    from panel.roles import TeamRole

    hold = a_hold(team, cost="612.40", pay_within=timedelta(hours=20))
    booking_url = reverse("admin:bookings_booking_change", args=[hold.pk])
    recharge_url = reverse("admin:wallet_recharge_add")

    finance = agency_user_create(team=team, email="fin@alpha.example", role=TeamRole.FINANCE)
    page = browser_for(finance).get(HOME).content.decode()
    assert 'id="todo-holds"' in page and 'id="todo-recharge-add"' in page
    assert booking_url not in page
    assert 'id="todo-failed"' not in page and 'id="todo-changes"' not in page

    agent = agency_user_create(team=team, email="agent@alpha.example", role=TeamRole.AGENT)
    page = browser_for(agent).get(HOME).content.decode()
    assert booking_url in page and 'id="todo-failed"' in page
    assert 'id="todo-recharge-add"' not in page and recharge_url not in page

    developer = agency_user_create(team=team, email="dev@alpha.example", role=TeamRole.DEVELOPER)
    for user in (finance, agent, developer):
        client = browser_for(user)
        links = set(re.findall(r'href="(/admin/[^"]*)"', client.get(HOME).content.decode()))
        refused = [url for url in links if client.get(url).status_code == 403]
        assert refused == [], (user.team_role, refused)
