"""Agency users made before roles keep what they could do: the migration that adds roles makes
each of them an owner of their team (docs/roles.md)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from agencies.models import Invitation, User
from agencies.tests.factories import InvitationFactory
from panel.roles import TeamRole

BEFORE = [("agencies", "0010_api_key_permissions")]


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate(targets):
    """Migrate the test database to `targets`; returns the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_agency_users_from_before_roles_become_owners(team):
    old = migrate(BEFORE)
    try:
        OldUser = old.get_model("agencies", "User")
        OldUser.objects.create(
            username="joao@alpha.example", email="joao@alpha.example", team_id=team.pk
        )
        OldUser.objects.create(username="desk@support.example", is_staff=True)
    finally:
        migrate(latest())
    assert User.objects.get(username="joao@alpha.example").team_role == TeamRole.OWNER
    # Not a team's member: no role to keep (support is not governed by roles).
    assert User.objects.get(username="desk@support.example").team_role == TeamRole.VIEWER
    # Invitations made from now on invite an agent unless another role is chosen.
    assert InvitationFactory(team=team).role == TeamRole.AGENT
    assert Invitation.objects.count() == 1
