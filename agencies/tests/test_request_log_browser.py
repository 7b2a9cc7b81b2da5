"""The API request log as a Brazilian agency developer uses it: a real Chromium in pt-BR, the
team's requests in Brasília time, an error's request id found by the search box, the status
filter. With PANEL_SCREENSHOTS=docs/screenshots it saves request-log-1440/390 and
request-log-detail-1440."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from agencies.models import ApiRequest
from agencies.request_log import request_log_discard, request_log_flush
from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    log_in,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.kit.factories import fund, make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def listed(count: int):
    """A wait condition: the list shows `count` rows."""
    from selenium.webdriver.common.by import By

    rows = (By.CSS_SELECTOR, "#result_list tbody tr")
    return lambda driver: len(driver.find_elements(*rows)) == count


def test_a_developer_finds_an_errors_request_by_its_id(live_server, browser_pt_br):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    fund(made.team, "100.00")
    request_log_discard()
    live, test = APIClient(), APIClient()
    live.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    test.credentials(HTTP_AUTHORIZATION=f"Bearer {made.test_key}")
    for _ in range(3):
        live.get("/api/v1/wallet/balance")
    live.get("/api/v1/bookings?status=ticketed")
    test.get("/api/v1/clients?q=Maria")
    failed = test.post("/api/v1/bookings", {"offer_id": "off_gone"}, format="json")
    live.get("/api/v1/bookings/bkg_01jq7zv3k2m4")
    request_id = failed.json()["error"]["request_id"]
    assert request_log_flush() == 7

    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in(live_server, browser_pt_br, wait)
    changelist = reverse("admin:agencies_apirequest_changelist")
    page = open_page(live_server, browser_pt_br, wait, changelist)
    assert "Requisições da API" in page and "horário de Brasília" in page
    assert "/api/v1/clients" in page and "Maria" not in page  # no query string
    rows = browser_pt_br.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
    assert len(rows) == 7
    screenshot(browser_pt_br, "request-log-1440", DESKTOP)
    screenshot(browser_pt_br, "request-log-390", PHONE)

    # The error's request id, pasted in the search box, finds that one request.
    search = browser_pt_br.find_element(By.ID, "searchbar")
    search.send_keys(request_id)
    search.submit()
    wait.until(
        lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")) == 1
    )
    assert request_id in browser_pt_br.find_element(By.ID, "result_list").text
    browser_pt_br.find_element(
        By.CSS_SELECTOR, "#result_list tbody tr .field-request_display a"
    ).click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".field-error_code")))
    detail = browser_pt_br.find_element(By.ID, "content").text
    assert "offer_not_found" in detail or "invalid_request" in detail
    assert ApiRequest.objects.get(request_id=request_id).status == failed.status_code
    screenshot(browser_pt_br, "request-log-detail-1440", DESKTOP)

    # The 4xx filter, in Portuguese.
    page = open_page(live_server, browser_pt_br, wait, changelist)
    browser_pt_br.find_element(By.LINK_TEXT, "4xx (erro do cliente)").click()
    wait.until(
        lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")) == 2
    )
