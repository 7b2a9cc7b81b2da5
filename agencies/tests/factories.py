import factory
from factory.django import DjangoModelFactory

from agencies.models import Client, Team, User
from agencies.services import team_create


class TeamFactory(DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"Agency {n}")
    notification_email = factory.Sequence(lambda n: f"ops{n}@agency.example")


class ClientFactory(DjangoModelFactory):
    class Meta:
        model = Client

    team = factory.SubFactory(TeamFactory)
    live_mode = True
    full_name = factory.Faker("name")
    email = factory.Sequence(lambda n: f"client{n}@example.com")


class SupportUserFactory(DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"support{n}")
    is_staff = True
    is_superuser = True


def make_team(name: str = "Agency", **kwargs):
    """A team as `create_team` makes it: wallet, owner panel user, a test and a live key."""
    email = kwargs.pop("owner_email", f"owner-{name.lower().replace(' ', '-')}@agency.example")
    return team_create(name=name, owner_email=email, **kwargs)
