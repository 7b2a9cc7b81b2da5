"""A team's members and their roles: the owner changes them (a confirmation page, then one audit
entry), nobody else can, and a team never loses its last active owner; an invitation carries a
role to the user it creates; the activity list says which role each person acted in."""

import re
from functools import partial

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core import mail
from django.test import Client as BrowserClient
from django.urls import reverse

from agencies.models import Invitation, Member, User
from agencies.services import LastOwner, agency_user_create, member_active_set, member_role_change
from core.models import AuditEntry
from dashboard.display import home_sections
from panel.roles import TeamRole
from tests.kit import panel

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery staple"
MEMBERS = reverse("admin:agencies_member_changelist")

browser_for = partial(panel.browser_for, language="en")


def colleague(team, role: str, name: str = "maria") -> User:
    user = agency_user_create(team=team, email=f"{name}@alpha.example", role=role)
    user.first_name = name.capitalize()
    user.save(update_fields=["first_name"])
    return user


def change_role(browser, member: User, action: str, *, confirmed: bool):
    data = {"action": action, "_selected_action": [member.pk], "index": 0}
    if confirmed:
        data["post"] = "yes"
    return browser.post(MEMBERS, data, follow=confirmed)


def test_a_new_teams_first_user_is_its_owner(team_owner):
    assert team_owner.team_role == TeamRole.OWNER


def test_the_owner_changes_a_members_role_after_a_confirmation_page(team, team_owner):
    maria = colleague(team, TeamRole.AGENT)
    owner = browser_for(team_owner)

    listed = owner.get(MEMBERS)
    assert listed.status_code == 200
    assert [m.username for m in listed.context["cl"].result_list] == [
        "maria@alpha.example",
        team_owner.username,
    ]
    question = change_role(owner, maria, "make_finance", confirmed=False)
    assert question.status_code == 200
    page = question.content.decode()
    assert "Give these members the role Finance?" in page
    assert "Agent → Finance: works in: Wallet, statements, recharges and withdrawals" in page
    maria.refresh_from_db()
    assert maria.team_role == TeamRole.AGENT  # not before "yes"

    done = change_role(owner, maria, "make_finance", confirmed=True)
    assert [str(m) for m in done.context["messages"]] == ["Maria is now Finance."]
    maria.refresh_from_db()
    assert maria.team_role == TeamRole.FINANCE
    entry = AuditEntry.objects.get(additional_data__action="member_role_change")
    assert entry.actor == team_owner and entry.team_id == team.pk
    assert entry.content_type == ContentType.objects.get_for_model(User)
    assert entry.changes_dict["team_role"] == ["agent", "finance"]
    assert entry.actor_role == TeamRole.OWNER
    # The member's history page shows it.
    history = owner.get(reverse("admin:agencies_member_history", args=[maria.pk]))
    assert "Changed role" in history.content.decode()


@pytest.mark.parametrize(
    "role", [TeamRole.FINANCE, TeamRole.AGENT, TeamRole.DEVELOPER, TeamRole.VIEWER]
)
def test_only_an_owner_changes_roles_even_posting_directly(team, team_owner, role):
    member = colleague(team, role, "joao")
    browser = browser_for(member)
    for action in ("make_owner", "deactivate"):
        for confirmed in (False, True):
            answer = change_role(browser, team_owner, action, confirmed=confirmed)
            assert answer.status_code in (200, 403)
            assert b"confirm-question" not in answer.content
    member.refresh_from_db()
    team_owner.refresh_from_db()
    assert member.team_role == role and team_owner.is_active
    assert not AuditEntry.objects.filter(additional_data__action__startswith="member_").exists()


def test_a_viewer_reads_the_members_but_is_offered_no_action(team, team_owner):
    viewer = colleague(team, TeamRole.VIEWER)
    listed = browser_for(viewer).get(MEMBERS)
    assert listed.status_code == 200 and listed.context["action_form"] is None
    page = browser_for(viewer).get(reverse("admin:agencies_member_change", args=[team_owner.pk]))
    assert page.status_code == 200 and not page.context["has_change_permission"]


