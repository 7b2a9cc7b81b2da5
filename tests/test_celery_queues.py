"""Celery queues: webhook deliveries, booking work and e-mails each have their own queue, so that
a slow agency receiver never delays another team's ticketing or e-mails; a worker started
without `-Q` (bin/serve, `celery -A config worker -B`) still consumes every queue."""

import pytest

from config.celery_app import app

EXPECTED_QUEUES = {
    # Webhook deliveries: the work one slow receiver can pile up.
    "webhooks.tasks.deliver_webhooks": "webhooks",  # a batch of one endpoint's deliveries
    "webhooks.tasks.deliver_webhook": "webhooks",  # one delivery: messages queued before batches
    # Booking work: ticketing, expiry, reconciliation.
    "bookings.tasks.issue_tickets": "bookings",
    "bookings.tasks.expire_holds": "bookings",
    "bookings.tasks.issue_stuck_confirmed": "bookings",
    "bookings.tasks.send_payment_reminders": "bookings",  # queues e-mails, sends none
    "bookings.tasks.reconcile_supplier_outcomes": "bookings",
    "bookings.tasks.check_supplier_outcome": "bookings",
    # E-mails.
    "bookings.tasks.send_booking_email": "emails",
    "webhooks.tasks.send_deactivation_alert": "emails",
    "wallet.tasks.send_notification_alert": "emails",  # to support
    "panel.tasks.send_password_reset_email": "emails",  # never sent inside the web request
    # Everything else, and the webhook sweep, which must run even when `webhooks` is long.
    "webhooks.tasks.sweep_deliveries": "default",
    "wallet.tasks.expire_recharges": "default",
    "wallet.tasks.requeue_notification_alerts": "default",  # a sweep, sends nothing itself
    "flights.tasks.purge_expired_offers": "default",
    "core.tasks.purge_idempotency_keys": "default",
}


def queue_of(task_name: str) -> str:
    return app.amqp.router.route({}, task_name)["queue"].name


@pytest.mark.parametrize(("task_name", "queue"), sorted(EXPECTED_QUEUES.items()))
def test_each_task_goes_to_its_queue(task_name, queue):
    assert queue_of(task_name) == queue


def by_the_rules(task_name: str) -> str:
    """Where a task not listed above belongs (docs/decisions.md, Background jobs)."""
    short_name = task_name.rsplit(".", 1)[-1]
    if "email" in task_name or (short_name.startswith("send_") and short_name.endswith("_alert")):
        return "emails"
    for module, queue in (("bookings.tasks.", "bookings"), ("webhooks.tasks.", "webhooks")):
        if task_name.startswith(module):
            return queue
    return "default"


def test_every_task_of_the_project_goes_where_the_rules_say():
    app.loader.import_default_modules()  # autodiscovery, as a worker does at start
    ours = {name for name in app.tasks if not name.startswith("celery.")}
    assert set(EXPECTED_QUEUES) <= ours
    for name in ours:
        assert queue_of(name) == EXPECTED_QUEUES.get(name, by_the_rules(name)), name


@pytest.mark.parametrize(
    ("task_name", "queue"),
    [
        # Tasks added later follow their module or their name, with no change to the routes.
        ("bookings.tasks.reconcile_unconfirmed", "bookings"),
        ("bookings.tasks.send_schedule_change_email", "emails"),
        ("wallet.tasks.send_low_balance_email", "emails"),
        ("agencies.tasks.send_invitation_email", "emails"),
        ("flights.tasks.send_schedule_change_alert", "emails"),
        ("webhooks.tasks.deliver_batch", "webhooks"),
        ("wallet.tasks.reconcile_recharges", "default"),
    ],
)
def test_new_tasks_follow_the_patterns(task_name, queue):
    assert queue_of(task_name) == queue


def test_a_worker_without_q_consumes_every_queue():
    """What `celery -A config worker` (no -Q) listens to: every declared queue."""
    assert set(app.amqp.queues) == {"default", "webhooks", "bookings", "emails"}
    assert app.conf.task_default_queue == "default"
