"""The panel as a Brazilian agency user sees it: a real Chromium with a pt-BR language setting.

The page is Portuguese (`lang="pt-br"`, Portuguese menus), times are São Paulo's and say so,
money reads `R$ 1.234,56`, and pricing typed the Brazilian way ("25,50", "8,5") is stored as
meant. With PANEL_SCREENSHOTS=<folder> the test also saves the screenshots of the main pages
(docs/screenshots/ in the README): `PANEL_SCREENSHOTS=docs/screenshots .venv/bin/pytest
tests/test_panel_browser_pt_br.py`.
"""

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from agencies.models import ApiKey
from bookings.models import Booking
from tests.kit.browsers import DESKTOP, PHONE, log_in, needs_chromium, open_page, screenshot
from tests.scenarios import agency_with_a_day_of_work
from wallet.models import Recharge

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_a_brazilian_agency_user_works_in_portuguese_sao_paulo_time_and_reais(
    live_server, browser_pt_br, live_sandbox
):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = agency_with_a_day_of_work()
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in(live_server, browser_pt_br, wait)

    # Home: Portuguese menus.
    home = open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
    assert browser_pt_br.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt-br"
    for menu in ("Reservas", "Carteira", "Recargas", "Movimentações", "Chaves de API", "Webhooks"):
        assert menu in home, menu
    screenshot(browser_pt_br, "home-1440", DESKTOP)
    screenshot(browser_pt_br, "home-390", PHONE)

    # Bookings: status labels in words, money in reais, São Paulo time that says so.
    bookings = open_page(
        live_server, browser_pt_br, wait, reverse("admin:bookings_booking_changelist")
    )
    ticketed = Booking.objects.get(status="ticketed")
    local = timezone.localtime(ticketed.created_at)
    assert f"{local:%d/%m/%Y %H:%M:%S}\nhorário de Brasília" in bookings
    assert "Emitida" in bookings and "Pendente" in bookings
    # The client's price in reais; no cost column for an agency user, no airline currency.
    total = f"{ticketed.client_amount:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    assert f"R$ {total}" in bookings
    headers = [th.text for th in browser_pt_br.find_elements(By.CSS_SELECTOR, "#result_list th")]
    assert [h for h in headers if h][:4] == [
        "LOCALIZADOR",
        "PASSAGEIRO PRINCIPAL",
        "ROTA",
        "PARTIDA",
    ], headers
    assert not any("CUSTO" in h for h in headers)
    row = browser_pt_br.find_element(By.CSS_SELECTOR, "#result_list tbody tr").text
    assert " → " in row  # the route
    assert "Dados reais" in bookings and "Dados de teste" in bookings  # the mode switch
    label = browser_pt_br.find_element(By.CSS_SELECTOR, ".status[data-status=ticketed]")
    assert label.value_of_css_property("background-color") != "rgba(0, 0, 0, 0)"
    amount_cell = browser_pt_br.find_element(By.CSS_SELECTOR, "#result_list td.field-money_client")
    assert amount_cell.value_of_css_property("text-align") == "right"
    screenshot(browser_pt_br, "bookings-1440", DESKTOP)
    screenshot(browser_pt_br, "bookings-390", PHONE)

    # Searching by the agency's own reference (metadata) and by passenger name.
    found = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:bookings_booking_changelist") + "?q=PED-2026-0043",
    )
    assert "Bruno Carvalho" in found and "Ana Souza" not in found

    detail = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:bookings_booking_change", args=[ticketed.pk]),
    )
    assert "Localizador" in detail and "(horário de Brasília)" in detail
    screenshot(browser_pt_br, "booking-detail-1440", DESKTOP)

    recharges = open_page(
        live_server, browser_pt_br, wait, reverse("admin:wallet_recharge_changelist")
    )
    assert "R$ 1.234,56" in recharges and "Concluída" in recharges
    assert "R$ 300,00" not in recharges  # test data is one click away
    screenshot(browser_pt_br, "recharges-1440", DESKTOP)
    screenshot(browser_pt_br, "recharges-390", PHONE)

    transactions = open_page(
        live_server, browser_pt_br, wait, reverse("admin:wallet_transaction_changelist")
    )
    debit = f"-R$ {ticketed.base_cost_brl:,.2f}".replace(",", "X")
    debit = debit.replace(".", ",").replace("X", ".")
    assert debit in transactions and "Débito" in transactions
    screenshot(browser_pt_br, "transactions-1440", DESKTOP)

    endpoint = made.team.webhooks.get()
    webhooks = open_page(
        live_server, browser_pt_br, wait, reverse("admin:webhooks_webhookendpoint_changelist")
    )
    assert "Desativado" in webhooks
    screenshot(browser_pt_br, "webhooks-1440", DESKTOP)
    webhook = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]),
    )
    assert "Ver todos na lista" in webhook
    screenshot(browser_pt_br, "webhook-detail-1440", DESKTOP)
    delivery = endpoint.deliveries.first()
    attempt_page = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:webhooks_delivery_change", args=[delivery.pk]),
    )
    attempted = timezone.localtime(delivery.attempts.get().attempted_at)
    assert f"{attempted:%d/%m/%Y %H:%M:%S} (horário de Brasília)" in attempt_page  # seconds
    screenshot(browser_pt_br, "delivery-detail-1440", DESKTOP)

    keys = open_page(live_server, browser_pt_br, wait, reverse("admin:agencies_apikey_changelist"))
    assert "Ativa" in keys
    screenshot(browser_pt_br, "api-keys-1440", DESKTOP)

    # Team settings: pricing typed the Brazilian way is stored as meant.
    open_page(
        live_server, browser_pt_br, wait, reverse("admin:agencies_team_change", args=[made.team.pk])
    )
    for name, typed in (("fee", "25,50"), ("markup_percent", "8,5")):
        field = browser_pt_br.find_element(By.NAME, name)
        assert field.get_attribute("type") == "text"
        assert field.get_attribute("inputmode") == "decimal"
        field.clear()
        field.send_keys(typed)
    screenshot(browser_pt_br, "team-settings-1440", DESKTOP)
    screenshot(browser_pt_br, "team-settings-390", PHONE)
    browser_pt_br.find_element(By.NAME, "_continue").click()
    # A pricing change is confirmed first, showing the client price before and after.
    wait.until(EC.presence_of_element_located((By.ID, "pricing-change")))
    change = browser_pt_br.find_element(By.ID, "pricing-change").text.replace(
        "\N{NO-BREAK SPACE}", " "
    )
    assert "R$ 1.112,00" in change and "R$ 1.110,50" in change  # before and after
    made.team.refresh_from_db()
    assert made.team.fee.amount == Decimal("12.00")  # not yet
    browser_pt_br.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    made.team.refresh_from_db()
    assert made.team.fee.amount == Decimal("25.50")
    assert made.team.markup_percent == Decimal("8.50")
    assert browser_pt_br.find_element(By.NAME, "fee").get_attribute("value") == "25,50"

    # An ambiguous entry is a form error, not a guess.
    field = browser_pt_br.find_element(By.NAME, "fee")
    field.clear()
    field.send_keys("1.234")
    browser_pt_br.find_element(By.NAME, "_continue").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".errorlist")))
    assert "é ambíguo" in browser_pt_br.find_element(By.CSS_SELECTOR, ".errorlist").text
    made.team.refresh_from_db()
    assert made.team.fee.amount == Decimal("25.50")

    # Revoking a key: a confirmation page first, then the revocation is in the key's history
    # with the user's name.
    from selenium.webdriver.support.ui import Select

    key = ApiKey.objects.get(team=made.team, live_mode=True)
    open_page(live_server, browser_pt_br, wait, reverse("admin:agencies_apikey_changelist"))
    row = next(
        r
        for r in browser_pt_br.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
        if key.display_prefix in r.text
    )
    row.find_element(By.CSS_SELECTOR, "input.action-select").click()
    Select(browser_pt_br.find_element(By.NAME, "action")).select_by_value("revoke")
    browser_pt_br.find_element(By.NAME, "index").click()
    wait.until(EC.presence_of_element_located((By.ID, "confirm-rows")))
    assert "Não há como desfazer" in browser_pt_br.find_element(By.ID, "confirm-rows").text
    screenshot(browser_pt_br, "confirm-revoke-1440", DESKTOP)
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None
    browser_pt_br.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    assert ApiKey.objects.get(pk=key.pk).revoked_at is not None
    open_page(
        live_server, browser_pt_br, wait, reverse("admin:agencies_apikey_history", args=[key.pk])
    )
    newest = browser_pt_br.find_elements(By.CSS_SELECTOR, "#audit-entries tr.audit-entry")[0]
    assert "ana@alpha.example" in newest.find_element(By.CSS_SELECTOR, ".audit-actor").text
    assert "Chave de API revogada" in newest.find_element(By.CSS_SELECTOR, ".audit-action").text
    screenshot(browser_pt_br, "key-history-1440", DESKTOP)

    # The user's own choice of English beats the browser's Portuguese.
    browser_pt_br.find_element(By.CSS_SELECTOR, ".language-switch button[value=en]").click()
    # Read through JavaScript: an element found mid-navigation may go stale.
    wait.until(lambda b: b.execute_script("return document.documentElement.lang") == "en")
    english = open_page(
        live_server, browser_pt_br, wait, reverse("admin:wallet_recharge_changelist")
    )
    assert "R$ 1,234.56" in english and "Completed" in english
    assert Recharge.objects.filter(live_mode=False).exists()
