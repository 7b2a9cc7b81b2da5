"""The panel as a Brazilian agency user sees it: a real Chromium with a pt-BR language setting.

The page is Portuguese (`lang="pt-br"`, Portuguese menus), times are São Paulo's and say so,
money reads `R$ 1.234,56`, and pricing typed the Brazilian way ("25,50", "8,5") is stored as
meant. With PANEL_SCREENSHOTS=<folder> the test also saves the screenshots of the main pages
(docs/screenshots/ in the README): `PANEL_SCREENSHOTS=docs/screenshots .venv/bin/pytest
tests/test_panel_browser_pt_br.py`.
"""

import os
import shutil
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from agencies.models import ApiKey, Team
from agencies.tests.factories import make_team
from bookings.models import Booking
from bookings.tests.test_create import book, holdable, person
from wallet.models import Recharge
from wallet.services import recharge_complete, recharge_create
from wallet.tests.factories import fund
from webhooks.models import Delivery, DeliveryAttempt, Event
from webhooks.tests.factories import make_endpoint

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = [
    pytest.mark.skipif(
        not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
        reason="needs Debian's chromium and chromium-driver (installed by .ci/run)",
    ),
    pytest.mark.django_db(transaction=True),
]
PASSWORD = "correct horse battery staple"
DESKTOP, PHONE = (1440, 900), (390, 844)


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--lang=pt-BR",
        "--hide-scrollbars",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
    ):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "pt-BR,pt"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def agency_with_a_day_of_work():
    """Alpha Travel after a day: recharges, bookings, a webhook with many deliveries."""
    made = make_team(
        "Alpha Travel",
        owner_email="ana@alpha.example",
        owner_password=PASSWORD,
        fee=Decimal("12.00"),
        markup_percent=Decimal("10.00"),
    )
    Team.objects.filter(pk=made.team.pk).update(tax_id="12.345.678/0001-95")
    fund(made.team, "25000.00")
    paid = recharge_create(
        team=made.team, live_mode=True, amount=Decimal("1234.56"), payment_method="pix"
    )
    recharge_complete(recharge=paid)
    recharge_create(
        team=made.team, live_mode=True, amount=Decimal("500.00"), payment_method="boleto"
    )
    recharge_create(team=made.team, live_mode=False, amount=Decimal("300.00"), payment_method="pix")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    offer = holdable(api)
    made_ok = book(api, offer, type="instant", metadata={"client_reference": "PED-2026-0042"})
    assert made_ok.status_code == 201, made_ok.json()
    offer = holdable(api, origin="CGH", destination="SDU")
    made_ok = book(
        api,
        offer,
        people=[person(offer["passengers"][0]["id"], given="Bruno", family="Carvalho")],
        metadata={"client_reference": "PED-2026-0043"},
    )
    assert made_ok.status_code == 201, made_ok.json()
    # A webhook with more deliveries than a page should ever load at once.
    endpoint = make_endpoint(
        made.team,
        "https://hooks.alpha.example/agency",
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now(),
    )
    events = list(Event.objects.filter(team=made.team, live_mode=True))
    deliveries = Delivery.objects.bulk_create(
        [
            Delivery(
                event=events[i % len(events)] if i < len(events) else None,
                endpoint=endpoint,
                status=Delivery.Status.FAILED,
                attempt_count=1,
            )
            for i in range(len(events))
        ]
    )
    now = timezone.now()
    DeliveryAttempt.objects.bulk_create(
        [
            DeliveryAttempt(
                delivery=d,
                number=1,
                attempted_at=now - timedelta(seconds=n),
                succeeded=False,
                status_code=500,
                duration_ms=120,
            )
            for n, d in enumerate(deliveries)
        ]
    )
    return made


def log_in(live_server, browser, wait):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser.get(live_server.url + reverse("admin:login"))
    wait.until(EC.presence_of_element_located((By.NAME, "username")))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt-br"
    browser.find_element(By.NAME, "username").send_keys("ana@alpha.example")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))