def test_another_teams_members_are_not_listed_nor_changed(team_owner, other_team_owner):
    owner = browser_for(team_owner)
    assert other_team_owner.username not in owner.get(MEMBERS).content.decode()
    change_role(owner, other_team_owner, "make_viewer", confirmed=True)
    other_team_owner.refresh_from_db()
    assert other_team_owner.team_role == TeamRole.OWNER


def test_the_last_owner_cannot_be_demoted_or_deactivated(team, team_owner):
    owner = browser_for(team_owner)
    for action in ("make_viewer", "deactivate"):
        done = change_role(owner, team_owner, action, confirmed=True)
        assert (
            "A team keeps at least one active owner: make someone else owner first"
            in done.content.decode()
        )
    team_owner.refresh_from_db()
    assert team_owner.team_role == TeamRole.OWNER and team_owner.is_active
    assert not AuditEntry.objects.filter(additional_data__action__startswith="member_").exists()

    # With a second owner, the first may step down.
    second = colleague(team, TeamRole.AGENT)
    change_role(owner, second, "make_owner", confirmed=True)
    change_role(owner, team_owner, "make_agent", confirmed=True)
    team_owner.refresh_from_db()
    assert team_owner.team_role == TeamRole.AGENT
    # ...and the remaining owner is the last one again.
    with pytest.raises(LastOwner):
        member_role_change(member=second, role=TeamRole.VIEWER)
    with pytest.raises(LastOwner):
        member_active_set(member=second, active=False)


def test_an_inactive_owner_does_not_count_as_the_teams_owner(team, team_owner):
    other = colleague(team, TeamRole.OWNER)
    member_active_set(member=other, active=False)
    with pytest.raises(LastOwner):
        member_role_change(member=team_owner, role=TeamRole.FINANCE)


def test_a_deactivated_member_can_no_longer_log_in_and_is_reactivated(team, team_owner):
    maria = colleague(team, TeamRole.AGENT)
    maria.set_password(PASSWORD)
    maria.save()
    owner = browser_for(team_owner)
    change_role(owner, maria, "deactivate", confirmed=True)
    login = {"username": maria.username, "password": PASSWORD}
    assert BrowserClient().post(reverse("admin:login"), login).status_code == 200  # refused
    change_role(owner, maria, "reactivate", confirmed=True)
    assert BrowserClient().post(reverse("admin:login"), login).status_code == 302
    actions = AuditEntry.objects.filter(object_pk=str(maria.pk)).values_list(
        "additional_data__action", flat=True
    )
    assert {"member_deactivate", "member_reactivate"} <= set(actions)


def test_members_cannot_be_added_or_deleted_in_the_members_page(team, team_owner):
    owner = browser_for(team_owner)
    assert owner.get(reverse("admin:agencies_member_add")).status_code == 403
    maria = colleague(team, TeamRole.AGENT)
    deleted = owner.post(reverse("admin:agencies_member_delete", args=[maria.pk]), {"post": "yes"})
    assert deleted.status_code == 403
    assert Member.objects.filter(pk=maria.pk).exists()


# --- Invitations carry a role -----------------------------------------------------------------


def invitation_link() -> str:
    return re.search(r"http://testserver(/admin/invitation/[^\s]+/)", mail.outbox[-1].body).group(1)


