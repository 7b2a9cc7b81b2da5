"""The invitation as the invitee reads it (who invited them to which team, from the service's
Portuguese name, the link's last moment in Brasília time, labelled once) and what happens when
they accept it: logged in, on the panel's home, told so (docs/emails.md)."""

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client as BrowserClient
from django.urls import reverse

from tests.kit.panel import browser_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time")]

PASSWORD = "correct horse battery staple"


@pytest.fixture
def invite(team, team_owner, django_capture_on_commit_callbacks):
    team.name = "Agência Sol & Mar"
    team.save()

    def post(email="colleague@alpha.example"):
        with django_capture_on_commit_callbacks(execute=True):  # the e-mail goes after commit
            response = browser_for(team_owner).post(
                reverse("admin:agencies_invitation_add"), {"email": email}
            )
        assert response.status_code == 302
        return mail.outbox[-1]

    return post


def test_the_invitation_names_who_invited_to_which_team(team_owner, invite):
    team_owner.first_name, team_owner.last_name = "Maria", "Souza"
    team_owner.save()
    message = invite()

    assert message.subject == "Maria Souza convidou você para a equipe Agência Sol & Mar"
    assert (
        message.from_email
        == f"=?utf-8?q?Painel_da_Ag=C3=AAncia?= <{settings.SERVICE_EMAIL_ADDRESS}>"
    )
    assert message.reply_to == [team_owner.email]  # the answer reaches the person who invited
    html = message.alternatives[0][0]
    assert "Maria Souza convidou você para a equipe Agência Sol & Mar no painel de controle." in (
        message.body
    )
    assert "Maria Souza convidou você para a equipe <strong>Agência Sol &amp; Mar</strong>" in html
    # 72 hours after 12:00 in São Paulo on 22 November: one label, Brasília's.
    expiry = "O link expira em 25 de novembro de 2026, 12:00 (horário de Brasília)."
    for body in (message.body, html):
        assert expiry in body
        assert body.count("horário de Brasília") == 1 and "São Paulo" not in body


def test_without_a_name_the_inviter_is_their_address(team_owner, invite):
    message = invite()
    assert message.subject == f"{team_owner.email} convidou você para a equipe Agência Sol & Mar"


def test_accepting_logs_the_invitee_in_on_the_panels_home(team, invite):
    body = invite().body
    link = re.search(r"http://testserver(/admin/invitation/[^\s]+/)", body).group(1)
    visitor = BrowserClient()
    done = visitor.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD}, follow=True)

    assert done.redirect_chain == [(reverse("admin:index"), 302)]
    assert done.context["user"].email == "colleague@alpha.example"
    assert done.context["user"].is_authenticated
    page = done.content.decode()
    assert (
        "Sua senha foi definida e você já entrou no painel da equipe Agência Sol &amp; Mar." in page
    )


def test_a_refused_password_logs_nobody_in(invite):
    body = invite().body
    link = re.search(r"http://testserver(/admin/invitation/[^\s]+/)", body).group(1)
    visitor = BrowserClient()
    weak = visitor.post(link, {"new_password1": "123", "new_password2": "123"})
    assert weak.status_code == 200 and weak.context["form"].errors
    assert "_auth_user_id" not in visitor.session
