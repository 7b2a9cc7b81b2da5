"""Roles that fail closed, invitations, password reset, login lockout, and the review's panel
findings (a new key's secret kept in the session; a duplicate client's 500)."""

import re
from datetime import timedelta
from functools import partial

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.core import mail
from django.test import Client as BrowserClient
from django.urls import reverse
from django.utils import timezone

from agencies.models import SUPPORT_GROUP_NAME, ApiKey, Client, Invitation, Team, User
from agencies.permissions import AGENCY_GROUP_NAME
from agencies.tests.factories import ClientFactory
from core.models import AuditEntry
from tests.kit import panel
from tests.kit.marks import needs_postgresql
from wallet.models import Recharge, Transaction
from webhooks.models import Event, WebhookEndpoint

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery staple"
SCOPED_MODELS = [Team, ApiKey, Client, Invitation, Recharge, Transaction, Event, WebhookEndpoint]


browser_for = partial(panel.browser_for, language="en")  # the English texts below


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def staff_without_team(*groups: str) -> User:
    user = User.objects.create_user("drifter", "drifter@example.com", PASSWORD, is_staff=True)
    user.groups.add(*(Group.objects.get(name=name) for name in groups))
    return user


def support_member() -> User:
    return staff_without_team(SUPPORT_GROUP_NAME)


# --- Roles ------------------------------------------------------------------------------------


@pytest.mark.parametrize("groups", [(), (AGENCY_GROUP_NAME,)])
def test_staff_without_team_and_without_support_role_sees_nothing(team, other_team, groups):
    """The reproduction: a staff user put in the agency group without a team saw every team."""
    drifter = staff_without_team(*groups)
    browser = browser_for(drifter)
    index = browser.get(reverse("admin:index"))
    assert index.status_code == 302 and reverse("admin:login") in index["Location"]
    for model in SCOPED_MODELS:
        page = browser.get(changelist(model))
        assert page.status_code == 302, model  # to the login page, no rows
        assert team.name not in page.content.decode()
    key = ApiKey.objects.filter(team=team).first()
    page = browser.get(reverse("admin:agencies_apikey_change", args=[key.pk]))
    assert page.status_code == 302 and key.display_prefix not in page.content.decode()


def test_team_scoped_admin_fails_closed_for_a_user_with_no_role(team, rf):
    """Below the site's gate too: TeamScopedAdmin gives a user with no role no rows and no
    permissions, whatever their group permissions say."""
    from django.contrib import admin

    drifter = staff_without_team(AGENCY_GROUP_NAME)
    request = rf.get("/admin/")
    request.user = drifter
    model_admin = admin.site._registry[ApiKey]
    assert model_admin.get_queryset(request).count() == 0
    assert not model_admin.has_view_permission(request)
    assert not model_admin.has_module_permission(request)
    assert not model_admin.has_change_permission(request)


def test_a_support_group_member_sees_every_team(team, other_team):
    support = support_member()
    assert support.is_support and support.panel_role == "support"
    page = browser_for(support).get(changelist(ApiKey))
    assert page.status_code == 200
    teams = set(page.context["cl"].queryset.values_list("team", flat=True))
    assert teams == {team.pk, other_team.pk}


def test_a_team_member_in_the_support_group_stays_an_agency_user(team, team_owner, other_team):
    owner = team_owner
    owner.groups.add(Group.objects.get(name=SUPPORT_GROUP_NAME))
    owner = User.objects.get(pk=owner.pk)
    assert not owner.is_support and owner.panel_role == "agency"
    page = browser_for(owner).get(changelist(ApiKey))
    assert set(page.context["cl"].queryset.values_list("team", flat=True)) == {team.pk}


def test_support_sees_each_users_role_and_filters_by_it(team_owner):
    support = support_member()
    User.objects.create_superuser("root", "root@example.com", PASSWORD)
    staff_nobody = User.objects.create_user("nobody", "n@example.com", PASSWORD, is_staff=True)
    browser = browser_for(support)
    page = browser.get(changelist(User))
    assert page.status_code == 200
    html = page.content.decode()
    for label in ("Superuser", "Support", "Agency user", "No access"):
        assert f">{label}<" in html
    for role, expected in [
        ("agency", {team_owner.pk}),
        ("support", {support.pk}),
        ("none", {staff_nobody.pk}),
    ]:
        filtered = browser.get(changelist(User), {"role": role})
        assert set(filtered.context["cl"].queryset.values_list("pk", flat=True)) == expected


