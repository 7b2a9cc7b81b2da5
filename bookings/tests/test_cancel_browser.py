"""Cancelling a booking from the panel, in a real Chromium set to Portuguese, as support does it:
the cancel confirmation page shows the airline's quote (a refund lower than the fare's
conditions; a voucher instead of money), "Sim" confirms that very quote, and the booking page
and the cancellation e-mail then show what the airline refunded, the wallet's credit and the
airline's credits; a confirmation whose answer is lost waits in support's "needs attention"
until checked. With PANEL_SCREENSHOTS=docs/screenshots it saves cancel-confirm-*.png,
booking-cancelled-*.png, booking-cancellation-unknown-1440.png, check-with-supplier-1440.png,
support-home-cancellation-unknown-1440.png and email-booking-cancelled-voucher.png
(docs/booking-page.md, docs/panel-home.md, docs/emails.md)."""

import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from agencies.models import User
from bookings.emails import booking_email_message
from bookings.models import Booking, BookingCancellation
from bookings.services.refunds import refund_in_brl
from bookings.tests.helpers import book, offers, passenger
from core.money import money_display
from tests.kit.browsers import DESKTOP, PASSWORD, PHONE, needs_chromium, open_page, screenshot
from tests.kit.factories import fund, make_team
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction, Wallet

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
SUPPORT = "suporte@agency.example"
EMAIL_WIDTH = 760  # about the reading pane of a desktop mail client


def ticketed(api, family_name: str) -> Booking:
    """A paid, ticketed booking of a refundable fare whose passenger is `family_name` (the
    sandbox's cancellation scenarios, docs/sandbox.md)."""
    offer = next(
        o
        for o in offers(api)
        if o["conditions"]["refund_before_departure"]["allowed"]
        and o["conditions"]["refund_before_departure"]["penalty_amount"]
    )
    people = [passenger(offer["passengers"][0]["id"], family_name=family_name)]
    response = book(api, offer, type="instant", people=people)
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.status == Booking.Status.TICKETED
    return booking


def reais(amount: Decimal, currency: str = "BRL") -> str:
    """`R$ 1.234,56` as WebDriver reads the page (open_page: no-break spaces as spaces)."""
    from django.utils import translation

    with translation.override("pt-br"):
        return money_display(amount, currency).replace("\N{NO-BREAK SPACE}", " ")


def refunds(booking: Booking) -> list[Decimal]:
    return list(
        Transaction.objects.filter(
            reference_id=booking.pk, reference_type=Transaction.ReferenceType.REFUND
        ).values_list("amount", flat=True)
    )


def log_in_as_support(live_server, browser, wait):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    User.objects.create_superuser(SUPPORT, SUPPORT, PASSWORD)
    browser.get(live_server.url + reverse("admin:login"))
    wait.until(EC.presence_of_element_located((By.NAME, "username")))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt-br"
    browser.find_element(By.NAME, "username").send_keys(SUPPORT)
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))


def open_cancel_confirmation(live_server, browser, wait, booking) -> tuple[str, str]:
    """From the booking's page, its "Cancelar reserva" button: the confirmation page's text and
    the quote it shows (the one "Sim" confirms)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    open_page(
        live_server, browser, wait, reverse("admin:bookings_booking_change", args=[booking.pk])
    )
    browser.find_element(By.CSS_SELECTOR, "button.page-action-cancel").click()
    wait.until(EC.presence_of_element_located((By.ID, "confirm-rows")))
    effect = browser.find_element(By.CSS_SELECTOR, "#confirm-rows .confirm-effect").text
    carried = browser.find_element(By.CSS_SELECTOR, "input[name=cancellation_quote]")
    booking_id, quote_id = carried.get_attribute("value").split(":")
    assert booking_id == booking.pk
    return effect.replace("\N{NO-BREAK SPACE}", " "), quote_id


def confirm(browser, wait) -> str:
    """ "Sim, eu tenho certeza": the messages the panel answers with."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser.find_element(By.ID, "confirm-submit").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    return browser.find_element(By.CSS_SELECTOR, "ul.messagelist").text


