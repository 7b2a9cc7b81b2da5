"""Every team has exactly one live wallet from the start, however it was made: the wallet app
opens it when the team is first saved (wallet/receivers.py), not `team_create`."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from agencies.models import Team
from agencies.services import team_create
from agencies.tests.factories import ApiKeyFactory, TeamFactory
from tests.kit.factories import make_team
from wallet.models import Wallet
from wallet.tests.factories import TransactionFactory, WalletFactory

pytestmark = pytest.mark.django_db


def wallets_of(team) -> list[tuple[Decimal, str]]:
    return list(Wallet.objects.filter(team=team).values_list("balance", "currency"))


def test_team_create_opens_one_empty_wallet():
    team = make_team("Sol").team
    assert wallets_of(team) == [(Decimal("0.00"), "BRL")]


def test_the_create_team_command_ends_with_one_wallet():
    call_command("create_team", "Lua", "--owner-email", "dono@lua.example", stdout=StringIO())
    assert wallets_of(Team.objects.get(name="Lua")) == [(Decimal("0.00"), "BRL")]


def test_factories_end_with_one_wallet_per_team():
    made = [
        TeamFactory(),
        ApiKeyFactory().team,
        WalletFactory().team,  # the wallet the team already has, not a second one
        TransactionFactory().team,
    ]
    assert [len(wallets_of(team)) for team in made] == [1, 1, 1, 1]
    assert WalletFactory(team=made[0]) == Wallet.objects.get(team=made[0])


def test_saving_a_team_again_opens_nothing():
    team = TeamFactory()
    team.name = "Renamed"
    team.save()
    assert len(wallets_of(team)) == 1


def test_the_wallet_is_rolled_back_with_the_team():
    make_team("First", owner_email="dono@sol.example")
    with pytest.raises(ValidationError):  # the owner's user name is taken, after the team saved
        team_create(name="Second", owner_email="dono@sol.example")
    assert list(Wallet.objects.values_list("team__name", flat=True)) == ["First"]