def test_support_cannot_grant_superuser_status(team_owner):
    support = support_member()
    page = browser_for(support).get(reverse("admin:agencies_user_change", args=[team_owner.pk]))
    assert "is_superuser" not in page.context["adminform"].form.fields


def test_agency_users_do_not_see_the_user_list(team_owner):
    assert browser_for(team_owner).get(changelist(User)).status_code == 403


# --- Invitations ------------------------------------------------------------------------------


@pytest.fixture
def invite(django_capture_on_commit_callbacks):
    def post(browser, email="colleague@alpha.example", **extra):
        with django_capture_on_commit_callbacks(execute=True):  # the e-mail goes after commit
            return browser.post(reverse("admin:agencies_invitation_add"), {"email": email, **extra})

    return post


def invitation_link() -> str:
    body = mail.outbox[-1].body
    return re.search(r"http://testserver(/admin/invitation/[^\s]+/)", body).group(1)


def test_an_invitation_sets_a_password_once_and_then_expires(team, team_owner, other_team, invite):
    owner = browser_for(team_owner)
    form = owner.get(reverse("admin:agencies_invitation_add"))
    assert "team" not in form.context["adminform"].form.fields  # their own team only
    assert invite(owner, team=other_team.pk).status_code == 302
    invitation = Invitation.objects.get()
    assert invitation.team == team and invitation.invited_by == team_owner
    assert mail.outbox[-1].to == ["colleague@alpha.example"]
    link = invitation_link()

    visitor = BrowserClient()
    page = visitor.get(link)
    assert page.status_code == 200 and "colleague@alpha.example" in page.content.decode()
    weak = visitor.post(link, {"new_password1": "123", "new_password2": "123"})
    assert weak.status_code == 200 and weak.context["form"].errors  # the validators run
    assert not User.objects.filter(email="colleague@alpha.example").exists()
    done = visitor.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302

    colleague = User.objects.get(email="colleague@alpha.example")
    assert colleague.team == team and colleague.panel_role == "agency"
    assert colleague.check_password(PASSWORD)
    assert (
        BrowserClient()
        .post(reverse("admin:login"), {"username": "colleague@alpha.example", "password": PASSWORD})
        .status_code
        == 302
    )  # logged in

    # Used: the same link cannot set a password again.
    again = BrowserClient().post(
        link, {"new_password1": "x" + PASSWORD, "new_password2": "x" + PASSWORD}
    )
    assert again.status_code == 410
    colleague.refresh_from_db()
    assert colleague.check_password(PASSWORD)


def test_an_invitation_link_expires(team_owner, invite):
    invite(browser_for(team_owner))
    link = invitation_link()
    with time_machine.travel(timezone.now() + timedelta(hours=72, seconds=1)):
        page = BrowserClient().get(link)
        assert page.status_code == 410
        posted = BrowserClient().post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
        assert posted.status_code == 410
    assert not User.objects.filter(email="colleague@alpha.example").exists()


def test_a_forged_invitation_link_is_refused(team_owner, invite):
    invite(browser_for(team_owner))
    link = invitation_link()
    forged = link.replace(link.rstrip("/").rsplit(":", 1)[-1], "forged")
    assert BrowserClient().get(forged).status_code == 410


def test_inviting_answers_the_same_whether_the_address_has_an_account_elsewhere(
    team_owner, other_team_owner, invite
):
    """The review's finding: the form told whether an e-mail had a panel account anywhere. Now
    an address with an account in another team is invited like any other; its e-mail says it
    has an account already (no link), and nothing of the other team changes."""
    owner = browser_for(team_owner)
    unknown = invite(owner, email="nobody.yet@elsewhere.example")
    existing = invite(owner, email=other_team_owner.email.upper())

    assert unknown.status_code == existing.status_code == 302
    assert unknown["Location"] == existing["Location"]
    assert Invitation.objects.count() == 2
    [to_existing] = [m for m in mail.outbox if m.to[0].lower() == other_team_owner.email]
    assert "/admin/invitation/" not in to_existing.body
    assert "já tem uma conta no painel" in to_existing.body
    other_team_owner.refresh_from_db()
    assert other_team_owner.team != team_owner.team


def test_inviting_a_member_of_ones_own_team_is_a_form_error(team_owner, invite):
    response = invite(browser_for(team_owner), email=team_owner.email)
    assert response.status_code == 200
    assert "já é membro desta equipe" in str(response.context["adminform"].form.errors)
    assert not Invitation.objects.exists() and not mail.outbox


# --- Password reset ---------------------------------------------------------------------------


