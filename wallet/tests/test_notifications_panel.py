"""Payment notifications in the panel: support finds every notification, why one was rejected
and what Asaas said, filtering by state and reason and searching by event, payment or recharge
id; nobody can add, change or delete one; agency users do not see them at all."""

from decimal import Decimal
from pathlib import Path

import pytest
import requests
from django.contrib.admin.models import LogEntry
from django.test import Client as BrowserClient
from django.urls import reverse

from agencies.tests.factories import SupportUserFactory
from tests.kit.browsers import PASSWORD, chromium, needs_chromium
from tests.kit.panel import browser_for
from wallet.models import ProviderNotification, Transaction
from wallet.tests.asaas import (
    BASE_URL,
    add_read_back,
    event_body,
    notify,
    pending_recharge,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("support_alerts")]

NOTIFICATIONS = reverse("admin:wallet_providernotification_changelist")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture
def three_notifications(asaas, team, client):
    """Received for real: one credited, one for another amount, one not yet received."""
    paid = pending_recharge(asaas, team, payment_id="pay_000000000101")
    add_read_back(asaas, paid)
    notify(client, event_body(paid, event_id="evt_paid&1"))
    inflated = pending_recharge(asaas, team, amount="100.00", payment_id="pay_000000000102")
    add_read_back(asaas, inflated, value=Decimal("1e6"))
    notify(client, event_body(inflated, event_id="evt_inflated&2", value=Decimal("1e6")))
    early = pending_recharge(asaas, team, payment_id="pay_000000000103")
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
    return browser_for(SupportUserFactory())


def test_support_filters_by_state_and_reason(three_notifications):
    browser = support_browser()

    assert listed(browser) == ["evt_early&3", "evt_inflated&2", "evt_paid&1"]
    assert listed(browser, state__exact="rejected") == ["evt_early&3", "evt_inflated&2"]
    assert listed(browser, reason__exact="amount_mismatch") == ["evt_inflated&2"]
    assert listed(browser, state__exact="paid") == ["evt_paid&1"]
    page = browser.get(NOTIFICATIONS).content.decode()
    assert "O valor no provedor não é o valor da recarga" in page  # the reason filter


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
        "Rejeitada: nada creditado, suporte avisado",
        "O valor no provedor não é o valor da recarga",
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


def test_agency_users_do_not_see_payment_notifications(team_owner, three_notifications):
    _, inflated, _ = three_notifications
    browser = BrowserClient()
    browser.force_login(team_owner)

    assert browser.get(NOTIFICATIONS).status_code == 403
    change = reverse("admin:wallet_providernotification_change", args=[inflated.pk])
    assert browser.get(change).status_code == 403
    assert "providernotification" not in browser.get(reverse("admin:index")).content.decode()


# --- Verify again with the provider ------------------------------------------------------------


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def verify_again(browser, *notifications, confirm: bool = True):
    data = {"action": "verify_again", "_selected_action": [n.pk for n in notifications]}
    if confirm:
        data["post"] = "yes"
    else:
        data["index"] = "0"
    return browser.post(NOTIFICATIONS, data, follow=confirm)


def test_verify_again_asks_for_confirmation_first(asaas, three_notifications):
    _, inflated, early = three_notifications
    browser = support_browser()
    calls = len(asaas.calls)

    page = verify_again(browser, inflated, early, confirm=False)

    assert page.status_code == 200
    text = page.content.decode()
    assert "Verificar de novo com o provedor?" in text
    assert "evt_inflated&amp;2" in text and "evt_early&amp;3" in text
    assert 'name="post" value="yes"' in text
    assert len(asaas.calls) == calls  # nothing asked, nothing changed yet
    assert not LogEntry.objects.exists()


def test_a_payment_asaas_now_shows_received_is_credited_once(
    asaas,
    three_notifications,
):
    _, _, early = three_notifications  # rejected: Asaas said PENDING
    add_read_back(asaas, early.recharge, status="RECEIVED")
    browser = support_browser()

    done = verify_again(browser, early)

    assert messages_of(done) == ["Notificação evt_early&3: Paga: recarga creditada."]
    early.refresh_from_db()
    assert (early.state, early.reason, early.provider_status) == ("paid", "", "RECEIVED")
    [txn] = Transaction.objects.filter(reference_id=early.recharge_id)
    assert txn.amount == Decimal("250.00")
    [entry] = LogEntry.objects.all()
    assert "estava rejeitada, O provedor não diz que o pagamento foi recebido" in (
        entry.get_change_message()
    )
    assert entry.get_change_message().endswith("agora Paga: recarga creditada.")

    again = verify_again(browser, early)  # no longer rejected: nothing asked, nothing credited

    assert messages_of(again) == ["Só notificações rejeitadas podem ser verificadas de novo."]
    assert Transaction.objects.filter(reference_id=early.recharge_id).count() == 1


