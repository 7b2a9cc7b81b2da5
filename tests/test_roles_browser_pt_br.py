"""Roles in a team in a real Chromium set to pt-BR: the owner's members page (each member's role,
the actions that change it, its confirmation page) and a viewer's home page (figures and lists,
no action anywhere; the pages of team settings read only). With
PANEL_SCREENSHOTS=docs/screenshots it saves team-members-1440, team-members-390,
team-member-role-confirm-1440, viewer-home-1440, viewer-home-390 and viewer-forbidden-390."""

import pytest
from django.urls import reverse

from agencies.models import User
from agencies.services import agency_user_create
from panel.roles import TeamRole
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

# A day of work, two people and seven screenshots: longer than the suite's 120 s on a busy host.
pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def member(team, email: str, role: str, first: str, last: str) -> User:
    user = agency_user_create(team=team, email=email, role=role, password=PASSWORD)
    user.first_name, user.last_name = first, last
    user.save(update_fields=["first_name", "last_name"])
    return user


def test_the_members_page_and_a_viewers_home(live_server, browser_pt_br, live_sandbox):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait

    alpha = agency_with_a_day_of_work()
    team = alpha.team
    User.objects.filter(pk=alpha.owner.pk).update(first_name="Ana", last_name="Lima")
    maria = member(team, "maria@alpha.example", TeamRole.AGENT, "Maria", "Souza")
    member(team, "caio@alpha.example", TeamRole.DEVELOPER, "Caio", "Prado")
    member(team, "rita@alpha.example", TeamRole.VIEWER, "Rita", "Alves")
    driver, wait = browser_pt_br, WebDriverWait(browser_pt_br, 10)

    # The owner: the members page, with each one's role.
    log_in_as(live_server, driver, wait, "ana@alpha.example")
    text = open_page(live_server, driver, wait, reverse("admin:agencies_member_changelist"))
    assert "Membros da equipe" in text or "membro da equipe" in text.lower()
    for name, role in [
        ("maria@alpha.example", "Agente"),
        ("caio@alpha.example", "Desenvolvedor"),
        ("rita@alpha.example", "Somente leitura"),
        ("ana@alpha.example", "Proprietário"),
    ]:
        row = driver.find_element(By.XPATH, f"//tr[.//a[normalize-space()='{name}']]")
        assert role in row.text
    actions = [o.text for o in Select(driver.find_element(By.NAME, "action")).options]
    assert "Mudar o perfil para Financeiro" in actions
    assert "Desativar os membros selecionados" in actions
    screenshot(driver, "team-members-1440", DESKTOP)
    screenshot(driver, "team-members-390", PHONE)

    # Maria becomes Financeiro: the confirmation page says what she will do.
    checkbox = f"input[name=_selected_action][value='{maria.pk}']"
    driver.find_element(By.CSS_SELECTOR, checkbox).click()
    Select(driver.find_element(By.NAME, "action")).select_by_visible_text(
        "Mudar o perfil para Financeiro"
    )
    driver.find_element(By.CSS_SELECTOR, "button[name=index]").click()
    wait.until(EC.presence_of_element_located((By.ID, "confirm-question")))
    effect = driver.find_element(By.CSS_SELECTOR, ".confirm-effect").text
    assert effect.startswith("Agente → Financeiro: trabalha em: Carteira, extratos")
    screenshot(driver, "team-member-role-confirm-1440", DESKTOP)
    driver.find_element(By.CSS_SELECTOR, "form input[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    assert (
        "Maria Souza agora é Financeiro."
        in driver.find_element(By.CSS_SELECTOR, "ul.messagelist").text
    )
    maria.refresh_from_db()
    assert maria.team_role == TeamRole.FINANCE
    driver.delete_all_cookies()

    # A viewer: the home page's figures and lists, the menu of every page, no action offered.
    log_in_as(live_server, driver, wait, "rita@alpha.example")
    text = open_page(live_server, driver, wait, reverse("admin:index"))
    assert driver.find_elements(By.ID, "figures") and driver.find_elements(By.ID, "home-keys")
    assert "Adicionar" not in text
    screenshot(driver, "viewer-home-1440", DESKTOP)
    screenshot(driver, "viewer-home-390", PHONE)
    text = open_page(live_server, driver, wait, reverse("admin:agencies_apikey_changelist"))
    assert not driver.find_elements(By.NAME, "action")
    assert not driver.find_elements(By.CSS_SELECTOR, "a.addlink")
    driver.get(live_server.url + reverse("admin:agencies_invitation_add"))
    wait.until(EC.presence_of_element_located((By.ID, "forbidden")))
    assert "Acesso negado (403)" in driver.find_element(By.TAG_NAME, "h1").text
    screenshot(driver, "viewer-forbidden-390", PHONE)
