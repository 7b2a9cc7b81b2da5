"""The panel's home page in a real Chromium set to pt-BR: an agency user's day, and support's
worklist across teams with a team's overview (dashboard/display.py). With
PANEL_SCREENSHOTS=docs/screenshots it saves home-1440, home-390, support-home-1440,
team-overview-1440, and the agency's to-do: home-todo-1440 and home-todo-390."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from agencies.models import User
from agencies.tests.factories import ClientFactory
from bookings.models import Booking
from bookings.tests.factories import (
    BookingAirlineChangeFactory,
    BookingFactory,
    BookingPassengerFactory,
)
from bookings.tests.helpers import book, offers
from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    log_in_as,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.kit.factories import fund, make_team
from tests.kit.passengers import passenger
from tests.scenarios import agency_with_a_day_of_work
from wallet.models import Recharge, Wallet
from wallet.services import recharge_complete, recharge_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def brl(amount: Decimal) -> str:
    text = f"{amount:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return f"R$ {text}"


def a_second_team_with_problems():
    """Beta Tours: a recharge paid after it expired and a booking that failed at issuance."""
    made = make_team("Beta Tours", owner_email="bia@beta.example")
    fund(made.team, "8000.00")
    late = recharge_create(
        team=made.team, live_mode=True, amount=Decimal("750.00"), payment_method="pix"
    )
    # Created three hours ago, expired 30 minutes later, paid now.
    earlier = timezone.now() - timedelta(hours=3)
    Recharge.objects.filter(pk=late.pk).update(
        created_at=earlier, expires_at=earlier + timedelta(minutes=30)
    )
    recharge_complete(recharge=late)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    offer = offers(api)[0]
    people = [passenger(offer["passengers"][0]["id"], family_name="Issuancefail")]
    assert book(api, offer, type="instant", people=people).json()["status"] == "failed"
    return made, late


def test_the_home_page_as_an_agency_user_and_as_support(live_server, browser_pt_br, live_sandbox):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    alpha = agency_with_a_day_of_work()
    beta, late = a_second_team_with_problems()
    User.objects.create_superuser("suporte@agency.example", "suporte@agency.example", PASSWORD)
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])

    # The agency user: their team's day, in Portuguese and reais, live data first.
    log_in_as(live_server, browser_pt_br, wait, "ana@alpha.example")
    home = open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
    wait.until(EC.presence_of_element_located((By.ID, "figures")))
    balance = Wallet.objects.get(team=alpha.team).balance
    card = browser_pt_br.find_element(By.ID, "card-balance").text.replace("\N{NO-BREAK SPACE}", " ")
    assert "Saldo" in card and brl(balance) in card
    for text in ("Crédito disponível", "Reservas em espera", "Recargas pendentes", "Hoje"):
        assert text in home, text
    assert "R$ 500,00" in home  # the boleto awaiting payment
    assert "https://hooks.alpha.example/agency" in home and "Desativado" in home
    assert "Beta Tours" not in home and "Precisa de atenção" not in home
    assert "Todas as páginas do painel" in home and "Movimentações" in home  # the app list
    screenshot(browser_pt_br, "home-1440", DESKTOP)
    screenshot(browser_pt_br, "home-390", PHONE)

    # The live/test switch.
    browser_pt_br.find_element(By.LINK_TEXT, "Dados de teste").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#home[data-mode=test]")))
    card = browser_pt_br.find_element(By.ID, "card-balance").text.replace("\N{NO-BREAK SPACE}", " ")
    assert "R$ 5.000,00" in card
    browser_pt_br.find_element(By.ID, "logout-form").find_element(By.TAG_NAME, "button").click()
    # The logged-out page has replaced this one (the session is over): only then may the login
    # page be asked for, or it would send a still-logged-in user to the home page. Waited for by
    # the address, not by asking the old page's form whether it is stale: while Chromium swaps
    # documents that question can fail ("Node with given id does not belong to the document").
    wait.until(EC.url_contains(reverse("admin:logout")))
    wait.until(EC.invisibility_of_element_located((By.ID, "logout-form")))

    # Support: what needs attention first, across teams.
    log_in_as(live_server, browser_pt_br, wait, "suporte@agency.example")
    home = open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
    wait.until(EC.presence_of_element_located((By.ID, "attention")))
    failed = Booking.objects.get(team=beta.team, status="failed")
    attention = browser_pt_br.find_element(By.ID, "attention").text
    assert "Precisa de atenção" in home
    assert late.id in attention and (failed.booking_reference or failed.id) in attention
    assert "https://hooks.alpha.example/agency" in attention  # disabled after failures
    assert "Alpha Travel" in attention and "Beta Tours" in attention
    screenshot(browser_pt_br, "support-home-1440", DESKTOP)

    # A team's overview, from the attention list's team link.
    browser_pt_br.find_element(By.ID, "attention-late_recharges").find_element(
        By.LINK_TEXT, "Beta Tours"
    ).click()
    wait.until(EC.presence_of_element_located((By.ID, "overview-bookings")))
    overview = browser_pt_br.find_element(By.TAG_NAME, "body").text.replace(
        "\N{NO-BREAK SPACE}", " "
    )
    assert "Visão geral: Beta Tours" in overview
    assert "bia@beta.example" in overview and "Alpha Travel" not in overview
    assert brl(Wallet.objects.get(team=beta.team).balance) in overview
    screenshot(browser_pt_br, "team-overview-1440", DESKTOP)


def to_do_of(team):
    """Alpha's to-do: a hold the balance cannot pay (due in 3 h 20 min), one overdue, a booking
    that failed at issuance and an airline change unanswered, each with its lead passenger."""

    def named(booking, given, family):
        BookingPassengerFactory(booking=booking, given_name=given, family_name=family)
        return booking

    client = ClientFactory(team=team)
    big = named(
        BookingFactory(
            client=client,
            booking_reference="QX7PLM",
            base_cost_brl=Decimal("31450.90"),
            payment_required_by=timezone.now() + timedelta(hours=3, minutes=20, seconds=40),
        ),
        "Helena",
        "Duarte",
    )
    overdue = named(
        BookingFactory(
            client=client,
            booking_reference="ZK2RTA",
            payment_required_by=timezone.now() - timedelta(minutes=25),
        ),
        "Otávio",
        "Mendes",
    )
    failed = named(
        BookingFactory(
            client=client,
            booking_reference="",
            status=Booking.Status.FAILED,
            failure_reason="issuance_failed: ticketing timeout",
        ),
        "Dora",
        "Lima",
    )
    change = BookingAirlineChangeFactory(
        booking__client=client, booking__booking_reference="GH4KWB"
    )
    named(change.booking, "Eva", "Rocha")
    return big, overdue, failed, change.booking


def test_the_agencys_to_do_in_portuguese(live_server, browser_pt_br, live_sandbox):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    alpha = agency_with_a_day_of_work()
    big, overdue, failed, changed = to_do_of(alpha.team)
    wait = WebDriverWait(browser_pt_br, 20)
    log_in_as(live_server, browser_pt_br, wait, "ana@alpha.example")
    home = open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
    wait.until(EC.presence_of_element_located((By.ID, "todo")))
    assert home.index("A fazer") < home.index("Saldo")  # the to-do first

    holds = browser_pt_br.find_element(By.ID, "todo-holds").text.replace("\N{NO-BREAK SPACE}", " ")
    assert "Reservas em espera a pagar" in holds
    assert re.search(r"QX7PLM\s+Helena Duarte\s+vence em 3 h (20|19) min", holds), holds
    assert overdue.booking_reference in holds and "Otávio Mendes" in holds and "vencida" in holds
    assert "horário de Brasília" in holds and "R$ 31.450,90" in holds
    assert "Saldo insuficiente" in holds and "O saldo paga" in holds
    balance = Wallet.objects.get(team=alpha.team).balance
    assert f"o saldo ({brl(balance)}) não paga todas" in holds
    prompt = browser_pt_br.find_element(By.ID, "todo-recharge").text.replace(
        "\N{NO-BREAK SPACE}", " "
    )
    assert "O saldo não paga as reservas em espera" in prompt and "R$ 500,00" in prompt
    assert "Como recarregar (documentação da API)" in prompt
    failed_card = browser_pt_br.find_element(By.ID, "todo-failed").text
    assert failed.id in failed_card and "Dora Lima" in failed_card  # no locator: the id
    assert "A companhia aérea não conseguiu emitir os bilhetes." in failed_card
    changes = browser_pt_br.find_element(By.ID, "todo-changes").text
    assert changed.booking_reference in changes and "Eva Rocha" in changes
    # The feed names the hold booked through the API by its locator and its passenger.
    hold = Booking.objects.get(
        team=alpha.team, live_mode=True, supplier="sandbox", passengers__given_name="Bruno"
    )
    feed = browser_pt_br.find_element(By.ID, "home-events")
    assert f"{hold.booking_reference} · Bruno Carvalho" in feed.text and "ord_" not in feed.text
    screenshot(browser_pt_br, "home-todo-1440", DESKTOP)
    screenshot(browser_pt_br, "home-todo-390", PHONE)

    # Each hold links to its booking's page.
    browser_pt_br.find_element(By.ID, "todo-holds").find_element(By.LINK_TEXT, "QX7PLM").click()
    wait.until(EC.url_contains(reverse("admin:bookings_booking_change", args=[big.pk])))
    wait.until(EC.presence_of_element_located((By.ID, "footer")))
    assert "QX7PLM" in browser_pt_br.find_element(By.TAG_NAME, "body").text
