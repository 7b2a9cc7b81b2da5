"""The sales report as a Brazilian agency user gets it: a real Chromium in pt-BR opens the report
from the menu's wallet section, types November the Brazilian way, reads the totals (equal to
the ledger's booking movements of the month) and downloads the NFS-e export, one line per
ticketed booking with revenue, that a Brazilian spreadsheet reads.

With PANEL_SCREENSHOTS=<folder> it also saves `sales-report-1440.png`, `sales-report-390.png`
and `sales-report-pdf.png` (the PDF's first page, rendered by poppler's pdftoppm)."""

import csv
import io
import os
import shutil
import subprocess
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.db.models import Sum
from django.test import Client as BrowserClient
from django.urls import reverse
from rest_framework.test import APIClient

from agencies.models import Team
from bookings.report_exports import NFSE_COLUMNS
from bookings.reports import BOOKING_REFERENCES, report_period, sales_report
from bookings.tests.helpers import a_month_of_sales
from core.timestamps import business_day_bounds
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
from tests.kit.factories import make_team
from wallet.models import Transaction

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
NOVEMBER = report_period(start=date(2026, 11, 1), end=date(2026, 11, 30))


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
    """`R$ 1.234,56` or `1234,56` → Decimal."""
    return Decimal(text.replace("R$", "").strip().replace(".", "").replace(",", "."))


def test_the_report_in_pt_br_and_its_nfse_export(live_server, browser, downloads, live_sandbox):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    made = make_team("Alpha Travel", owner_email="ana@alpha.example", owner_password=PASSWORD)
    Team.objects.filter(pk=made.team.pk).update(
        tax_id="12.345.678/0001-95",
        municipal_service_code="09.02",
        municipal_service_name="Agenciamento de viagens",
    )
    made.team.refresh_from_db()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    month = a_month_of_sales(api, made.team)
    wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])
    log_in(live_server, browser, wait)

    # From the menu's wallet section to the report.
    open_page(live_server, browser, wait, reverse("admin:app_list", args=["wallet"]))
    browser.find_element(
        By.CSS_SELECTOR, f'a[href="{reverse("admin:bookings_sales_report")}"]'
    ).click()
    wait.until(EC.presence_of_element_located((By.ID, "report-form")))
    for name, day in (("start", "01/11/2026"), ("end", "30/11/2026")):
        field = browser.find_element(By.NAME, name)
        field.clear()
        field.send_keys(day)
    browser.find_element(By.CSS_SELECTOR, "#report-form input[type=submit]").click()
    wait.until(EC.url_contains("start="))
    page = open_page(live_server, browser, wait, browser.current_url.replace(live_server.url, ""))
    assert "De 01/11/2026 a 30/11/2026" in page
    assert "Relatório de vendas e comissões" in page and "Receita líquida" in page
    assert "529.982.247-25" in page and month["plain"].booking_reference in page

    # The totals are the ledger's booking movements of November.
    starts, ends = (
        business_day_bounds(date(2026, 11, 1))[0],
        business_day_bounds(date(2026, 11, 30))[1],
    )
    moved = Transaction.objects.filter(
        team=made.team,
        live_mode=True,
        created_at__gte=starts,
        created_at__lt=ends,
        reference_type__in=BOOKING_REFERENCES,
    )
    debits = moved.filter(type="debit").aggregate(s=Sum("amount"))["s"]
    credits = moved.filter(type="credit").aggregate(s=Sum("amount"))["s"]
    cost = brl(browser.find_element(By.CSS_SELECTOR, '[data-total="cost"] dd').text)
    refunds = brl(browser.find_element(By.CSS_SELECTOR, '[data-total="refunds"] dd').text)
    assert cost - refunds == debits - credits
    report = sales_report(team=made.team, live_mode=True, period=NOVEMBER)
    net = brl(browser.find_element(By.CSS_SELECTOR, '[data-total="net"] dd').text)
    assert net == report.totals.net_revenue
    screenshot(browser, "sales-report-1440", DESKTOP)
    screenshot(browser, "sales-report-390", PHONE)

    # The NFS-e export, downloaded as a person would.
    browser.find_element(By.ID, "report-nfse").click()
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
    assert tuple(rows[0]) == NFSE_COLUMNS
    ticketed_with_revenue = [r for r in report.rows if r.booking.ticketed_at and r.net_revenue > 0]
    assert len(rows) - 1 == len(ticketed_with_revenue) == 6
    for line in rows[1:]:
        values = dict(zip(NFSE_COLUMNS, line, strict=True))
        assert values["municipalServiceCode"] == "09.02"
        assert brl(values["value"]) - brl(values["deductions"]) > 0

    # The PDF's first page, as an image for the docs.
    folder = os.environ.get("PANEL_SCREENSHOTS")
    pdf_url = browser.find_element(By.ID, "report-pdf").get_attribute("href")
    client = BrowserClient()
    client.force_login(made.owner)
    document = client.get(pdf_url.replace(live_server.url, ""), HTTP_ACCEPT_LANGUAGE="pt-br")
    assert document.status_code == 200 and document.content.startswith(b"%PDF")
    if folder and shutil.which("pdftoppm"):
        pdf_path = downloads / "report.pdf"
        pdf_path.write_bytes(document.content)
        subprocess.run(  # noqa: S603 - fixed arguments
            [
                shutil.which("pdftoppm"),
                "-png",
                "-r",
                "90",
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                str(pdf_path),
                str(Path(folder) / "sales-report-pdf"),
            ],
            check=True,
        )
