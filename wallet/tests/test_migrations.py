"""Notifications received before read-back verification keep what they did: the migration that
adds the verification fields fills them in from the old rules."""

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from wallet.models import ProviderNotification

BEFORE = [("wallet", "0003_recharge_created_at_default")]


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def migrate(targets):
    """Migrate the test database to `targets`; returns the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_old_notifications_get_their_state_and_payment_id(team):
    old = migrate(BEFORE)
    try:
        Recharge = old.get_model("wallet", "Recharge")
        Notification = old.get_model("wallet", "ProviderNotification")
        recharge = Recharge.objects.create(
            team_id=team.pk,
            live_mode=True,
            amount=Decimal("250.00"),
            payment_method="pix",
            provider="asaas",
            provider_charge_id="pay_080225913252",
            expires_at=timezone.now(),
        )
        for event_id, event_type, linked in (
            ("evt_1", "PAYMENT_RECEIVED", True),
            ("evt_2", "PAYMENT_DELETED", True),
            ("evt_3", "PAYMENT_CREATED", True),
            ("evt_4", "PAYMENT_RECEIVED", False),  # an unknown charge
        ):
            Notification.objects.create(
                provider="asaas",
                event_id=event_id,
                event_type=event_type,
                recharge=recharge if linked else None,
                payload={"id": event_id, "payment": {"id": "pay_080225913252"}},
            )
    finally:
        migrate(latest())  # the rest of the suite runs on the current schema

    rows = {
        row.event_id: (row.state, row.reason, row.payment_id)
        for row in ProviderNotification.objects.all()
    }
    assert rows == {
        "evt_1": ("paid", "", "pay_080225913252"),
        "evt_2": ("failed", "", "pay_080225913252"),
        "evt_3": ("ignored", "", "pay_080225913252"),
        "evt_4": ("ignored", "", "pay_080225913252"),
    }