def open_page(live_server, browser, wait, url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser.get(live_server.url + url)
    wait.until(EC.presence_of_element_located((By.ID, "footer")))
    # Money is written with a no-break space (`R$ 1.234,56` never wraps); compare on words.
    return browser.find_element(By.TAG_NAME, "body").text.replace("\N{NO-BREAK SPACE}", " ")


def screenshot(browser, name, size):
    folder = os.environ.get("PANEL_SCREENSHOTS")
    if not folder:
        return
    width, height = size
    browser.set_window_size(width, height)
    full = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(width, min(max(full, height), 2400))
    Path(folder).mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(Path(folder) / f"{name}.png"))
    browser.set_window_size(*DESKTOP)


def test_a_brazilian_agency_user_works_in_portuguese_sao_paulo_time_and_reais(
    live_server, browser, live_sandbox
):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = agency_with_a_day_of_work()
    wait = WebDriverWait(browser, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in(live_server, browser, wait)

    # Home: Portuguese menus.
    home = open_page(live_server, browser, wait, reverse("admin:index"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt-br"
    for menu in ("Reservas", "Carteira", "Recargas", "Movimentações", "Chaves de API", "Webhooks"):
        assert menu in home, menu
    screenshot(browser, "home-1440", DESKTOP)
    screenshot(browser, "home-390", PHONE)

    # Bookings: status labels in words, money in reais, São Paulo time that says so.
    bookings = open_page(live_server, browser, wait, reverse("admin:bookings_booking_changelist"))
    ticketed = Booking.objects.get(status="ticketed")
    local = timezone.localtime(ticketed.created_at)
    assert f"{local:%d/%m/%Y %H:%M:%S}\nhorário de Brasília" in bookings
    assert "Emitida" in bookings and "Pendente" in bookings
    total = f"{ticketed.total_amount:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    assert f"R$ {total}" in bookings
    assert "Dados reais" in bookings and "Dados de teste" in bookings  # the mode switch
    label = browser.find_element(By.CSS_SELECTOR, ".status[data-status=ticketed]")
    assert label.value_of_css_property("background-color") != "rgba(0, 0, 0, 0)"
    amount_cell = browser.find_element(By.CSS_SELECTOR, "#result_list td.field-money_total")
    assert amount_cell.value_of_css_property("text-align") == "right"
    screenshot(browser, "bookings-1440", DESKTOP)
    screenshot(browser, "bookings-390", PHONE)

    # Searching by the agency's own reference (metadata) and by passenger name.
    found = open_page(
        live_server,
        browser,
        wait,
        reverse("admin:bookings_booking_changelist") + "?q=PED-2026-0043",
    )
    assert "Bruno Carvalho" in found and "Ana Souza" not in found

    detail = open_page(
        live_server,
        browser,
        wait,
        reverse("admin:bookings_booking_change", args=[ticketed.pk]),
    )
    assert "Localizador" in detail and "(horário de Brasília)" in detail
    screenshot(browser, "booking-detail-1440", DESKTOP)

    recharges = open_page(live_server, browser, wait, reverse("admin:wallet_recharge_changelist"))
    assert "R$ 1.234,56" in recharges and "Concluída" in recharges
    assert "R$ 300,00" not in recharges  # test data is one click away
    screenshot(browser, "recharges-1440", DESKTOP)
    screenshot(browser, "recharges-390", PHONE)

    transactions = open_page(
        live_server, browser, wait, reverse("admin:wallet_transaction_changelist")
    )
    debit = f"-R$ {ticketed.base_cost_brl:,.2f}".replace(",", "X")
    debit = debit.replace(".", ",").replace("X", ".")
    assert debit in transactions and "Débito" in transactions
    screenshot(browser, "transactions-1440", DESKTOP)

    endpoint = made.team.webhooks.get()
    webhooks = open_page(
        live_server, browser, wait, reverse("admin:webhooks_webhookendpoint_changelist")
    )
    assert "Desativado" in webhooks
    screenshot(browser, "webhooks-1440", DESKTOP)
    webhook = open_page(
        live_server,
        browser,
        wait,
        reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]),
    )
    assert "Ver todos na lista" in webhook
    screenshot(browser, "webhook-detail-1440", DESKTOP)
    delivery = endpoint.deliveries.first()
    attempt_page = open_page(
        live_server, browser, wait, reverse("admin:webhooks_delivery_change", args=[delivery.pk])
    )
    attempted = timezone.localtime(delivery.attempts.get().attempted_at)
    assert f"{attempted:%d/%m/%Y %H:%M:%S} (horário de Brasília)" in attempt_page  # seconds
    screenshot(browser, "delivery-detail-1440", DESKTOP)

    keys = open_page(live_server, browser, wait, reverse("admin:agencies_apikey_changelist"))
    assert "Ativa" in keys
    screenshot(browser, "api-keys-1440", DESKTOP)

    # Team settings: pricing typed the Brazilian way is stored as meant.
    open_page(
        live_server, browser, wait, reverse("admin:agencies_team_change", args=[made.team.pk])
    )
    for name, typed in (("fee", "25,50"), ("markup_percent", "8,5")):
        field = browser.find_element(By.NAME, name)
        assert field.get_attribute("type") == "text"
        assert field.get_attribute("inputmode") == "decimal"
        field.clear()
        field.send_keys(typed)
    screenshot(browser, "team-settings-1440", DESKTOP)
    screenshot(browser, "team-settings-390", PHONE)
    browser.find_element(By.NAME, "_continue").click()
    # A pricing change is confirmed first, showing the client price before and after.
    wait.until(EC.presence_of_element_located((By.ID, "pricing-change")))
    change = browser.find_element(By.ID, "pricing-change").text.replace("\N{NO-BREAK SPACE}", " ")
    assert "R$ 1.112,00" in change and "R$ 1.110,50" in change  # before and after
    made.team.refresh_from_db()
    assert made.team.fee.amount == Decimal("12.00")  # not yet
    browser.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    made.team.refresh_from_db()
    assert made.team.fee.amount == Decimal("25.50")
    assert made.team.markup_percent == Decimal("8.50")
    assert browser.find_element(By.NAME, "fee").get_attribute("value") == "25,50"

    # An ambiguous entry is a form error, not a guess.
    field = browser.find_element(By.NAME, "fee")
    field.clear()
    field.send_keys("1.234")
    browser.find_element(By.NAME, "_continue").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".errorlist")))
    assert "é ambíguo" in browser.find_element(By.CSS_SELECTOR, ".errorlist").text
    made.team.refresh_from_db()
    assert made.team.fee.amount == Decimal("25.50")

    # Revoking a key: a confirmation page first, then the revocation is in the key's history
    # with the user's name.
    from selenium.webdriver.support.ui import Select

    key = ApiKey.objects.get(team=made.team, live_mode=True)
    open_page(live_server, browser, wait, reverse("admin:agencies_apikey_changelist"))
    row = next(
        r
        for r in browser.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
        if key.display_prefix in r.text
    )
    row.find_element(By.CSS_SELECTOR, "input.action-select").click()
    Select(browser.find_element(By.NAME, "action")).select_by_value("revoke")
    browser.find_element(By.NAME, "index").click()
    wait.until(EC.presence_of_element_located((By.ID, "confirm-rows")))
    assert "Não há como desfazer" in browser.find_element(By.ID, "confirm-rows").text
    screenshot(browser, "confirm-revoke-1440", DESKTOP)
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None
    browser.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    assert ApiKey.objects.get(pk=key.pk).revoked_at is not None
    open_page(live_server, browser, wait, reverse("admin:agencies_apikey_history", args=[key.pk]))
    newest = browser.find_elements(By.CSS_SELECTOR, "#audit-entries tr.audit-entry")[0]
    assert "ana@alpha.example" in newest.find_element(By.CSS_SELECTOR, ".audit-actor").text
    assert "Chave de API revogada" in newest.find_element(By.CSS_SELECTOR, ".audit-action").text
    screenshot(browser, "key-history-1440", DESKTOP)

    # The user's own choice of English beats the browser's Portuguese.
    browser.find_element(By.CSS_SELECTOR, ".language-switch button[value=en]").click()
    # Read through JavaScript: an element found mid-navigation may go stale.
    wait.until(lambda b: b.execute_script("return document.documentElement.lang") == "en")
    english = open_page(live_server, browser, wait, reverse("admin:wallet_recharge_changelist"))
    assert "R$ 1,234.56" in english and "Completed" in english
    assert Recharge.objects.filter(live_mode=False).exists()
