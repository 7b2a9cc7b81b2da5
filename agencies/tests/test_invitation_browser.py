"""In a real browser (headless Chromium, in Brazilian Portuguese): the invitee opens the link,
chooses the password, and is on the panel's home, logged in and told so."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from agencies.services import invitation_create, invitation_send
from tests.kit.browsers import DESKTOP, PASSWORD, PHONE, needs_chromium, screenshot
from tests.kit.factories import make_team

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_the_invitee_sets_the_password_and_lands_logged_in(live_server, browser_pt_br):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    browser = browser_pt_br
    mine = make_team("Agência Sol & Mar", owner_email="ana@alpha.example", owner_password=PASSWORD)
    invitation_create(team=mine.team, email="bia@alpha.example", invited_by=mine.owner)
    invitation_send(invitation_id=mine.team.invitations.get().pk)
    link = re.search(r"http://[^/\s]+(/admin/invitation/[^\s]+/)", mail.outbox[-1].body).group(1)
    wait = WebDriverWait(browser, 20)
    browser.get(live_server.url + link)
    wait.until(EC.presence_of_element_located((By.NAME, "new_password1")))
    screenshot(browser, "invitation-accept-pt-br", DESKTOP)
    browser.find_element(By.NAME, "new_password1").send_keys(PASSWORD)
    browser.find_element(By.NAME, "new_password2").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()

    wait.until(EC.presence_of_element_located((By.ID, "logout-form")))  # logged in
    assert browser.current_url == live_server.url + reverse("admin:index")
    message = browser.find_element(By.CSS_SELECTOR, "ul.messagelist li.success").text
    assert message == (
        "Sua senha foi definida e você já entrou no painel da equipe Agência Sol & Mar."
    )
    screenshot(browser, "invitation-accepted-home-pt-br", DESKTOP)
    screenshot(browser, "invitation-accepted-home-phone-pt-br", PHONE)
