"""Three panel pages as a person meets them, in a real Chromium set to pt-BR: a pricing change far
from the current values (the fee typed ×10) warned about before it is saved; a paid recharge's
page, read only, titled as people read it and without Save buttons; and the pages of a visitor
who is not logged in (the login, the password reset) without the sidebar. With
PANEL_SCREENSHOTS=docs/screenshots it saves pricing-warning-1440, pricing-warning-390,
recharge-read-only-1440 and password-reset-390."""

from decimal import Decimal

import pytest
from django.urls import reverse

from agencies.models import Team
from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    log_in_as,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.kit.factories import make_team
from wallet.services import recharge_complete, recharge_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def _owner_of_alpha():
    made = make_team("Alpha Viagens", owner_email="ana@alpha.example")
    made.owner.set_password(PASSWORD)
    made.owner.save()
    return made


@pytest.fixture
def wait(browser_pt_br):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])


def test_a_fee_typed_ten_times_over_is_warned_about_before_it_is_saved(
    live_server, browser_pt_br, wait
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    made = _owner_of_alpha()
    Team.objects.filter(pk=made.team.pk).update(fee=Decimal("25.00"))
    log_in_as(live_server, browser_pt_br, wait, "ana@alpha.example")
    open_page(
        live_server, browser_pt_br, wait, reverse("admin:agencies_team_change", args=[made.team.pk])
    )
    fee = browser_pt_br.find_element(By.NAME, "fee")
    fee.clear()
    fee.send_keys("250,00")
    browser_pt_br.find_element(By.NAME, "_save").click()

    warnings = wait.until(EC.presence_of_element_located((By.ID, "pricing-warnings")))
    text = warnings.text.replace("\N{NO-BREAK SPACE}", " ")
    assert "R$ 25,00 para R$ 250,00" in text
    assert "10,0 × a atual" in text
    assert "confira se não é um erro de digitação" in text
    screenshot(browser_pt_br, "pricing-warning-1440", DESKTOP)
    screenshot(browser_pt_br, "pricing-warning-390", PHONE)
    assert Team.objects.get(pk=made.team.pk).fee.amount == Decimal("25.00")  # not saved yet

    browser_pt_br.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist li.success")))
    assert Team.objects.get(pk=made.team.pk).fee.amount == Decimal("250.00")


def test_a_paid_recharges_page_is_read_only_and_titled_for_people(live_server, browser_pt_br, wait):
    from selenium.webdriver.common.by import By

    made = _owner_of_alpha()
    recharge = recharge_create(
        team=made.team, live_mode=True, amount=Decimal("1234.56"), payment_method="pix"
    )
    recharge_complete(recharge=recharge)
    log_in_as(live_server, browser_pt_br, wait, "ana@alpha.example")
    page = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:wallet_recharge_change", args=[recharge.pk]),
    )

    heading = browser_pt_br.find_element(By.CSS_SELECTOR, "#content h1, #content h2").text
    assert "Recarga PIX de R$ 1.234,56 · Concluída" in heading.replace("\N{NO-BREAK SPACE}", " ")
    assert "Recarga PIX de R$ 1.234,56 · Concluída" in browser_pt_br.title.replace(
        "\N{NO-BREAK SPACE}", " "
    )
    assert browser_pt_br.find_elements(By.NAME, "_save") == []
    assert browser_pt_br.find_elements(By.NAME, "_continue") == []
    assert "Salvar" not in page
    screenshot(browser_pt_br, "recharge-read-only-1440", DESKTOP)


def test_pages_for_visitors_who_are_not_logged_in_have_no_sidebar(live_server, browser_pt_br, wait):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser_pt_br.get(live_server.url + reverse("admin:login"))
    wait.until(EC.presence_of_element_located((By.NAME, "username")))
    label = browser_pt_br.find_element(By.CSS_SELECTOR, "label[for=id_username]").text
    assert label.rstrip(":") == "E-mail"
    assert browser_pt_br.find_elements(By.ID, "nav-sidebar") == []

    browser_pt_br.get(live_server.url + reverse("admin_password_reset"))
    wait.until(EC.presence_of_element_located((By.NAME, "email")))
    assert browser_pt_br.find_elements(By.ID, "nav-sidebar") == []
    assert browser_pt_br.find_elements(By.CSS_SELECTOR, "button.toggle-nav-sidebar") == []
    width = browser_pt_br.execute_script("return document.documentElement.scrollWidth")
    browser_pt_br.set_window_size(*PHONE)
    wait.until(lambda b: b.execute_script("return window.innerWidth") <= PHONE[0])
    assert browser_pt_br.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    assert width <= DESKTOP[0]
    screenshot(browser_pt_br, "password-reset-390", PHONE)