def test_a_forgotten_password_is_reset_from_the_login_page(team_owner):
    owner = User.objects.get(pk=team_owner.pk)
    assert not owner.has_usable_password()  # create_team makes owners without one
    login = BrowserClient().get(reverse("admin:login")).content.decode()
    assert reverse("admin_password_reset") in login

    BrowserClient().post(reverse("admin_password_reset"), {"email": owner.email})
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [owner.email]
    link = re.search(r"http://testserver(/admin/reset/\S+/)", mail.outbox[0].body).group(1)
    visitor = BrowserClient()
    form_page = visitor.get(link, follow=True)  # Django swaps the token for a session marker
    set_url = form_page.redirect_chain[-1][0]
    visitor.post(set_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)
    # Once: the link does not work again.
    assert not BrowserClient().get(link, follow=True).context["validlink"]


def test_password_reset_says_nothing_about_unknown_addresses():
    response = BrowserClient().post(
        reverse("admin_password_reset"), {"email": "who@nowhere.example"}
    )
    assert response.status_code == 302 and not mail.outbox


def test_password_reset_emails_are_limited_per_target_and_sent_from_the_queue(
    team_owner, settings, monkeypatch
):
    """The review's finding: 15 POSTs sent 15 e-mails, from inside the web request. Now the
    e-mail is a task on the `emails` queue, and one address gets at most 3 an hour, however
    many addresses ask (the answer is the same either way)."""
    from panel.tasks import send_password_reset_email

    queued = []
    real_delay = send_password_reset_email.delay
    monkeypatch.setattr(
        send_password_reset_email,
        "delay",
        lambda **kwargs: queued.append(kwargs) or real_delay(**kwargs),
    )
    answers = {
        BrowserClient(REMOTE_ADDR=f"198.51.100.{n}")
        .post(reverse("admin_password_reset"), {"email": team_owner.email.upper()})
        .status_code
        for n in range(15)
    }

    assert answers == {302}
    assert len(queued) == 3 and len(mail.outbox) == 3
    assert {m.to[0] for m in mail.outbox} == {team_owner.email}
    assert "/admin/reset/" in mail.outbox[0].body  # the link, made by the task


def test_password_reset_requests_are_limited_per_address(team_owner, settings):
    settings.PANEL_PASSWORD_RESET_LIMIT_PER_ADDRESS = "4/hour"
    asker = BrowserClient(REMOTE_ADDR="203.0.113.40")
    for n in range(4):
        response = asker.post(reverse("admin_password_reset"), {"email": f"x{n}@example.com"})
        assert response.status_code == 302
    refused = asker.post(reverse("admin_password_reset"), {"email": team_owner.email})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert not mail.outbox
    other = BrowserClient(REMOTE_ADDR="203.0.113.41")
    assert (
        other.post(reverse("admin_password_reset"), {"email": team_owner.email}).status_code == 302
    )
    assert len(mail.outbox) == 1


def test_logged_out_pages_show_no_sidebar_and_the_login_asks_for_the_e_mail(team_owner):
    """The review: pages for visitors not logged in (the login, a forgotten password) showed the
    panel's sidebar, empty; the login's field read "Nome de usuário" though the login is the
    e-mail address."""
    visitor = BrowserClient(headers={"accept-language": "pt-br"})
    for url in (reverse("admin:login"), reverse("admin_password_reset")):
        page = visitor.get(url)
        assert page.status_code == 200
        assert page.context["is_nav_sidebar_enabled"] is False
        assert 'id="nav-sidebar"' not in page.content.decode()
    login = visitor.get(reverse("admin:login")).content.decode()
    assert '<label for="id_username" class="required">E-mail:</label>' in login
    # Logged in, the sidebar is there.
    bookings = browser_for(team_owner).get(reverse("admin:bookings_booking_changelist"))
    assert 'id="nav-sidebar"' in bookings.content.decode()


# --- Login lockout (django-axes) ------------------------------------------------------------------


def login(browser, username, password):
    return browser.post(reverse("admin:login"), {"username": username, "password": password})


def test_repeated_wrong_passwords_lock_the_user_out(team_owner, settings):
    owner = team_owner
    owner.set_password(PASSWORD)
    owner.save()
    browser = BrowserClient()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(browser, owner.username, "wrong").status_code == 200  # the form again
    assert login(browser, owner.username, "wrong").status_code == 429  # the last allowed
    locked = login(browser, owner.username, PASSWORD)  # the right one, too late
    assert locked.status_code == 429
    assert "_auth_user_id" not in browser.session
    # From another address too: the user name is locked, not only the address.
    elsewhere = BrowserClient(REMOTE_ADDR="203.0.113.9")
    assert login(elsewhere, owner.username, PASSWORD).status_code == 429