@pytest.mark.usefixtures("live_sandbox")  # live keys book the sandbox here
def test_support_cancels_at_the_airlines_quote_and_reads_the_outcome(
    live_server, browser_pt_br, tmp_path
):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    fund(made.team, "100000.00")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    low = ticketed(api, "Refundlow")  # the airline refunds half what the conditions promise
    voucher = ticketed(api, "Refundvoucher")  # the airline refunds to a voucher
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in_as_support(live_server, browser_pt_br, wait)

    # A refund lower than the fare's conditions: the page shows the airline's quote.
    effect, quote_id = open_cancel_confirmation(live_server, browser_pt_br, wait, low)
    quote = BookingCancellation.objects.get(pk=quote_id, booking=low)
    condition = low.conditions["refund_before_departure"]
    promised = low.total_amount - Decimal(condition["penalty_amount"])
    assert quote.status == "quoted" and quote.refund_amount < promised
    assert quote.refund_amount == (promised / 2).quantize(Decimal("0.01"))
    credit = refund_in_brl(low, quote.refund_amount)
    assert quote.wallet_credit_amount == credit
    assert f"A companhia aérea reembolsa {reais(quote.refund_amount, low.total_currency)}" in effect
    assert "para o saldo no fornecedor" in effect
    assert f"A carteira recebe de volta {reais(credit)}." in effect
    penalty = low.total_amount - quote.refund_amount
    assert f"Multa retida pela companhia aérea: {reais(penalty, low.total_currency)}." in effect
    assert f"As condições da tarifa previam {reais(promised, low.total_currency)}" in effect
    valid_until = timezone.localtime(quote.expires_at)
    assert f"Cotação válida até {valid_until:%d}" in effect and "(horário de Brasília)" in effect
    # What is lost, and who is told.
    paid = low.base_cost_brl
    assert f"Dos {reais(paid)} que a carteira pagou, {reais(paid - credit)} não voltam." in effect
    assert "Os viajantes recebem um e-mail avisando do cancelamento." in effect
    screenshot(browser_pt_br, "cancel-confirm-1440", DESKTOP)
    screenshot(browser_pt_br, "cancel-confirm-390", PHONE)

    # "Sim" confirms the quote shown, not a new one; the wallet gets the quote's credit, once.
    said = confirm(browser_pt_br, wait)
    assert f"{low.booking_reference} cancelada; reembolso de {reais(credit)} na carteira." in said
    assert low.cancellations.count() == 1  # no second quote asked for on the way
    quote.refresh_from_db()
    assert quote.status == "confirmed" and quote.transaction_id
    assert refunds(low) == [credit]
    assert ledger_problems() == []

    # The booking page afterwards: the cancellation as the airline confirmed it.
    url = reverse("admin:bookings_booking_change", args=[low.pk])
    page = open_page(live_server, browser_pt_br, wait, url)
    wait.until(EC.visibility_of_element_located((By.ID, "bp-cancellation")))
    block = browser_pt_br.find_element(By.ID, "bp-cancellation").text
    block = block.replace("\N{NO-BREAK SPACE}", " ")
    assert "Situação: Confirmada" in block
    assert f"{reais(quote.refund_amount, low.total_currency)} para o saldo no fornecedor" in block
    assert f"Multa retida pela companhia aérea: {reais(penalty, low.total_currency)}" in block
    assert f"Crédito na carteira: {reais(credit)}" in block
    assert "Confirmado em" in block and "(horário de Brasília)" in block
    assert f"Reembolsado na carteira {reais(credit)}" in page  # the money that moved
    assert "Cancelada" in page
    screenshot(browser_pt_br, "booking-cancelled-1440", DESKTOP, longest=6000)
    screenshot(browser_pt_br, "booking-cancelled-390", PHONE, longest=6000)

    # A voucher: no money to the wallet, the airline's credit shown with its code.
    effect, quote_id = open_cancel_confirmation(live_server, browser_pt_br, wait, voucher)
    quote = BookingCancellation.objects.get(pk=quote_id, booking=voucher)
    [airline_credit] = quote.airline_credits
    value = reais(Decimal(airline_credit["credit_amount"]), airline_credit["credit_currency"])
    assert quote.refund_to == "voucher" and quote.wallet_credit_amount == 0
    assert "em crédito com a companhia, não em dinheiro: a carteira não recebe nada." in effect
    assert f"Crédito na companhia aérea: Voucher: {value}" in effect
    assert f"código {airline_credit['credit_code']}, válido até" in effect
    screenshot(browser_pt_br, "cancel-confirm-voucher-1440", DESKTOP)
    screenshot(browser_pt_br, "cancel-confirm-voucher-390", PHONE)
    balance_before = Wallet.objects.get(team=made.team).balance
    said = confirm(browser_pt_br, wait)
    assert f"{voucher.booking_reference} cancelada; nada reembolsado na carteira." in said
    assert refunds(voucher) == []
    assert Wallet.objects.get(team=made.team).balance == balance_before
    page = open_page(
        live_server,
        browser_pt_br,
        wait,
        reverse("admin:bookings_booking_change", args=[voucher.pk]),
    )
    block = browser_pt_br.find_element(By.ID, "bp-cancellation").text
    block = block.replace("\N{NO-BREAK SPACE}", " ")
    assert "em voucher da companhia aérea" in block
    assert "Crédito na carteira: R$ 0,00" in block
    assert airline_credit["credit_code"] in block
    screenshot(browser_pt_br, "booking-cancelled-voucher-1440", DESKTOP, longest=6000)
    assert ledger_problems() == []

    # The cancellation e-mail, as a mail client shows it: Portuguese, the voucher and its code.
    voucher.refresh_from_db()
    message = booking_email_message(
        booking=voucher,
        kind="booking_cancelled",
        passengers=list(voucher.passengers.all()),
        documents=list(voucher.documents.all()),
        to=["ana@example.com"],
    )
    html = next(content for content, kind in message.alternatives if kind == "text/html")
    (tmp_path / "cancelled.html").write_text(html)
    browser_pt_br.get((tmp_path / "cancelled.html").as_uri())
    email = wait.until(lambda d: d.find_element(By.TAG_NAME, "body")).text
    email = email.replace("\N{NO-BREAK SPACE}", " ")
    assert "A sua reserva com a Alpha Travel foi cancelada." in email
    assert "em crédito com a companhia, não em dinheiro" in email
    assert f"Voucher: {value} (código {airline_credit['credit_code']}), válido até" in email
    assert "responda a este e-mail para combinar" not in email  # no money for the agency to return
    email_screenshot(browser_pt_br, wait, "email-booking-cancelled-voucher")


