"""Recharges created in the panel as a Brazilian agency user does it, in a real Chromium asking
for pt-BR: the form, the PIX's QR code and its copy button ("Copiado", the code in the
clipboard), the boleto's linha digitável and its PDF, and a paid PIX's payer and end-to-end
id; no Content-Security-Policy violation on the way. With PANEL_SCREENSHOTS=<folder> it saves
`recharge-new-*`, `recharge-pix-*`, `recharge-boleto-*` and `recharge-paid-*` at 1440 and 390
pixels wide (docs/screenshots/)."""

import subprocess

import pytest
import requests
from django.test import Client
from django.urls import reverse

from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    console_errors,
    log_in,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.kit.factories import make_team
from wallet.models import Recharge
from wallet.tests.asaas import (
    END_TO_END_ID,
    TEAM_CNPJ,
    add_pix_transaction,
    add_read_back,
    event_body,
    notify,
    pending_recharge,
)

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
PDFTOTEXT = "/usr/bin/pdftotext"


def csp_violations(browser) -> list[str]:
    return [e for e in console_errors(browser) if "Content Security Policy" in e]


def fill_and_send(browser, wait, *, method: str, amount: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser.find_element(By.CSS_SELECTOR, f"input[name=payment_method][value={method}]").click()
    amount_input = browser.find_element(By.NAME, "amount")
    amount_input.clear()
    amount_input.send_keys(amount)
    browser.find_element(By.ID, "recharge-submit").click()
    wait.until(EC.presence_of_element_located((By.ID, "recharge-payment")))


def test_an_agency_user_creates_recharges_and_pays_them_from_the_panel(
    live_server, browser_pt_br, asaas
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    team = make_team(
        "Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD, tax_id=TEAM_CNPJ
    ).team
    asaas.add_passthru(live_server.url)  # the panel itself, asked for the boleto's PDF
    browser = browser_pt_br
    wait = WebDriverWait(browser, 20)
    # The clipboard, as a person's browser allows it after a click on the page's own button.
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {
            "origin": live_server.url,
            "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
        },
    )
    log_in(live_server, browser, wait)
    console_errors(browser)  # what the login left

    # From the test-data list: the form starts on test mode.
    open_page(
        live_server, browser, wait, reverse("admin:wallet_recharge_changelist") + "?mode=test"
    )
    add = browser.find_element(By.CSS_SELECTOR, ".object-tools a.addlink")
    assert add.text.lower().startswith("adicionar")
    add.click()
    wait.until(EC.presence_of_element_located((By.ID, "recharge-form")))
    form = browser.find_element(By.TAG_NAME, "body").text.replace("\N{NO-BREAK SPACE}", " ")
    assert "Nova recarga" in form and "De R$ 100,00 a R$ 50.000,00 por recarga" in form
    assert browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=test]").is_selected()
    screenshot(browser, "recharge-new-1440", DESKTOP)
    screenshot(browser, "recharge-new-390", PHONE)

    # Below the minimum: said next to the amount, nothing created.
    browser.find_element(By.NAME, "amount").send_keys("50")
    browser.find_element(By.ID, "recharge-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".field-amount .errorlist")))
    assert "O mínimo é R$ 100,00." in browser.find_element(By.CSS_SELECTOR, ".errorlist").text
    assert not Recharge.objects.exists()

    # A PIX of R$ 1.234,56: its QR code, and the copy button puts the code in the clipboard.
    fill_and_send(browser, wait, method="pix", amount="1.234,56")
    recharge = Recharge.objects.get()
    title = browser.title.replace("\N{NO-BREAK SPACE}", " ")
    assert title.startswith("Recarga PIX de R$ 1.234,56 · Pendente")
    qr = browser.find_element(By.ID, "pix-qr")
    assert qr.get_attribute("src").startswith("data:image/png;base64,")
    assert browser.execute_script("return arguments[0].naturalWidth", qr) > 0  # it loaded
    code = browser.find_element(By.ID, "pix-copy-paste").text
    assert code == recharge.pix_copy_paste
    copy = browser.find_element(By.ID, "pix-copy")
    assert copy.text == "Copiar o código"
    copy.click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "pix-copy"), "Copiado"))
    clipboard = browser.execute_async_script(
        "navigator.clipboard.readText().then(arguments[0], e => arguments[0]('error: ' + e))"
    )
    assert clipboard == recharge.pix_copy_paste
    screenshot(browser, "recharge-pix-1440", DESKTOP)
    screenshot(browser, "recharge-pix-390", PHONE)
    assert csp_violations(browser) == []

    # A boleto of R$ 250,00: its linha digitável to copy and its PDF.
    open_page(live_server, browser, wait, reverse("admin:wallet_recharge_add"))
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=test]").click()
    fill_and_send(browser, wait, method="boleto", amount="250")
    boleto = Recharge.objects.get(payment_method="boleto")
    assert browser.find_element(By.ID, "boleto-linha").text == boleto.boleto_linha_digitavel
    browser.find_element(By.ID, "boleto-copy").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "boleto-copy"), "Copiado"))
    link = browser.find_element(By.ID, "boleto-pdf")
    assert link.text == "Abrir o boleto (PDF)"
    screenshot(browser, "recharge-boleto-1440", DESKTOP)
    screenshot(browser, "recharge-boleto-390", PHONE)
    assert csp_violations(browser) == []
    # The link is the payer's: it opens without the panel's session (its token).
    pdf = requests.get(link.get_attribute("href"), timeout=10)
    assert pdf.status_code == 200 and pdf.headers["Content-Type"] == "application/pdf"
    text = subprocess.run(  # noqa: S603 (a fixed program, a PDF we made)
        [PDFTOTEXT, "-layout", "-", "-"], input=pdf.content, capture_output=True, check=True
    ).stdout.decode()
    assert boleto.boleto_linha_digitavel in text
    link.click()  # in a new tab, as the panel opens it
    wait.until(lambda b: len(b.window_handles) == 2)
    browser.switch_to.window(browser.window_handles[1])
    wait.until(lambda b: "/pdf" in b.current_url)
    browser.close()
    browser.switch_to.window(browser.window_handles[0])

    # A live PIX paid through Asaas: the notification, the read back, and who paid.
    paid = pending_recharge(asaas, team, amount="1234.56")
    add_read_back(asaas, paid, pix_transaction="35363f6e-93e2-11ec-b9d9-96f4053b1bd4")
    add_pix_transaction(asaas, paid, payer_tax_id="39053344705")
    notify(Client(), event_body(paid))
    page = open_page(
        live_server, browser, wait, reverse("admin:wallet_recharge_change", args=[paid.pk])
    )
    assert "Recarga PIX de R$ 1.234,56 · Concluída" in page
    assert "Maria Souza · ***.533.447-**" in page and END_TO_END_ID in page
    assert "Como pagar" not in page
    screenshot(browser, "recharge-paid-1440", DESKTOP)
    screenshot(browser, "recharge-paid-390", PHONE)
    assert csp_violations(browser) == []
