import factory
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from factory.django import DjangoModelFactory

from agencies.tests.factories import TeamFactory
from webhooks.models import Delivery, DeliveryAttempt, Event, EventType, WebhookEndpoint
from webhooks.services import event_record

SECRET = "whsec_test_secret_for_signatures"


def make_endpoint(team, url: str, *, events=("wallet.credit",), live_mode=True, **fields):
    """An endpoint as the API registers it (the probe is the API's business, tested there)."""
    return WebhookEndpoint.objects.create(
        team=team, live_mode=live_mode, url=url, events=list(events), secret=SECRET, **fields
    )


def record(team, *, type=EventType.WALLET_CREDIT, live_mode=True, data=None, previous=None):
    """An event recorded as the services do: in its own transaction."""
    with transaction.atomic():
        return event_record(
            team=team,
            live_mode=live_mode,
            type=type,
            data_object=data or {"object": "transaction", "id": "txn_1"},
            previous_attributes=previous,
        )


class EventFactory(DjangoModelFactory):
    """A wallet.credit event written as a row, without deliveries (`record` above writes one
    the way the services do, with its deliveries)."""

    class Meta:
        model = Event

    team = factory.SubFactory(TeamFactory)
    live_mode = True
    type = EventType.WALLET_CREDIT
    api_version = factory.LazyFunction(lambda: settings.WEBHOOK_API_VERSION)
    data_object = factory.Sequence(lambda n: {"object": "transaction", "id": f"txn_{n:05d}"})


class WebhookEndpointFactory(DjangoModelFactory):
    """An active endpoint subscribed to wallet.credit (`make_endpoint` above, with a URL)."""

    class Meta:
        model = WebhookEndpoint

    team = factory.SubFactory(TeamFactory)
    live_mode = True
    url = factory.Sequence(lambda n: f"https://hooks{n}.agency.example/webhooks")
    events = factory.LazyFunction(lambda: ["wallet.credit"])
    secret = SECRET


class DeliveryFactory(DjangoModelFactory):
    """A pending delivery of an event to an endpoint of the same team and mode."""

    class Meta:
        model = Delivery

    endpoint = factory.SubFactory(WebhookEndpointFactory)
    event = factory.SubFactory(
        EventFactory,
        team=factory.SelfAttribute("..endpoint.team"),
        live_mode=factory.SelfAttribute("..endpoint.live_mode"),
    )


class DeliveryAttemptFactory(DjangoModelFactory):
    """A first attempt the endpoint answered with 200."""

    class Meta:
        model = DeliveryAttempt

    delivery = factory.SubFactory(DeliveryFactory)
    number = 1
    attempted_at = factory.LazyFunction(timezone.now)
    succeeded = True
    status_code = 200
    duration_ms = 120
