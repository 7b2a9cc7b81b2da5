"""Withdrawals in the panel as a Brazilian agency user sees them, in a real Chromium asking for
pt-BR: the payout key typed the way people write a CNPJ, the confirmation page that says where
the money will go, and the withdrawals list in reais with their statuses in words. With
PANEL_SCREENSHOTS=<folder> it saves `payout-key-confirm-1440.png` and `withdrawals-1440.png`
(docs/screenshots/)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.kit.browsers import DESKTOP, PASSWORD, log_in, needs_chromium, open_page, screenshot
from tests.kit.factories import fund, make_team
from wallet.models import PayoutKey
from wallet.services import withdrawal_create
from wallet.tests.asaas import TEAM_CNPJ

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_an_agency_user_registers_the_payout_key_and_follows_the_withdrawals(
    live_server, browser_pt_br
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait

    team = make_team(
        "Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD, tax_id=TEAM_CNPJ
    ).team
    fund(team, "1000.00")
    wait = WebDriverWait(browser_pt_br, 20)
    log_in(live_server, browser_pt_br, wait)

    form = open_page(live_server, browser_pt_br, wait, reverse("admin:wallet_payoutkey_add"))
    assert "Chave PIX" in form and "Tipo de chave" in form
    Select(browser_pt_br.find_element(By.NAME, "key_type")).select_by_value("cnpj")
    browser_pt_br.find_element(By.NAME, "key").send_keys(TEAM_CNPJ)
    browser_pt_br.find_element(By.NAME, "_save").click()
    wait.until(EC.presence_of_element_located((By.ID, "confirm-question")))
    page = browser_pt_br.find_element(By.TAG_NAME, "body").text
    assert "Todo saque de Alpha Travel a partir de agora é enviado por PIX para esta chave" in page
    assert "CNPJ 11222333000181" in page and TEAM_CNPJ in page
    assert not PayoutKey.objects.exists()  # nothing saved before the confirmation
    screenshot(browser_pt_br, "payout-key-confirm-1440", DESKTOP)
    browser_pt_br.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".messagelist")))
    assert PayoutKey.objects.get(team=team).key == "11222333000181"

    # Two withdrawals the sandbox settles at once: one completed, one failed (cents 66).
    withdrawal_create(team=team, live_mode=True, amount=Decimal("300.00"))
    withdrawal_create(team=team, live_mode=True, amount=Decimal("120.66"))
    listed = open_page(
        live_server, browser_pt_br, wait, reverse("admin:wallet_withdrawal_changelist")
    )
    assert "Concluído" in listed and "Falhou" in listed
    assert "R$ 300,00" in listed and "R$ 120,66" in listed
    assert "horário de Brasília" in listed
    screenshot(browser_pt_br, "withdrawals-1440", DESKTOP)
