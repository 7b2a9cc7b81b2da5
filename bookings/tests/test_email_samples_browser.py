"""Two sample e-mails (docs/emails/) as Chromium renders them: what the traveller reads first is
there and in Portuguese. With EMAIL_SCREENSHOTS=<folder> the screenshots are saved
(docs/screenshots/email-*.png):

    EMAIL_SCREENSHOTS=docs/screenshots .venv/bin/pytest bookings/tests/test_email_samples_browser.py
"""

import os
from pathlib import Path

import pytest

from bookings.management.commands.email_samples import SAMPLES_DIR
from tests.kit.browsers import chromium, needs_chromium

pytestmark = needs_chromium
WIDTH = 760  # about the reading pane of a desktop mail client


@pytest.fixture
def browser():
    driver = chromium("--lang=pt-BR", "--hide-scrollbars", f"--window-size={WIDTH},900")
    yield driver
    driver.quit()


@pytest.mark.parametrize(
    ("sample", "screenshot", "seen"),
    [
        (
            "payment_reminder.html",
            "email-payment-reminder.png",
            ["Para garanti-la, pague R$ 3.459,85", "horário de Brasília"],
        ),
        (
            "ticket_issued.html",
            "email-ticket-issued.png",
            ["0752300000001", "15 de janeiro de 2027, 16:25", "Ida: São Paulo (GRU) → Lisboa"],
        ),
        (
            "ticket_issued_agency_copy.html",
            "email-ticket-issued-agency-copy.png",
            ["PARA A AGÊNCIA", "Custo debitado da sua carteira: R$ 3.259,60", "0752300000001"],
        ),
    ],
)
def test_a_sample_email_renders_in_chromium(browser, sample, screenshot, seen):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((SAMPLES_DIR / sample).resolve().as_uri())
    body = WebDriverWait(browser, 20).until(lambda d: d.find_element(By.TAG_NAME, "body"))
    text = body.text.replace("\N{NO-BREAK SPACE}", " ")  # as WebDriver reads it, either way
    assert "Agência Sol & Mar" in text and "Valor total: R$ 3.459,85" in text
    for words in seen:
        assert words in text
    # The e-mail fits the pane: nothing wider than the window (no sideways scrolling).
    assert browser.execute_script("return document.documentElement.scrollWidth") <= WIDTH
    folder = os.environ.get("EMAIL_SCREENSHOTS")
    if folder:
        height = browser.execute_script("return document.documentElement.scrollHeight")
        # The whole e-mail in one picture: the viewport made as tall as the page.
        metrics = {"width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False}
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        WebDriverWait(browser, 10).until(
            lambda d: d.execute_script("return window.innerHeight") >= height
        )
        browser.save_screenshot(str(Path(folder) / screenshot))


def test_the_invitation_renders_in_chromium(browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((SAMPLES_DIR / "invitation.html").resolve().as_uri())
    body = WebDriverWait(browser, 20).until(lambda d: d.find_element(By.TAG_NAME, "body"))
    assert "Maria Souza convidou você para a equipe Agência Sol & Mar" in body.text
    assert "18 de janeiro de 2027, 12:00 (horário de Brasília)" in body.text
    assert browser.execute_script("return document.documentElement.scrollWidth") <= WIDTH
    folder = os.environ.get("EMAIL_SCREENSHOTS")
    if folder:
        browser.save_screenshot(str(Path(folder) / "email-invitation.png"))
