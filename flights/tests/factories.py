from datetime import timedelta

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from agencies.tests.factories import TeamFactory
from flights.models import OfferRequest, SandboxOrder, SandboxOrderChange


class OfferRequestFactory(DjangoModelFactory):
    """A stored search of one adult with no offers left to book (searches through the API
    store real offers: flights/tests/test_search_api.py)."""

    class Meta:
        model = OfferRequest

    team = factory.SubFactory(TeamFactory)
    live_mode = False
    supplier = "sandbox"
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=30))
    passengers = factory.LazyFunction(lambda: [["pas_0000000000000000000000001", "adult", "p1"]])
    offers = factory.LazyFunction(lambda: {"offers": []})


class SandboxOrderFactory(DjangoModelFactory):
    """An order in the sandbox airline's own book."""

    class Meta:
        model = SandboxOrder

    booking_reference = factory.Sequence(lambda n: f"SB{n:04d}")
    booking_id = factory.Sequence(lambda n: f"ord_factory{n:05d}")
    order_id = factory.Sequence(lambda n: f"sbx_order_{n:05d}")
    created_at = factory.LazyFunction(timezone.now)


class SandboxOrderChangeFactory(DjangoModelFactory):
    """An order change offer of the sandbox airline, not confirmed."""

    class Meta:
        model = SandboxOrderChange

    id = factory.Sequence(lambda n: f"sbx_oco_factory{n:05d}")
    booking_reference = factory.Sequence(lambda n: f"SC{n:04d}")
    data = factory.LazyFunction(
        lambda: {
            "order_id": "sbx_ord_factory",
            "change_total_amount": "120.00",
            "new_total_amount": "920.00",
            "currency": "BRL",
            "refund_to": None,
            "expires_at": (timezone.now() + timedelta(minutes=15)).isoformat(),
            "lost": False,
        }
    )
    created_at = factory.LazyFunction(timezone.now)
