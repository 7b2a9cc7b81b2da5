"""A wallet in debt after a reversed recharge, in a real Chromium set to pt-BR: the agency user
sees the restriction and the debt on the home page; support finds the wallet in its worklist and
the reversal's page (docs/reversals.md). With PANEL_SCREENSHOTS=docs/screenshots it saves
reversal-home-1440 and reversal-page-1440."""

from decimal import Decimal

import pytest
from django.urls import reverse

from agencies.models import User
from tests.kit.browsers import DESKTOP, PASSWORD, log_in_as, needs_chromium, open_page, screenshot
from tests.kit.factories import make_team
from wallet.models import Reversal
from wallet.providers import ProviderPayment
from wallet.services import (
    recharge_complete,
    recharge_create,
    recharge_reversals_reconcile,
    wallet_debit,
)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def log_out(driver, wait):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    driver.find_element(By.ID, "logout-form").find_element(By.TAG_NAME, "button").click()
    wait.until(EC.url_contains(reverse("admin:logout")))
    wait.until(EC.invisibility_of_element_located((By.ID, "logout-form")))


def a_refunded_agency():
    """Gama Viagens: a PIX of R$ 1.500,00 credited, R$ 1.200,00 spent, then refunded whole."""
    made = make_team("Gama Viagens", owner_email="gil@gama.example", owner_password=PASSWORD)
    recharge = recharge_complete(
        recharge=recharge_create(
            team=made.team, live_mode=True, amount=Decimal("1500.00"), payment_method="pix"
        )
    )
    wallet_debit(
        team=made.team,
        live_mode=True,
        amount=Decimal("1200.00"),
        reference_type="booking",
        reference_id="ord_gama",
        description="Booking ord_gama (LA)",
    )
    reversal = recharge_reversals_reconcile(
        recharge=recharge,
        payment=ProviderPayment(
            id=recharge.provider_charge_id,
            status="REFUNDED",
            state="reversed",
            value=recharge.amount,
            external_reference=recharge.id,
            refunded=recharge.amount,
            reversal_detail="refund 1500.00 DONE 2026-11-28 10:12:00 E2E D0000000000000001",
        ),
        event_type="PAYMENT_REFUNDED",
    ).created
    assert reversal is not None
    return recharge, reversal


def test_a_wallet_in_debt_in_the_panel(live_server, browser_pt_br):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    recharge, reversal = a_refunded_agency()
    User.objects.create_superuser("suporte@agency.example", "suporte@agency.example", PASSWORD)
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])

    # The agency user: restricted, owing R$ 1.200,00.
    log_in_as(live_server, browser_pt_br, wait, "gil@gama.example")
    home = open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
    wait.until(EC.presence_of_element_located((By.ID, "wallet-restricted")))
    banner = browser_pt_br.find_element(By.ID, "wallet-restricted").text.replace("\xa0", " ")
    assert "A carteira deve R$ 1.200,00" in banner and "restrita" in banner
    debt = browser_pt_br.find_element(By.ID, "card-debt").text.replace("\xa0", " ")
    assert "Dívida" in debt and "R$ 1.200,00" in debt and "Restrita" in debt
    assert "R$ 0,00" in browser_pt_br.find_element(By.ID, "card-balance").text.replace("\xa0", " ")
    assert "Precisa de atenção" not in home
    screenshot(browser_pt_br, "reversal-home-1440", DESKTOP)
    log_out(browser_pt_br, wait)

    # Support: the wallet in its worklist, then the reversal's page.
    log_in_as(live_server, browser_pt_br, wait, "suporte@agency.example")
    open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
    wait.until(EC.presence_of_element_located((By.ID, "attention-wallets_in_debt")))
    listed = browser_pt_br.find_element(By.ID, "attention-wallets_in_debt").text
    assert "Carteiras com dívida (restritas)" in listed and "Gama Viagens" in listed
    reversals = browser_pt_br.find_element(By.ID, "attention-reversals").text
    assert recharge.id in reversals and "Estornada" in reversals
    page = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:wallet_reversal_change", args=[reversal.pk]),
    )
    for text in (reversal.id, recharge.id, "Reembolso", "R$ 1.500,00", "R$ 300,00", "R$ 1.200,00"):
        assert text in page, text
    assert "REFUNDED" in page and "PAYMENT_REFUNDED" in page
    screenshot(browser_pt_br, "reversal-page-1440", DESKTOP)
    assert Reversal.objects.count() == 1
