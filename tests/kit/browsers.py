"""Headless Chromium for the panel's browser tests.

The panel's drivers are fixtures (tests/kit/fixtures.py): `browser` asks for English,
`browser_pt_br` for Brazilian Portuguese, as a Brazilian agency user's browser does."""

import os
import shutil
from pathlib import Path

import pytest
from django.urls import reverse

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
needs_chromium = pytest.mark.skipif(
    not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
    reason="needs Debian's chromium and chromium-driver (installed by .ci/run)",
)
PASSWORD = "correct horse battery staple"  # the owners' panel password in browser tests
DESKTOP, PHONE = (1440, 900), (390, 844)


def chromium(*arguments: str, prefs: dict | None = None):
    """Headless Chromium with these command-line `arguments` ("--lang=pt-BR",
    "--window-size=1440,900") and preferences (the languages it asks for, where downloads go)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *arguments):
        options.add_argument(argument)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    # The console (Content-Security-Policy violations among it): `console_errors` reads it.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def console_errors(browser) -> list[str]:
    """The console's errors since the last call (each read empties it)."""
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def english_chromium():
    driver = chromium("--lang=en-US", prefs={"intl.accept_languages": "en-US,en"})
    driver.implicitly_wait(5)
    return driver


def portuguese_chromium():
    return chromium(
        "--lang=pt-BR",
        "--hide-scrollbars",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
        prefs={"intl.accept_languages": "pt-BR,pt"},
    )


def log_in_as(live_server, browser, wait, username):
    """Log `username` (password PASSWORD) into the panel through its login page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser.get(live_server.url + reverse("admin:login"))
    wait.until(EC.presence_of_element_located((By.NAME, "username")))
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))


def log_in(live_server, browser, wait):
    """Ana of Alpha, from a browser asking for Portuguese (the login page is in pt-BR)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser.get(live_server.url + reverse("admin:login"))
    wait.until(EC.presence_of_element_located((By.NAME, "username")))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt-br"
    log_in_as(live_server, browser, wait, "ana@alpha.example")


def open_page(live_server, browser, wait, url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    browser.get(live_server.url + url)
    wait.until(EC.presence_of_element_located((By.ID, "footer")))
    # Money is written with a no-break space (`R$ 1.234,56` never wraps); compare on words.
    return browser.find_element(By.TAG_NAME, "body").text.replace("\N{NO-BREAK SPACE}", " ")


def screenshot(browser, name, size, *, longest=2400):
    """The page at `size` (width, height), down to its end or `longest` pixels, saved as
    `name`.png in PANEL_SCREENSHOTS (when set)."""
    folder = os.environ.get("PANEL_SCREENSHOTS")
    if not folder:
        return
    from selenium.webdriver.support.ui import WebDriverWait

    width, height = size
    browser.set_window_size(width, height)
    # The page's height is read once it is laid out at the new width (a resize is not
    # synchronous: read at once, a phone's page was measured at the desktop's height).
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return window.innerWidth") <= width
    )
    full = browser.execute_script(
        "return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)"
    )
    # The window's height includes the browser's own bars: what they take is added back.
    bars = height - browser.execute_script("return window.innerHeight")
    browser.set_window_size(width, min(max(full + bars, height), longest))
    Path(folder).mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(Path(folder) / f"{name}.png"))
    browser.set_window_size(*DESKTOP)
