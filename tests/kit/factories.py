"""Rows made the way the services make them, for the tests of every app and the benchmarks:
a whole team, money in its wallet, a webhook endpoint, an event. The factory_boy factories of
each model are in the apps' `tests/factories.py`."""

from decimal import Decimal

from django.db import transaction

from agencies.services import team_create
from wallet.services import wallet_credit
from webhooks.models import EventType, WebhookEndpoint
from webhooks.services import event_record

SECRET = "whsec_test_secret_for_signatures"  # every test endpoint's signing secret


def make_team(name: str = "Agency", **kwargs):
    """A team as `create_team` makes it: wallet, owner panel user, a test and a live key."""
    email = kwargs.pop("owner_email", f"owner-{name.lower().replace(' ', '-')}@agency.example")
    return team_create(name=name, owner_email=email, **kwargs)


def fund(team, amount: str, *, reference_id: str = "rch_seed", live_mode: bool = True):
    """Put money in a team's wallet the way a completed recharge does."""
    return wallet_credit(
        team=team,
        live_mode=live_mode,
        amount=Decimal(amount),
        reference_type="recharge",
        reference_id=reference_id,
        description="Seed recharge",
        payment_method="pix",
    )


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
