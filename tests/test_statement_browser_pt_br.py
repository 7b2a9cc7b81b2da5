"""The wallet statement as a Brazilian agency user gets it: a real Chromium in pt-BR opens the
statement from the wallet pages, types the period the Brazilian way and downloads the CSV, whose
totals are the balance's movement over the period.

With PANEL_SCREENSHOTS=<folder> it also saves `statement-1440.png` (the page) and
`statement-pdf.png` (the PDF's first page, rendered by poppler's pdftoppm)."""

import csv
import io
import os
import shutil
import subprocess
from datetime import datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client as BrowserClient
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from agencies.models import Team
from bookings.models import Booking
from bookings.tests.helpers import book, holdable
from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    chromium,
    log_in,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.kit.factories import fund, make_team
from tests.kit.passengers import passenger
from wallet.models import Wallet
from wallet.services import recharge_complete, recharge_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
SP = ZoneInfo("America/Sao_Paulo")


@pytest.fixture
def downloads(tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


@pytest.fixture
def browser(downloads):
    driver = chromium(
        "--lang=pt-BR",
        "--hide-scrollbars",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
        prefs={
            "intl.accept_languages": "pt-BR,pt",
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False,
        },
    )
    driver.execute_cdp_cmd(
        "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    yield driver
    driver.quit()


def brl(text: str) -> Decimal:
    """`1234,56` (the Portuguese CSV) → Decimal."""
    return Decimal(text.replace(",", "."))


def a_month_of_work(today):
    """Alpha Travel: 25.000,00 recharged last month; this month two recharges paid, two flights
    sold from the wallet, and a test recharge (never in the live statement)."""
    made = make_team(
        "Alpha Travel",
        owner_email="ana@alpha.example",
        owner_password=PASSWORD,
        fee=Decimal("12.00"),
        markup_percent=Decimal("10.00"),
    )
    Team.objects.filter(pk=made.team.pk).update(tax_id="12.345.678/0001-95")
    made.team.refresh_from_db()
    last_month = datetime.combine(today.replace(day=1), time(12), SP) - timedelta(days=2)
    with time_machine.travel(last_month, tick=False):
        fund(made.team, "25000.00", reference_id="rch_last_month")
    before = Wallet.objects.get(team=made.team).balance
    for amount, method in (("1234.56", "pix"), ("500.00", "boleto")):
        recharge = recharge_create(
            team=made.team, live_mode=True, amount=Decimal(amount), payment_method=method
        )
        recharge_complete(recharge=recharge)
    test_recharge = recharge_create(
        team=made.team, live_mode=False, amount=Decimal("300.00"), payment_method="pix"
    )
    recharge_complete(recharge=test_recharge)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    for origin, destination, given in (("GRU", "GIG", "Ana"), ("CGH", "SDU", "Bruno")):
        offer = holdable(api, origin=origin, destination=destination)
        people = [passenger(offer["passengers"][0]["id"], given_name=given, family_name="Souza")]
        response = book(api, offer, type="instant", people=people)
        assert response.status_code == 201, response.json()
    return made, before, test_recharge


def test_the_statement_csv_totals_are_the_balance_movement_of_the_period(
    live_server, browser, downloads, live_sandbox
):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    today = timezone.localtime(timezone.now(), SP).date()
    made, before, test_recharge = a_month_of_work(today)
    after = Wallet.objects.get(team=made.team).balance
    assert after != before
    wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
    log_in(live_server, browser, wait)

    # From the wallet's page to its statement.
    open_page(live_server, browser, wait, reverse("admin:wallet_wallet_changelist"))
    browser.find_element(By.ID, "statement-link").click()
    wait.until(EC.presence_of_element_located((By.ID, "statement-totals")))

    # The period typed the Brazilian way: this month up to today.
    for name, day in (("start", today.replace(day=1)), ("end", today)):
        field = browser.find_element(By.NAME, name)
        field.clear()
        field.send_keys(day.strftime("%d/%m/%Y"))
    browser.find_element(By.CSS_SELECTOR, "#statement-form input[type=submit]").click()
    wait.until(EC.url_contains("start="))
    page = open_page(live_server, browser, wait, browser.current_url.replace(live_server.url, ""))
    assert f"De {today.replace(day=1):%d/%m/%Y} a {today:%d/%m/%Y}" in page
    assert "Saldo inicial" in page and "R$ 25.000,00" in page
    assert "horário de brasília" in page.lower()  # the column header (upper case in CSS)
    assert test_recharge.id not in page
    # Each booking's movement names the booking: its locator, lead passenger and route.
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#statement-lines th")]
    assert headers[2] == "RESERVA"  # upper case in CSS
    locators = {
        b.slices[0]["origin"]["iata_code"]: b.booking_reference
        for b in Booking.objects.filter(team=made.team)
    }
    cells = browser.find_elements(By.CSS_SELECTOR, "#statement-lines td.booking")
    assert sorted(cell.text for cell in cells if cell.text) == sorted(
        [
            f"{locators['CGH']} · Bruno Souza\nCGH → SDU",
            f"{locators['GRU']} · Ana Souza\nGRU → GIG",
        ]
    )
    screenshot(browser, "statement-1440", DESKTOP)
    screenshot(browser, "statement-390", PHONE)

    # The CSV, downloaded as a person would.
    browser.find_element(By.ID, "statement-csv").click()
    wait.until(
        lambda _: (
            [p for p in downloads.iterdir() if p.suffix == ".csv"]
            and not any(p.suffix == ".crdownload" for p in downloads.iterdir())
        )
    )
    (path,) = [p for p in downloads.iterdir() if p.suffix == ".csv"]
    body = path.read_bytes()
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    summary = dict(row for row in rows if len(row) == 2)
    movements = rows[rows.index([]) + 2 :]

    opening, closing = brl(summary["Saldo inicial"]), brl(summary["Saldo final"])
    credits, debits = brl(summary["Créditos"]), brl(summary["Débitos"])
    assert opening == before  # the balance when the period began
    assert closing == after  # the balance now, at the end of the period
    assert credits - debits == after - before == closing - opening
    assert credits == Decimal("1734.56")
    assert sum(brl(m[4]) for m in movements) == after - before
    assert brl(movements[-1][5]) == after
    assert len(movements) == 4 and int(summary["Movimentações"]) == 4
    assert sorted(m[7:] for m in movements) == sorted(
        [
            ["", "", ""],
            ["", "", ""],
            [locators["CGH"], "Bruno Souza", "CGH → SDU"],
            [locators["GRU"], "Ana Souza", "GRU → GIG"],
        ]
    )
    assert all(test_recharge.id not in ";".join(m) for m in movements)

    # The PDF's first page, as an image for the README.
    folder = os.environ.get("PANEL_SCREENSHOTS")
    pdf_url = browser.find_element(By.ID, "statement-pdf").get_attribute("href")
    client = BrowserClient()
    client.force_login(made.owner)
    document = client.get(pdf_url.replace(live_server.url, ""))
    assert document.status_code == 200 and document.content.startswith(b"%PDF")
    if folder and shutil.which("pdftoppm"):
        pdf_path = downloads / "statement.pdf"
        pdf_path.write_bytes(document.content)
        subprocess.run(  # noqa: S603 - fixed arguments
            [
                shutil.which("pdftoppm"),
                "-png",
                "-r",
                "110",
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                str(pdf_path),
                str(Path(folder) / "statement-pdf"),
            ],
            check=True,
        )