def email_screenshot(browser, wait, name: str) -> None:
    """The whole e-mail in one picture, as bookings/tests/test_email_samples_browser.py takes
    them: the viewport as tall as the page (saved in PANEL_SCREENSHOTS, when set)."""
    folder = os.environ.get("PANEL_SCREENSHOTS")
    if not folder:
        return
    height = browser.execute_script("return document.documentElement.scrollHeight")
    metrics = {"width": EMAIL_WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    wait.until(lambda d: d.execute_script("return window.innerHeight") >= height)
    Path(folder).mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(Path(folder) / f"{name}.png"))
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.usefixtures("live_sandbox")  # live keys book the sandbox here
def test_a_lost_confirmation_waits_in_supports_attention_until_checked(live_server, browser_pt_br):
    """The airline cancels but its answer is lost: the panel says nothing was credited, the
    booking is in support's "Precisa de atenção" and its page says why, in Portuguese; "Consultar
    o fornecedor" settles it, once."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    fund(made.team, "100000.00")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    lost = ticketed(api, "Cancellost")
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in_as_support(live_server, browser_pt_br, wait)

    _, quote_id = open_cancel_confirmation(live_server, browser_pt_br, wait, lost)
    said = confirm(browser_pt_br, wait)
    assert "ainda não confirmou o cancelamento" in said and "nada foi creditado" in said
    quote = BookingCancellation.objects.get(pk=quote_id)
    assert quote.status == "unknown" and refunds(lost) == []

    home = open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
    wait.until(EC.presence_of_element_located((By.ID, "attention-unknown_cancellations")))
    listed = browser_pt_br.find_element(By.ID, "attention-unknown_cancellations").text
    assert "Cancelamentos com resultado do fornecedor desconhecido" in listed
    assert lost.booking_reference in listed and "Alpha Travel" in listed
    assert "Precisa de atenção" in home
    screenshot(browser_pt_br, "support-home-cancellation-unknown-1440", DESKTOP)

    url = reverse("admin:bookings_booking_change", args=[lost.pk])
    open_page(live_server, browser_pt_br, wait, url)
    block = browser_pt_br.find_element(By.ID, "bp-cancellation").text
    assert "Situação: Resultado desconhecido" in block
    assert "A resposta do fornecedor à confirmação se perdeu." in block
    assert "(nada creditado ainda)" in block
    screenshot(browser_pt_br, "booking-cancellation-unknown-1440", DESKTOP, longest=6000)
    browser_pt_br.find_element(By.CSS_SELECTOR, "button.page-action-check_with_supplier").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    checked = browser_pt_br.find_element(By.CSS_SELECTOR, "ul.messagelist").text
    screenshot(browser_pt_br, "check-with-supplier-1440", DESKTOP)
    assert f"{lost.booking_reference}: o cancelamento está confirmado e liquidado" in checked
    assert "agora Cancelada" in checked
    quote.refresh_from_db()
    assert quote.status == "confirmed" and len(refunds(lost)) == 1
    assert ledger_problems() == []
