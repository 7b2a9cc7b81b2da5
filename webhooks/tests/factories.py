from django.db import transaction

from webhooks.models import EventType, WebhookEndpoint
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