def test_an_address_trying_many_users_is_locked_out(team, other_team_owner, settings):
    browser = BrowserClient(REMOTE_ADDR="198.51.100.7")
    for n in range(settings.AXES_FAILURE_LIMIT):
        login(browser, f"guess{n}@example.com", "wrong")
    other_team_owner.set_password(PASSWORD)
    other_team_owner.save()
    assert login(browser, other_team_owner.username, PASSWORD).status_code == 429


def test_ones_own_login_between_guesses_does_not_reset_a_victims_count(
    team_owner, other_team_owner, settings
):
    """The review's lockout bypass: rounds of 8 wrong guesses for a victim, each followed by the
    attacker's own successful login from the same address, never lock the victim's name (the
    attacker's success cleared every failure counted for the address). Now a success clears
    only its own user's failures: the victim's name locks at the limit."""
    victim, attacker = team_owner, other_team_owner
    for user in (victim, attacker):
        user.set_password(PASSWORD)
        user.save()
    address = {"REMOTE_ADDR": "198.51.100.20"}
    for _ in range(3):
        guesser = BrowserClient(**address)
        for _ in range(8):
            login(guesser, victim.username, "wrong")
        assert login(BrowserClient(**address), attacker.username, PASSWORD).status_code in (
            302,
            429,  # the address itself locked: the attacker is stopped either way
        )
    assert login(BrowserClient(**address), victim.username, PASSWORD).status_code == 429
    # The name is locked from anywhere (but the victim's own browser: the next test).
    assert (
        login(BrowserClient(REMOTE_ADDR="203.0.113.50"), victim.username, PASSWORD).status_code
        == 429
    )


def test_guesses_from_elsewhere_do_not_lock_the_user_out_of_their_own_browser(team_owner, settings):
    """The review's victim lockout: wrong passwords from anywhere locked the real user out,
    even at their usual address. A browser that logged in before from an address still logs
    in there; a new browser, or the same cookie from another address, is locked."""
    owner = team_owner
    owner.set_password(PASSWORD)
    owner.save()
    home = {"REMOTE_ADDR": "198.51.100.30"}
    usual = BrowserClient(**home)
    assert login(usual, owner.username, PASSWORD).status_code == 302
    usual.post(reverse("admin:logout"))
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        login(BrowserClient(REMOTE_ADDR="203.0.113.66"), owner.username, "wrong")

    assert login(BrowserClient(**home), owner.username, PASSWORD).status_code == 429  # new browser
    assert login(usual, owner.username, PASSWORD).status_code == 302  # the usual one
    # The cookie alone is not enough: from another address the name stays locked.
    from panel.lockout import KNOWN_BROWSER_COOKIE

    elsewhere = BrowserClient(REMOTE_ADDR="192.0.2.77")
    elsewhere.cookies[KNOWN_BROWSER_COOKIE] = usual.cookies[KNOWN_BROWSER_COOKIE].value
    assert login(elsewhere, owner.username, PASSWORD).status_code == 429
    # The usual browser still locks on its own wrong passwords.
    usual.post(reverse("admin:logout"))
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(usual, owner.username, "wrong")
    assert login(usual, owner.username, PASSWORD).status_code == 429


def test_a_forged_known_browser_cookie_counts_for_nothing(team_owner, settings):
    from panel.lockout import KNOWN_BROWSER_COOKIE

    owner = team_owner
    owner.set_password(PASSWORD)
    owner.save()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(BrowserClient(REMOTE_ADDR="203.0.113.67"), owner.username, "wrong")
    forger = BrowserClient(REMOTE_ADDR="203.0.113.67")
    forger.cookies[KNOWN_BROWSER_COOKIE] = owner.username.lower()  # unsigned
    assert login(forger, owner.username, PASSWORD).status_code == 429


def test_support_unlocks_a_locked_out_user(team_owner, settings):
    from axes.models import AccessAttempt

    owner = team_owner
    owner.set_password(PASSWORD)
    owner.save()
    browser = BrowserClient()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(browser, owner.username, "wrong")
    assert login(browser, owner.username, PASSWORD).status_code == 429

    support = browser_for(support_member())
    attempts = support.get(changelist(AccessAttempt))
    assert attempts.status_code == 200 and owner.username in attempts.content.decode()
    support.post(
        changelist(AccessAttempt),
        {
            "action": "delete_selected",
            "_selected_action": list(AccessAttempt.objects.values_list("pk", flat=True)),
            "post": "yes",
        },
    )
    assert not AccessAttempt.objects.exists()
    assert login(browser, owner.username, PASSWORD).status_code == 302


