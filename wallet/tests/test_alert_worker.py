"""The support alert of a rejected payment notification, through a real Celery worker, Redis
and PostgreSQL: queued by the request that rejects it, and still sent by the sweep when the
broker loses the message."""

import os
import signal
import time
from datetime import timedelta
from decimal import Decimal

import pytest

from tests.kit.stack import database_url, kill, needs_real_stack, start_celery_worker, wait_until
from wallet.models import ProviderNotification
from wallet.tests.asaas import (
    add_read_back,
    event_body,
    notify,
    pending_recharge,
)

pytestmark = [
    needs_real_stack,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(90),
    pytest.mark.usefixtures("support_alerts"),
]
SUPPORT = "support@agency.example"


@pytest.fixture
def worker():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "SUPPORT_ALERT_EMAILS": SUPPORT,
    }
    process = start_celery_worker(env, "--pool=solo")
    yield process
    kill(process)


def alert_stamped() -> bool:
    row = ProviderNotification.objects.get()
    return row.alert_sent_at is not None and row.alert_sent_to == SUPPORT


def reject_one(asaas, team, client):
    recharge = pending_recharge(asaas, team, amount="100.00")
    add_read_back(asaas, recharge, value=Decimal("1e6"))
    response = notify(client, event_body(recharge, value=Decimal("1e6")))
    assert response.json()["result"] == "rejected"


def test_the_alert_is_sent_by_a_worker(asaas, team, client, broker, worker):
    reject_one(asaas, team, client)

    assert wait_until(alert_stamped)


def test_a_lost_alert_message_is_sent_by_the_sweep(
    asaas,
    team,
    client,
    broker,
    worker,
):
    os.killpg(worker.pid, signal.SIGSTOP)  # the worker cannot take the message…
    reject_one(asaas, team, client)
    broker.control.purge()  # …and the broker loses it
    os.killpg(worker.pid, signal.SIGCONT)
    time.sleep(1)
    assert ProviderNotification.objects.get().alert_sent_at is None
    # Past the grace period the sweep (run by beat every minute) queues it again.
    ProviderNotification.objects.update(received_at=_minutes_ago(3))

    broker.send_task("wallet.tasks.requeue_notification_alerts")

    assert wait_until(alert_stamped)


def _minutes_ago(minutes: int):
    from django.utils import timezone

    return timezone.now() - timedelta(minutes=minutes)
