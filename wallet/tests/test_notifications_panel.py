"""Payment notifications in the panel: support finds every notification, why one was rejected
and what Asaas said, filtering by state and reason and searching by event, payment or recharge
id; nobody can add, change or delete one; agency users do not see them at all."""

import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client as BrowserClient
from django.urls import reverse

from agencies.tests.factories import SupportUserFactory
from wallet.models import ProviderNotification
from wallet.tests.test_notifications import (  # noqa: F401 (fixtures)
    add_read_back,
    asaas,
    event_body,
    notify,
    pending_recharge,
)

pytestmark = pytest.mark.django_db

NOTIFICATIONS = reverse("admin:wallet_providernotification_changelist")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture
def three_notifications(asaas, team, client):  # noqa: F811
    """Received for real: one credited, one for another amount, one not yet received."""
    paid = pending_recharge(asaas, team.team, payment_id="pay_000000000101")
    add_read_back(asaas, paid)
    notify(client, event_body(paid, event_id="evt_paid&1"))
    inflated = pending_recharge(asaas, team.team, amount="100.00", payment_id="pay_000000000102")
    add_read_back(asaas, inflated, value=Decimal("1e6"))
    notify(client, event_body(inflated, event_id="evt_inflated&2", value=Decimal("1e6")))
    early = pending_recharge(asaas, team.team, payment_id="pay_000000000103")
    add_read_back(asaas, early, status="PENDING")
    notify(client, event_body(early, event_id="evt_early&3"))
    rows = {row.event_id: row for row in ProviderNotification.objects.all()}
    assert {r.state for r in rows.values()} == {"paid", "rejected"}
    return rows["evt_paid&1"], rows["evt_inflated&2"], rows["evt_early&3"]


def listed(browser, **query) -> list[str]:
    response = browser.get(NOTIFICATIONS, query)
    assert response.status_code == 200
    return sorted(row.event_id for row in response.context["cl"].queryset)


def support_browser():
    browser = BrowserClient()
    browser.force_login(SupportUserFactory())
    return browser


def test_support_filters_by_state_and_reason(three_notifications):
    browser = support_browser()

    assert listed(browser) == ["evt_early&3", "evt_inflated&2", "evt_paid&1"]
    assert listed(browser, state__exact="rejected") == ["evt_early&3", "evt_inflated&2"]
    assert listed(browser, reason__exact="amount_mismatch") == ["evt_inflated&2"]
    assert listed(browser, state__exact="paid") == ["evt_paid&1"]
    page = browser.get(NOTIFICATIONS).content.decode()
    assert "The provider&#x27;s value is not the recharge amount" in page  # the reason filter


def test_support_searches_by_event_payment_and_recharge_id(three_notifications):
    _, inflated, _ = three_notifications
    browser = support_browser()

    assert listed(browser, q="evt_inflated&2") == ["evt_inflated&2"]
    assert listed(browser, q="pay_000000000101") == ["evt_paid&1"]
    assert listed(browser, q=inflated.recharge_id) == ["evt_inflated&2"]


def test_the_notification_page_shows_what_asaas_said(three_notifications):
    _, inflated, _ = three_notifications
    browser = support_browser()

    page = browser.get(
        reverse("admin:wallet_providernotification_change", args=[inflated.pk])
    ).content.decode()

    for text in (
        "evt_inflated&amp;2",
        "Rejected: not credited, support alerted",
        "The provider&#x27;s value is not the recharge amount",
        "The provider says the payment is 1000000; the recharge is 100.00.",
        inflated.recharge_id,
        "&quot;externalReference&quot;",  # the body as received
    ):
        assert text in page, text
    assert 'name="_save"' not in page  # read-only


def test_nobody_adds_changes_or_deletes_a_notification(three_notifications):
    _, inflated, _ = three_notifications
    browser = support_browser()
    change = reverse("admin:wallet_providernotification_change", args=[inflated.pk])

    assert browser.get(reverse("admin:wallet_providernotification_add")).status_code == 403
    assert browser.post(change, {"state": "paid", "reason": ""}).status_code == 403
    delete = reverse("admin:wallet_providernotification_delete", args=[inflated.pk])
    assert browser.post(delete, {"post": "yes"}).status_code == 403
    inflated.refresh_from_db()
    assert (inflated.state, inflated.reason) == ("rejected", "amount_mismatch")


def test_agency_users_do_not_see_payment_notifications(team, three_notifications):
    _, inflated, _ = three_notifications
    browser = BrowserClient()
    browser.force_login(team.owner)

    assert browser.get(NOTIFICATIONS).status_code == 403
    change = reverse("admin:wallet_providernotification_change", args=[inflated.pk])
    assert browser.get(change).status_code == 403
    assert "providernotification" not in browser.get(reverse("admin:index")).content.decode()


# --- In a real browser ----------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
PASSWORD = "correct horse battery staple"


@pytest.mark.skipif(
    not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
    reason="needs Debian's chromium and chromium-driver (installed by .ci/run)",
)
@pytest.mark.django_db(transaction=True)
def test_support_finds_a_rejected_notification_in_the_browser(
    asaas,  # noqa: F811
    team,
    client,
    live_server,
    settings,
):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    settings.SUPPORT_ALERT_EMAILS = ["support@agency.example"]
    inflated = pending_recharge(asaas, team.team, amount="100.00")
    add_read_back(asaas, inflated, value=Decimal("1e6"))
    assert notify(client, event_body(inflated, value=Decimal("1e6"))).status_code == 200
    SupportUserFactory(username="desk", password=PASSWORD)
    from agencies.models import User

    desk = User.objects.get(username="desk")
    desk.set_password(PASSWORD)
    desk.save()

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1400,1000")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        wait = WebDriverWait(driver, 20)
        driver.get(live_server.url + reverse("admin:login"))
        driver.find_element(By.NAME, "username").send_keys("desk")
        driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
        wait.until(EC.presence_of_element_located((By.ID, "logout-form")))

        driver.get(live_server.url + NOTIFICATIONS)
        wait.until(EC.presence_of_element_located((By.ID, "result_list")))
        driver.find_element(By.LINK_TEXT, "Rejected: not credited, support alerted").click()
        wait.until(EC.url_contains("state__exact=rejected"))
        rows = driver.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
        assert len(rows) == 1
        assert "The provider's value is not the recharge amount" in rows[0].text
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / "notifications_rejected_list.png"))

        rows[0].find_element(By.CSS_SELECTOR, "th a").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".field-payload_pretty")))
        page = driver.find_element(By.ID, "content").text
        assert "The provider says the payment is 1000000; the recharge is 100.00." in page
        assert inflated.id in page
        assert "support@agency.example" in page  # the alert went out, to whom
        driver.save_screenshot(str(SCREENSHOTS / "notification_rejected_detail.png"))
    finally:
        driver.quit()