def test_an_invitation_gives_the_role_chosen(team, team_owner, django_capture_on_commit_callbacks):
    owner = browser_for(team_owner)
    form = owner.get(reverse("admin:agencies_invitation_add"))
    role_field = form.context["adminform"].form.fields["role"]
    assert role_field.initial == TeamRole.AGENT
    with django_capture_on_commit_callbacks(execute=True):
        answer = owner.post(
            reverse("admin:agencies_invitation_add"),
            {"email": "dev@alpha.example", "role": TeamRole.DEVELOPER},
        )
    assert answer.status_code == 302
    assert Invitation.objects.get().role == TeamRole.DEVELOPER
    page = panel.browser_for(team_owner, language="pt-br")
    page.logout()
    accept = page.get(invitation_link()).content.decode()
    assert "Seu perfil na equipe: Desenvolvedor." in accept
    done = BrowserClient().post(
        invitation_link(), {"new_password1": PASSWORD, "new_password2": PASSWORD}
    )
    assert done.status_code == 302
    dev = User.objects.get(email="dev@alpha.example")
    assert dev.team == team and dev.team_role == TeamRole.DEVELOPER


def test_an_invitation_posted_without_a_role_invites_an_agent(team_owner):
    answer = browser_for(team_owner).post(
        reverse("admin:agencies_invitation_add"), {"email": "new@alpha.example"}
    )
    assert answer.status_code == 302
    assert Invitation.objects.get().role == TeamRole.AGENT


def test_only_an_owner_invites(team, team_owner):
    for role in (TeamRole.FINANCE, TeamRole.AGENT, TeamRole.DEVELOPER, TeamRole.VIEWER):
        member = colleague(team, role, role.value)
        answer = browser_for(member).post(
            reverse("admin:agencies_invitation_add"),
            {"email": "x@alpha.example", "role": TeamRole.OWNER},
        )
        assert answer.status_code == 403
    assert not Invitation.objects.exists()


# --- The audit entry keeps the actor's role ---------------------------------------------------


def test_an_entry_records_the_role_its_actor_had_and_the_activity_list_shows_it(team, team_owner):
    maria = colleague(team, TeamRole.AGENT)
    browser = panel.browser_for(maria)  # in Portuguese
    added = browser.post(
        reverse("admin:agencies_client_add"),
        {"live_mode": "on", "full_name": "Ana Souza", "email": "ana@example.com"},
    )
    assert added.status_code == 302
    entry = AuditEntry.objects.get(object_repr__startswith="Ana Souza")
    assert entry.actor == maria and entry.actor_role == TeamRole.AGENT

    # Her role changes later; the entry keeps the one she acted in.
    member_role_change(member=maria, role=TeamRole.FINANCE)
    activity = panel.browser_for(team_owner).get(reverse("admin:core_auditentry_changelist"))
    assert "Maria (Agente)" in activity.content.decode()
    # An entry without an agency actor (made by the system) has no role.
    assert AuditEntry(additional_data={}).actor_role == ""


# --- The home page shows what the role reads --------------------------------------------------


@pytest.mark.parametrize(
    ("role", "shows"),
    [
        (TeamRole.OWNER, dict(todo=1, figures=1, developers=1, bookings=1, recharge=1)),
        (TeamRole.FINANCE, dict(todo=1, figures=1, developers=0, bookings=0, recharge=1)),
        (TeamRole.AGENT, dict(todo=1, figures=0, developers=0, bookings=1, recharge=0)),
        (TeamRole.DEVELOPER, dict(todo=0, figures=0, developers=1, bookings=0, recharge=0)),
        (TeamRole.VIEWER, dict(todo=1, figures=1, developers=1, bookings=1, recharge=0)),
    ],
)
def test_the_home_page_shows_the_parts_the_role_reads(team, team_owner, role, shows):
    user = team_owner if role == TeamRole.OWNER else colleague(team, role)
    shows = {part: bool(shown) for part, shown in shows.items()}
    assert home_sections(user) == shows
    page = browser_for(user).get(reverse("admin:index")).content.decode()
    assert ('id="figures"' in page) == shows["figures"]
    assert ('id="home-keys"' in page) == shows["developers"]
    assert ('id="home-webhooks"' in page) == shows["developers"]
    # The menu lists only the pages the role opens.
    assert (reverse("admin:agencies_apikey_changelist") in page) == shows["developers"]
    members_listed = reverse("admin:agencies_member_changelist") in page
    assert members_listed == (role in (TeamRole.OWNER, TeamRole.VIEWER))
