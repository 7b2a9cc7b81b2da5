import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from agencies.models import ApiKey, Team, User, hash_secret
from agencies.permissions import AGENCY_GROUP_NAME
from webhooks.models import Event

pytestmark = pytest.mark.django_db


def run_create_team(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("create_team", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_json_output_is_exactly_one_object_with_the_three_keys():
    out, _ = run_create_team("Sol Viagens", "--owner-email", "dono@sol.example", "--json")
    result = json.loads(out)  # the whole of stdout is one JSON document
    assert set(result) == {"team_id", "test_key", "live_key"}
    assert result["team_id"].startswith("team_")
    assert result["test_key"].startswith("sk_test_") and len(result["test_key"]) == 48
    assert result["live_key"].startswith("sk_live_") and len(result["live_key"]) == 48


def test_creates_team_wallet_owner_and_working_keys():
    out, _ = run_create_team(
        "Sol Viagens",
        "--owner-email",
        "dono@sol.example",
        "--markup-percent",
        "12.5",
        "--fee",
        "30",
        "--json",
    )
    result = json.loads(out)
    team = Team.objects.get(pk=result["team_id"])
    assert team.markup_percent == Decimal("12.50")
    assert team.fee.amount == Decimal("30.00") and str(team.fee.currency) == "BRL"
    assert team.wallet.balance == 0 and team.wallet.currency == "BRL"
    owner = User.objects.get(email="dono@sol.example")
    assert owner.team == team and owner.is_staff and not owner.is_superuser
    assert owner.groups.filter(name=AGENCY_GROUP_NAME).exists()
    # Only hashes are stored, and both keys authenticate in their own mode.
    keys = ApiKey.objects.filter(team=team)
    assert {k.live_mode for k in keys} == {True, False}
    assert not keys.filter(secret_hash__in=[result["test_key"], result["live_key"]]).exists()
    assert keys.get(live_mode=False).secret_hash == hash_secret(result["test_key"])
    for secret, has_meta in ((result["test_key"], True), (result["live_key"], False)):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        body = client.get("/api/v1/nothing").json()  # 404, but authenticated-mode aware
        assert ("_meta" in body) is has_meta
    assert Event.objects.filter(team=team, type="api_key.created").count() == 2


def test_human_output_shows_the_keys_once():
    out, _ = run_create_team("Sol Viagens", "--owner-email", "dono@sol.example")
    assert "sk_test_" in out and "sk_live_" in out and "shown only now" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--markup-percent", "abc"],
        ["--markup-percent", "150"],
        ["--fee", "-1"],
        ["--owner-email", "not-an-email"],
    ],
)
def test_invalid_options_fail_and_create_nothing(args):
    base = ["Sol Viagens", "--owner-email", "dono@sol.example"]
    with pytest.raises((CommandError, SystemExit)):
        run_create_team(*base, *args)
    assert not Team.objects.exists() and not User.objects.exists()


def test_owner_email_already_taken_fails_without_a_half_made_team():
    run_create_team("First", "--owner-email", "dono@sol.example")
    with pytest.raises(CommandError):
        run_create_team("Second", "--owner-email", "dono@sol.example")
    assert list(Team.objects.values_list("name", flat=True)) == ["First"]


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("1", "Esta senha é muito curta"),
        ("password123", "Esta senha é muito comum"),
        ("dono@sol.example", "A senha é muito parecida"),
    ],
)
def test_a_weak_owner_password_is_refused_and_creates_nothing(password, reason):
    with pytest.raises(CommandError, match=f"^password: .*{reason}") as refused:
        run_create_team(
            "Sol Viagens", "--owner-email", "dono@sol.example", "--owner-password", password
        )
    # In a shell, Django prints "CommandError: password: …" and exits with this status.
    assert refused.value.returncode == 1
    assert not Team.objects.exists() and not User.objects.exists()


def test_a_strong_owner_password_logs_into_the_panel(client):
    run_create_team(
        "Sol Viagens",
        "--owner-email",
        "dono@sol.example",
        "--owner-password",
        "maré-alta-em-Ubatuba",
    )
    # Through the panel's login form (the lockout backend wants the request, as a browser's).
    answer = client.post(
        reverse("admin:login"),
        {"username": "dono@sol.example", "password": "maré-alta-em-Ubatuba"},
    )
    assert answer.status_code == 302, answer.content[:500]
    assert client.get(reverse("admin:index")).status_code == 200
