from datetime import timedelta

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from agencies.models import (
    ApiKey,
    ApiRequest,
    Client,
    Integration,
    Invitation,
    Member,
    Team,
    User,
)
from agencies.services import api_key_create


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
    password = factory.django.Password(None)  # unusable: tests log in with force_login
    is_staff = True
    is_superuser = True


class ApiKeyFactory(DjangoModelFactory):
    """A key made as the panel and `create_team` make it; the secret (shown once) is on
    `.secret`."""

    class Meta:
        model = ApiKey

    team = factory.SubFactory(TeamFactory)
    live_mode = False
    name = "Integration key"

    @classmethod
    def _create(cls, model_class, *, team, live_mode, name, **fields):
        key, secret = api_key_create(team=team, live_mode=live_mode, name=name, **fields)
        key.secret = secret
        return key


class IntegrationFactory(DjangoModelFactory):
    """A connected supplier account (Duffel), its token encrypted at rest."""

    class Meta:
        model = Integration

    team = factory.SubFactory(TeamFactory)
    live_mode = True
    provider = Integration.Provider.DUFFEL
    access_token = factory.Sequence(lambda n: f"duffel_live_token{n:04d}")


class InvitationFactory(DjangoModelFactory):
    """An invitation to join a team's panel, still valid for a week."""

    class Meta:
        model = Invitation

    team = factory.SubFactory(TeamFactory)
    email = factory.Sequence(lambda n: f"invited{n}@agency.example")
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=7))


class MemberFactory(DjangoModelFactory):
    """A team's panel user as its owner manages them: an agent."""

    class Meta:
        model = Member

    team = factory.SubFactory(TeamFactory)
    username = factory.Sequence(lambda n: f"member{n}@agency.example")
    email = factory.LazyAttribute(lambda member: member.username)
    is_staff = True
    team_role = "agent"
    password = factory.django.Password("correct horse battery staple")


class ApiRequestFactory(DjangoModelFactory):
    """One API request in the log, as the request log's flusher writes it."""

    class Meta:
        model = ApiRequest

    created_at = factory.LazyFunction(timezone.now)
    team = factory.SubFactory(TeamFactory)
    live_mode = False
    method = "GET"
    path = "/api/v1/wallet/balance"
    status = 200
    latency_ms = 12
    request_id = factory.Sequence(lambda n: f"{n:032x}")