def test_the_lockout_is_over_after_the_cool_off(team_owner, settings):
    owner = team_owner
    owner.set_password(PASSWORD)
    owner.save()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(BrowserClient(), owner.username, "wrong")
    assert login(BrowserClient(), owner.username, PASSWORD).status_code == 429
    with time_machine.travel(timezone.now() + settings.AXES_COOLOFF_TIME + timedelta(seconds=1)):
        assert login(BrowserClient(), owner.username, PASSWORD).status_code == 302


# --- A new key's secret: shown once, stored nowhere ---------------------------------------------


def test_a_new_keys_secret_is_in_the_creating_response_only(team_owner, caplog):
    browser = browser_for(team_owner)
    response = browser.post(
        reverse("admin:agencies_apikey_add"), {"name": "Checkout", "live_mode": "on"}
    )
    assert response.status_code == 200
    shown = re.findall(r"sk_live_[A-Za-z0-9]{40}", response.content.decode())
    assert len(set(shown)) == 1
    secret = shown[0]
    assert "no-store" in response["Cache-Control"]
    # Not in the session (where messages were kept), not in any cookie, not in the logs.
    for session in Session.objects.all():
        assert secret not in str(session.get_decoded())
    assert all(secret not in morsel.value for morsel in browser.cookies.values())
    assert all(secret not in record.getMessage() for record in caplog.records)
    # Not in the audit trail either.
    assert all(secret not in str(entry.changes) for entry in AuditEntry.objects.all())
    # And the next page does not show it.
    assert secret not in browser.get(changelist(ApiKey)).content.decode()


# --- A client whose e-mail exists: a form error, not a 500 ----------------------------------------


def test_adding_a_client_whose_email_exists_is_a_form_error(team, team_owner):
    ClientFactory(team=team, live_mode=True, email="ana@example.com")
    response = browser_for(team_owner).post(
        reverse("admin:agencies_client_add"),
        {"live_mode": "on", "full_name": "Ana Again", "email": "ana@example.com"},
    )
    assert response.status_code == 200
    assert "email" in response.context["adminform"].form.errors
    assert "A client with this e-mail already exists." in response.content.decode()
    assert Client.objects.filter(team=team, email="ana@example.com").count() == 1


def test_the_same_email_in_the_other_mode_or_team_is_fine(team, team_owner, other_team):
    ClientFactory(team=other_team, live_mode=True, email="ana@example.com")
    ClientFactory(team=team, live_mode=False, email="ana@example.com")
    response = browser_for(team_owner).post(
        reverse("admin:agencies_client_add"),
        {"live_mode": "on", "full_name": "Ana", "email": "ana@example.com"},
    )
    assert response.status_code == 302
    assert Client.objects.get(team=team, live_mode=True).email == "ana@example.com"


@needs_postgresql("row locks; SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
def test_one_link_submitted_twice_at_once_makes_one_user(team, team_owner):
    import threading

    from django.db import connection

    from agencies.services import InvitationInvalid, invitation_accept

    invitation = Invitation.objects.create(
        team=team,
        email="twice@alpha.example",
        invited_by=team_owner,
        expires_at=timezone.now() + timedelta(hours=1),
    )
    start, outcomes = threading.Barrier(2), []

    def accept():
        try:
            start.wait()
            invitation_accept(invitation=invitation, password=PASSWORD)
            outcomes.append("created")
        except InvitationInvalid:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=accept) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["created", "refused"]
    assert User.objects.filter(email="twice@alpha.example").count() == 1


def test_withdrawing_a_pending_invitation_kills_its_link(team_owner, invite):
    owner = browser_for(team_owner)
    invite(owner)
    link = invitation_link()
    invitation = Invitation.objects.get()
    owner.post(reverse("admin:agencies_invitation_delete", args=[invitation.pk]), {"post": "yes"})
    assert not Invitation.objects.exists()
    assert BrowserClient().get(link).status_code == 410


def test_role_changes_are_in_the_users_history(team):
    support = browser_for(User.objects.create_superuser("root", "root@example.com", PASSWORD))
    drifter = staff_without_team()
    drifter.groups.add(Group.objects.get(name=SUPPORT_GROUP_NAME))
    page = support.get(reverse("admin:agencies_user_history", args=[drifter.pk]))
    assert page.status_code == 200 and "Support" in page.content.decode()
