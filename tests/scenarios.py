"""Whole agencies as the panel's browser tests show them (a plain module, not a test module)."""

from datetime import timedelta
from decimal import Decimal

from django.utils import timezone
from rest_framework.test import APIClient

from agencies.models import Team
from bookings.tests.helpers import book, holdable
from tests.kit.browsers import PASSWORD
from tests.kit.factories import fund, make_endpoint, make_team
from tests.kit.passengers import passenger
from wallet.services import recharge_complete, recharge_create
from webhooks.models import Delivery, DeliveryAttempt, Event


def agency_with_a_day_of_work():
    """Alpha Travel after a day: recharges, bookings, a webhook with many deliveries."""
    made = make_team(
        "Alpha Travel",
        owner_email="ana@alpha.example",
        owner_password=PASSWORD,
        fee=Decimal("12.00"),
        markup_percent=Decimal("10.00"),
    )
    Team.objects.filter(pk=made.team.pk).update(tax_id="12.345.678/0001-95")
    fund(made.team, "25000.00")
    paid = recharge_create(
        team=made.team, live_mode=True, amount=Decimal("1234.56"), payment_method="pix"
    )
    recharge_complete(recharge=paid)
    recharge_create(
        team=made.team, live_mode=True, amount=Decimal("500.00"), payment_method="boleto"
    )
    recharge_create(team=made.team, live_mode=False, amount=Decimal("300.00"), payment_method="pix")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {made.live_key}")
    offer = holdable(api)
    made_ok = book(api, offer, type="instant", metadata={"client_reference": "PED-2026-0042"})
    assert made_ok.status_code == 201, made_ok.json()
    offer = holdable(api, origin="CGH", destination="SDU")
    made_ok = book(
        api,
        offer,
        people=[
            passenger(offer["passengers"][0]["id"], given_name="Bruno", family_name="Carvalho")
        ],
        metadata={"client_reference": "PED-2026-0043"},
    )
    assert made_ok.status_code == 201, made_ok.json()
    # A webhook with more deliveries than a page should ever load at once.
    endpoint = make_endpoint(
        made.team,
        "https://hooks.alpha.example/agency",
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now(),
    )
    events = list(Event.objects.filter(team=made.team, live_mode=True))
    deliveries = Delivery.objects.bulk_create(
        [
            Delivery(
                event=events[i % len(events)] if i < len(events) else None,
                endpoint=endpoint,
                status=Delivery.Status.FAILED,
                attempt_count=1,
            )
            for i in range(len(events))
        ]
    )
    now = timezone.now()
    DeliveryAttempt.objects.bulk_create(
        [
            DeliveryAttempt(
                delivery=d,
                number=1,
                attempted_at=now - timedelta(seconds=n),
                succeeded=False,
                status_code=500,
                duration_ms=120,
            )
            for n, d in enumerate(deliveries)
        ]
    )
    return made
