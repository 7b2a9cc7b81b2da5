"""`python manage.py connect_supplier <team_id> duffel` with the token on standard input (or in
`--access-token-file`, never on the command line): connects the team's live flight supplier,
replacing the active one, and prints the new integration id."""

from io import StringIO

import pytest
from django.core.management import CommandError, ManagementUtility, call_command

from agencies.models import Integration
from agencies.services import integration_connect
from flights.suppliers import supplier_for
from flights.suppliers.duffel import DuffelSupplier
from webhooks.models import Event

pytestmark = pytest.mark.django_db


def connect(*args, token: str) -> str:
    out = StringIO()
    call_command("connect_supplier", *args, stdout=out, stdin=StringIO(token + "\n"))
    return out.getvalue()


def test_connects_duffel_for_live_mode_and_prints_the_integration_id(team, settings):
    settings.DUFFEL_BASE_URL = "http://127.0.0.1:9/duffel"

    out = connect(team.id, "duffel", token="duffel_live_first")

    integration = Integration.objects.get()
    assert out.strip() == integration.id and integration.id.startswith("itg_")
    assert (integration.team, integration.live_mode, integration.provider) == (
        team,
        True,
        "duffel",
    )
    assert integration.status == "active" and integration.access_token == "duffel_live_first"
    (event,) = Event.objects.filter(type="integration.connected")
    assert event.live_mode is True and event.data_object["id"] == integration.id
    # Live searches now go to Duffel, at the configured address, with this token.
    supplier = supplier_for(team=team, live_mode=True)
    assert isinstance(supplier, DuffelSupplier)
    assert supplier.base_url == "http://127.0.0.1:9/duffel"
    assert supplier.session.headers["Authorization"] == "Bearer duffel_live_first"


def test_replaces_the_active_integration(team):
    first = connect(team.id, "duffel", token="duffel_live_first").strip()
    test_mode = integration_connect(
        team=team, live_mode=False, provider="duffel", access_token="duffel_test_x"
    )

    second = connect(team.id, "duffel", token="  duffel_live_second").strip()

    assert second != first
    old, new = Integration.objects.get(pk=first), Integration.objects.get(pk=second)
    assert old.status == "disconnected" and old.disconnected_at is not None
    assert new.status == "active" and new.access_token == "duffel_live_second"
    test_mode.refresh_from_db()
    assert test_mode.status == "active"  # the test-mode one is not touched
    live_events = Event.objects.filter(live_mode=True, type__startswith="integration.").order_by(
        "created_at"
    )
    assert [(e.type, e.data_object["id"]) for e in live_events] == [
        ("integration.connected", first),
        ("integration.disconnected", first),
        ("integration.connected", second),
    ]
    supplier = supplier_for(team=team, live_mode=True)
    assert supplier.session.headers["Authorization"] == "Bearer duffel_live_second"


@pytest.mark.parametrize(
    ("args", "token", "message"),
    [
        (("team_unknown", "duffel"), "x", "Unknown team: 'team_unknown'"),
        (("{team}", "amadeus"), "x", "Unknown provider: 'amadeus' (known: duffel)"),
        (("{team}", "duffel"), "", "The access token is empty"),
        (("{team}", "duffel"), "   ", "The access token is empty"),
        (
            ("{team}", "duffel", "--access-token", "x"),
            "",
            "The access token is not taken on the command line (other users and the shell's "
            "history would see it): pipe it on standard input or use --access-token-file",
        ),
        (
            ("{team}", "duffel", "--access-token-file", "/nonexistent/token"),
            "",
            "Cannot read the access token file: [Errno 2] No such file or directory: "
            "'/nonexistent/token'",
        ),
    ],
)
def test_errors_change_nothing(team, args, token, message):
    connect(team.id, "duffel", token="duffel_live_first")
    events = Event.objects.count()
    args = [a.format(team=team.id) for a in args]

    with pytest.raises(CommandError) as raised:
        connect(*args, token=token)

    assert str(raised.value) == message
    assert Integration.objects.get().access_token == "duffel_live_first"
    assert Event.objects.count() == events


def test_the_token_may_come_from_a_file(team, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("duffel_live_from_file\n")

    connect(team.id, "duffel", "--access-token-file", str(token_file), token="ignored")

    assert Integration.objects.get().access_token == "duffel_live_from_file"


# As from a shell: Django closes the database connections after the command, which a test
# inside a transaction would not survive.
@pytest.mark.django_db(transaction=True)
def test_from_the_command_line_an_error_exits_non_zero_with_its_message(team, capsys):
    utility = ManagementUtility(
        [
            "manage.py",
            "connect_supplier",
            "team_unknown",
            "duffel",
            "--access-token-file",
            "/dev/null",
        ]
    )

    with pytest.raises(SystemExit) as exited:
        utility.execute()

    assert exited.value.code == 1
    captured = capsys.readouterr()
    assert "Unknown team: 'team_unknown'" in captured.err and captured.out == ""
    assert not Integration.objects.exists()


@pytest.mark.django_db(transaction=True)  # from a shell: the command closes the connections
def test_the_access_token_is_required(team, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", StringIO(""))  # nothing piped in
    utility = ManagementUtility(["manage.py", "connect_supplier", team.id, "duffel"])

    with pytest.raises(SystemExit) as exited:
        utility.execute()

    assert exited.value.code == 1
    assert "The access token is empty" in capsys.readouterr().err
    assert not Integration.objects.exists()
