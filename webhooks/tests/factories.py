import factory
from django.conf import settings
from django.utils import timezone
from factory.django import DjangoModelFactory

from agencies.tests.factories import TeamFactory
from tests.kit.factories import SECRET
from webhooks.models import Delivery, DeliveryAttempt, Event, EventType, WebhookEndpoint


class EventFactory(DjangoModelFactory):
    """A wallet.credit event written as a row, without deliveries (tests/kit/factories.py's
    `record` writes one the way the services do, with its deliveries)."""

    class Meta:
        model = Event

    team = factory.SubFactory(TeamFactory)
    live_mode = True
    type = EventType.WALLET_CREDIT
    api_version = factory.LazyFunction(lambda: settings.WEBHOOK_API_VERSION)
    data_object = factory.Sequence(lambda n: {"object": "transaction", "id": f"txn_{n:05d}"})


class WebhookEndpointFactory(DjangoModelFactory):
    """An active endpoint subscribed to wallet.credit (the kit's `make_endpoint`, with a URL)."""

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