def test_a_payment_still_wrong_stays_rejected_with_what_asaas_says_now(
    asaas,
    three_notifications,
    mailoutbox,
):
    _, inflated, _ = three_notifications
    add_read_back(asaas, inflated.recharge, value=Decimal("99.00"))
    browser = support_browser()

    done = verify_again(browser, inflated)

    assert messages_of(done) == [
        "Notificação evt_inflated&2: continua rejeitada: "
        "O valor no provedor não é o valor da recarga "
        "(The provider says the payment is 99.00; the recharge is 100.00.)"
    ]
    inflated.refresh_from_db()
    assert (inflated.state, inflated.reason) == ("rejected", "amount_mismatch")
    assert inflated.detail == "The provider says the payment is 99.00; the recharge is 100.00."
    assert not Transaction.objects.filter(reference_id=inflated.recharge_id).exists()
    assert mailoutbox == []  # support asked: no second alert


def test_asaas_unreachable_changes_nothing(asaas, three_notifications):
    _, _, early = three_notifications
    asaas.get(
        f"{BASE_URL}/payments/{early.payment_id}", body=requests.ReadTimeout("Read timed out.")
    )
    browser = support_browser()

    done = verify_again(browser, early)

    assert messages_of(done) == [
        "Notificação evt_early&3: O provedor de pagamentos está indisponível; "
        "tente de novo mais tarde"
    ]
    early.refresh_from_db()
    assert (early.state, early.reason) == ("rejected", "not_received")
    assert not Transaction.objects.filter(reference_id=early.recharge_id).exists()
    assert not LogEntry.objects.exists()


def test_agency_users_cannot_verify_again(team_owner, three_notifications):
    _, _, early = three_notifications
    browser = BrowserClient()
    browser.force_login(team_owner)

    assert verify_again(browser, early).status_code == 403
    early.refresh_from_db()
    assert early.state == "rejected"


# --- In a real browser ----------------------------------------------------------------------------


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_support_finds_a_rejected_notification_in_the_browser(
    asaas,
    team,
    client,
    live_server,
    settings,
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait

    settings.SUPPORT_ALERT_EMAILS = ["support@agency.example"]
    inflated = pending_recharge(asaas, team, amount="100.00")
    add_read_back(asaas, inflated, value=Decimal("1e6"))
    assert notify(client, event_body(inflated, value=Decimal("1e6"))).status_code == 200
    SupportUserFactory(username="desk", password=PASSWORD)
    from agencies.models import User

    desk = User.objects.get(username="desk")
    desk.set_password(PASSWORD)
    desk.save()

    driver = chromium("--window-size=1400,1000")
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

        # Support fixed the amount with the payer in Asaas: verify again, confirm, credited.
        add_read_back(asaas, inflated, value=Decimal("100.00"))
        driver.get(live_server.url + NOTIFICATIONS + "?state__exact=rejected")
        wait.until(EC.presence_of_element_located((By.ID, "result_list")))
        driver.find_element(By.CSS_SELECTOR, "#result_list input.action-select").click()
        Select(driver.find_element(By.NAME, "action")).select_by_value("verify_again")
        driver.find_element(By.NAME, "index").click()
        wait.until(EC.title_contains("Verify again with the provider?"))
        assert "received, for the recharge amount" in driver.find_element(By.ID, "content").text
        driver.save_screenshot(str(SCREENSHOTS / "notification_verify_again_confirm.png"))
        driver.find_element(
            By.CSS_SELECTOR, "input[type=submit][value='Yes, verify again']"
        ).click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
        assert (
            "Paid: recharge credited" in driver.find_element(By.CSS_SELECTOR, "ul.messagelist").text
        )
        driver.save_screenshot(str(SCREENSHOTS / "notification_verified_again.png"))
        inflated.refresh_from_db()
        assert inflated.status == "completed"
    finally:
        driver.quit()
