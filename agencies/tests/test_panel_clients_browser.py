"""In a real Chromium set to pt-BR: an agency user adds a client with a CPF typed with a wrong
digit, reads the Portuguese error, corrects it, and finds the client in the list by the CPF's
digits and by the name without its accent; the list and the form show the CPF formatted. With
PANEL_SCREENSHOTS=<folder> it saves the form and the list at desktop and phone widths."""

import pytest
from django.urls import reverse

from agencies.models import Client
from tests.kit.browsers import DESKTOP, PASSWORD, PHONE, log_in, needs_chromium, open_page
from tests.kit.browsers import screenshot as take_screenshot
from tests.kit.factories import make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_an_agency_user_adds_and_finds_a_client_in_portuguese(live_server, browser_pt_br):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in(live_server, browser_pt_br, wait)

    form = open_page(live_server, browser_pt_br, wait, reverse("admin:agencies_client_add"))
    for label in ("CPF ou CNPJ", "Endereço", "CEP", "Logradouro", "Bairro", "Metadados"):
        assert label in form, label
    typed = {
        "full_name": "João da Silva",
        "email": "joao@empresa.example",
        "phone_number": "+55 (11) 98765-4321",
        "tax_id": "390.533.447-06",  # a wrong check digit
        "postal_code": "01310-100",
        "street": "Avenida Paulista",
        "street_number": "1578",
        "district": "Bela Vista",
        "city": "São Paulo",
        "state": "SP",
        "metadata": '{"crm_id": "C-1029"}',
    }
    for name, value in typed.items():
        browser_pt_br.find_element(By.NAME, name).send_keys(value)
    browser_pt_br.find_element(By.NAME, "live_mode").click()
    browser_pt_br.find_element(By.NAME, "_save").click()

    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".errorlist")))
    errors = browser_pt_br.find_element(By.CSS_SELECTOR, ".field-tax_id .errorlist").text
    assert errors == "CPF ou CNPJ inválido: confira os dígitos (11 num CPF, 14 num CNPJ)."
    take_screenshot(browser_pt_br, "client-form-error-1440", DESKTOP)
    field = browser_pt_br.find_element(By.NAME, "tax_id")
    field.clear()
    field.send_keys("390.533.447-05")
    browser_pt_br.find_element(By.NAME, "_save").click()

    wait.until(EC.presence_of_element_located((By.ID, "result_list")))
    client = Client.objects.get(team=made.team)
    assert (client.tax_id, client.phone_number, client.live_mode) == (
        "39053344705",
        "+5511987654321",
        True,
    )
    for term in ("39053344705", "joao"):
        listed = open_page(
            live_server,
            browser_pt_br,
            wait,
            reverse("admin:agencies_client_changelist") + f"?q={term}",
        )
        assert "João da Silva" in listed and "390.533.447-05" in listed, term
    take_screenshot(browser_pt_br, "clients-1440", DESKTOP)
    take_screenshot(browser_pt_br, "clients-390", PHONE)

    page = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:agencies_client_change", args=[client.pk]),
    )
    assert browser_pt_br.find_element(By.NAME, "tax_id").get_attribute("value") == (
        "390.533.447-05"
    )
    assert browser_pt_br.find_element(By.NAME, "postal_code").get_attribute("value") == (
        "01310-100"
    )
    assert "Criado a partir de uma reserva" in page
    take_screenshot(browser_pt_br, "client-1440", DESKTOP)
    take_screenshot(browser_pt_br, "client-390", PHONE)
