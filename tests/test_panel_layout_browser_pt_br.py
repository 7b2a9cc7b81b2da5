"""The panel's frame in a real Chromium set to pt-BR: every list fits a 1440-pixel screen with
the sidebar open (no column cut off, none behind a horizontal scroll), for support and for an
agency user, and on a 390-pixel phone the header takes at most 80 pixels.

With PANEL_SCREENSHOTS=<folder> it saves the lists that used to be cut off, as support
(`support-recharges-1440`, `support-bookings-1440`), and the phone's header (`header-390`)."""

import pytest
from django.urls import reverse

from agencies.models import User
from tests.kit.browsers import (
    DESKTOP,
    PASSWORD,
    PHONE,
    log_in_as,
    needs_chromium,
    open_page,
    screenshot,
)
from tests.scenarios import agency_with_a_day_of_work

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]
SUPPORT = "suporte@agency.example"
AGENCY_USER = "ana@alpha.example"
HEADER_MAX_HEIGHT = 80  # pixels, on a 390-pixel phone

# How far a list reaches: its scrolling box against what it shows, and its last header cell
# against the window.
MEASURE_LIST = """
const table = document.getElementById("result_list");
if (!table) return null;
const box = table.closest(".results") || table.parentElement;
const cells = table.querySelectorAll("thead th");
const last = cells[cells.length - 1];
return {
  boxScroll: box.scrollWidth,
  boxClient: box.clientWidth,
  lastHeader: last.textContent.trim(),
  lastRight: Math.ceil(last.getBoundingClientRect().right),
  window: document.documentElement.clientWidth,
  pageScroll: document.documentElement.scrollWidth,
};
"""


def log_out(driver, wait):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC

    driver.find_element(By.ID, "logout-form").find_element(By.TAG_NAME, "button").click()
    wait.until(EC.url_contains(reverse("admin:logout")))
    wait.until(EC.invisibility_of_element_located((By.ID, "logout-form")))


def panel_lists(driver) -> list[str]:
    """The address of every list on the home page's list of pages (what this user may open:
    the sidebar's)."""
    from selenium.webdriver.common.by import By

    links = driver.find_elements(By.CSS_SELECTOR, "tr[class^=model-] th[scope=row] a")
    return sorted({link.get_attribute("href") for link in links})


def lists_cut_off(live_server, driver, wait) -> tuple[int, list[str]]:
    """How many lists with rows were measured, and each one that does not fit, saying how."""
    from selenium.webdriver.common.by import By

    measured, cut_off = 0, []
    for url in panel_lists(driver):
        open_page(live_server, driver, wait, url.replace(live_server.url, ""))
        assert driver.find_element(By.ID, "nav-sidebar").is_displayed(), url
        size = driver.execute_script(MEASURE_LIST)
        if size is None:  # no rows: no table
            continue
        measured += 1
        if (
            size["boxScroll"] > size["boxClient"]
            or size["lastRight"] > size["window"]
            or size["pageScroll"] > size["window"]
        ):
            cut_off.append(f"{url}: {size}")
    return measured, cut_off


def test_every_list_fits_1440_pixels_with_the_sidebar_open(
    live_server, browser_pt_br, live_sandbox
):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    agency_with_a_day_of_work()
    User.objects.create_superuser(SUPPORT, SUPPORT, PASSWORD)
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    browser_pt_br.set_window_size(*DESKTOP)

    for user, at_least in ((SUPPORT, 10), (AGENCY_USER, 6)):
        log_in_as(live_server, browser_pt_br, wait, user)
        open_page(live_server, browser_pt_br, wait, reverse("admin:index"))
        measured, cut_off = lists_cut_off(live_server, browser_pt_br, wait)
        assert measured >= at_least, (user, measured)  # the lists had rows to measure
        assert cut_off == [], user
        if user == SUPPORT:
            for name, url in (
                ("support-recharges-1440", "admin:wallet_recharge_changelist"),
                ("support-bookings-1440", "admin:bookings_booking_changelist"),
            ):
                open_page(live_server, browser_pt_br, wait, reverse(url))
                screenshot(browser_pt_br, name, DESKTOP)
        log_out(browser_pt_br, wait)


def test_the_phone_header_takes_at_most_80_pixels(live_server, browser_pt_br, live_sandbox):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    agency_with_a_day_of_work()
    wait = WebDriverWait(browser_pt_br, 20, ignored_exceptions=[StaleElementReferenceException])
    log_in_as(live_server, browser_pt_br, wait, AGENCY_USER)
    browser_pt_br.set_window_size(*PHONE)
    for url in (reverse("admin:index"), reverse("admin:bookings_booking_changelist")):
        open_page(live_server, browser_pt_br, wait, url)
        header = browser_pt_br.find_element(By.ID, "header")
        height = browser_pt_br.execute_script(
            "return arguments[0].getBoundingClientRect().height", header
        )
        assert height <= HEADER_MAX_HEIGHT, (url, height)
        # Everything the header held is still there: the panel's name, the user's links, the
        # language switch.
        for selector in ("#site-name", "#user-tools", "#logout-form", ".language-switch"):
            assert browser_pt_br.find_element(By.CSS_SELECTOR, selector).is_displayed(), selector
        width = browser_pt_br.execute_script("return document.documentElement.scrollWidth")
        assert width <= PHONE[0], (url, width)
    screenshot(browser_pt_br, "header-390", PHONE)
