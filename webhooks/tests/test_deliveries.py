"""Delivery: the outbox rows, signed attempts checked by an independent receiver, the retry
schedule and deactivation under controlled time, the sweep for lost messages."""

from datetime import timedelta
from decimal import Decimal

import orjson
import pytest
import time_machine
from django.core import mail
from django.db import transaction
from django.utils import timezone

from tests.kit.factories import SECRET, fund, make_endpoint, record
from tests.kit.receiver import verify_signature
from webhooks.models import Delivery, Event
from webhooks.services import (
    deliveries_sweep,
    delivery_attempt,
    delivery_redeliver,
    event_record,
    webhook_send_test_event,
    webhook_update,
)
from webhooks.services.deliveries import delivery_claim

pytestmark = pytest.mark.django_db

PAYLOAD_FIELDS = {
    "id",
    "type",
    "api_version",
    "created_at",
    "data",
    "team_id",
    "webhook_id",
    "live_mode",  # beside the spec's fields: which mode the event happened in
}


def test_a_credit_is_delivered_signed_with_exactly_the_spec_fields(
    team, https_receiver, django_capture_on_commit_callbacks
):
    endpoint = make_endpoint(team, https_receiver.url, events=["wallet.credit"])

    with django_capture_on_commit_callbacks(execute=True):
        txn = fund(team, "1000.00", reference_id="rch_one")

    (request,) = https_receiver.requests
    assert verify_signature(SECRET, request.headers, request.body)
    assert request.headers["Content-Type"] == "application/json"
    payload = orjson.loads(request.body)
    assert set(payload) == PAYLOAD_FIELDS
    assert set(payload["data"]) == {"object", "previous_attributes"}
    event = Event.objects.get(type="wallet.credit")
    assert request.headers["X-Service-Event-Id"] == event.id == payload["id"]
    assert payload["type"] == "wallet.credit"
    assert payload["api_version"] == endpoint.api_version == "2026-11-28"  # the team's pin
    assert payload["team_id"] == team.id and payload["webhook_id"] == endpoint.id
    assert payload["live_mode"] is True
    assert payload["data"]["object"]["id"] == txn.id
    assert payload["data"]["object"]["balance_after"] == "1000.00"
    delivery = Delivery.objects.get()
    assert delivery.status == "succeeded" and delivery.attempt_count == 1
    (attempt,) = delivery.attempts.all()
    assert attempt.succeeded and attempt.status_code == 200 and attempt.number == 1
    assert attempt.duration_ms >= 0 and attempt.response_excerpt == "ok"
    endpoint.refresh_from_db()
    assert (endpoint.total_deliveries, endpoint.failed_deliveries) == (1, 0)
    assert endpoint.last_triggered_at == attempt.attempted_at


def test_a_test_mode_event_is_delivered_saying_so(
    team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url, live_mode=False)
    with django_capture_on_commit_callbacks(execute=True):
        record(team, live_mode=False)

    (request,) = https_receiver.requests
    payload = orjson.loads(request.body)
    assert set(payload) == PAYLOAD_FIELDS and payload["live_mode"] is False


def test_signature_fails_with_another_secret_or_a_changed_body(
    team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        record(team)

    (request,) = https_receiver.requests
    assert verify_signature(SECRET, request.headers, request.body)
    assert not verify_signature("whsec_other", request.headers, request.body)
    assert not verify_signature(SECRET, request.headers, request.body.replace(b"txn_1", b"txn_2"))


def test_a_low_balance_crossing_is_delivered_with_the_previous_balance(
    team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url, events=["wallet.low_balance", "wallet.debit"])
    fund(team, "600.00")
    from wallet.services import wallet_debit

    with django_capture_on_commit_callbacks(execute=True):
        wallet_debit(
            team=team,
            live_mode=True,
            amount=Decimal("200.00"),
            reference_type="booking",
            reference_id="ord_x",
            description="Booking",
        )

    types = sorted(orjson.loads(r.body)["type"] for r in https_receiver.requests)
    assert types == ["wallet.debit", "wallet.low_balance"]
    low = next(
        orjson.loads(r.body) for r in https_receiver.requests if b"wallet.low_balance" in r.body
    )
    assert low["data"]["object"]["balance"] == "400.00"
    assert low["data"]["previous_attributes"] == {"balance": "600.00"}


def test_only_active_subscribed_endpoints_of_the_team_and_mode_get_a_delivery(
    team, other_team, https_receiver
):
    subscribed = make_endpoint(team, https_receiver.url_for("/yes"), events=["wallet.credit"])
    make_endpoint(team, https_receiver.url_for("/other-type"), events=["booking.created"])
    make_endpoint(team, https_receiver.url_for("/test-mode"), live_mode=False)
    make_endpoint(team, https_receiver.url_for("/inactive"), active=False)
    make_endpoint(other_team, https_receiver.url_for("/other-team"))

    fund(team, "100.00")

    assert list(Delivery.objects.values_list("endpoint_id", flat=True)) == [subscribed.id]


def test_a_rolled_back_change_leaves_no_event_and_no_delivery(team, https_receiver):
    make_endpoint(team, https_receiver.url)

    with pytest.raises(RuntimeError), transaction.atomic():
        event_record(team=team, live_mode=True, type="wallet.credit", data_object={})
        raise RuntimeError("the change fails after its event was written")

    assert not Event.objects.filter(type="wallet.credit").exists()
    assert not Delivery.objects.exists()
    assert https_receiver.requests == []


@pytest.mark.django_db(transaction=True)  # the test itself is not wrapped in a transaction
def test_event_record_refuses_to_run_outside_a_transaction(team):
    with pytest.raises(RuntimeError):
        event_record(team=team, live_mode=True, type="wallet.credit", data_object={})


def test_a_lost_queue_message_is_sent_by_the_sweep(
    team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url)
    record(team)  # commit callbacks not run: as if the broker lost the message
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and https_receiver.requests == []

    with django_capture_on_commit_callbacks(execute=True):
        assert deliveries_sweep() == 1

    assert len(https_receiver.requests) == 1
    delivery.refresh_from_db()
    assert delivery.status == "succeeded"
    with django_capture_on_commit_callbacks(execute=True):
        assert deliveries_sweep() == 0  # nothing left to do


def test_a_delivery_in_a_dead_workers_hands_waits_for_its_lease_then_is_sent(
    team, https_receiver, django_capture_on_commit_callbacks, settings
):
    make_endpoint(team, https_receiver.url)
    record(team)
    delivery = Delivery.objects.get()
    assert delivery_claim(delivery.id) is not None  # a worker took it, then died

    assert delivery_claim(delivery.id) is None  # nobody else may send it meanwhile
    with django_capture_on_commit_callbacks(execute=True):
        assert deliveries_sweep() == 0
    assert https_receiver.requests == []

    later = timezone.now() + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS + 1)
    with time_machine.travel(later), django_capture_on_commit_callbacks(execute=True):
        assert deliveries_sweep() == 1

    assert len(https_receiver.requests) == 1
    delivery.refresh_from_db()
    assert delivery.status == "succeeded" and delivery.attempt_count == 2


def test_the_retry_schedule_then_failure(
    team, https_receiver, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_FAILURES_BEFORE_DEACTIVATION = 100  # this test is about one delivery
    https_receiver.respond("/down", status=500, body=b"upstream exploded " * 100)
    make_endpoint(team, https_receiver.url_for("/down"))
    start = timezone.now()

    with time_machine.travel(start, tick=False), django_capture_on_commit_callbacks(execute=True):
        record(team)
    delivery = Delivery.objects.get()
    # Due times after each failure: +5 min, +30 min, +2 h, +12 h, +24 h.
    offsets = [
        timedelta(minutes=5),
        timedelta(minutes=30),
        timedelta(hours=2),
        timedelta(hours=12),
        timedelta(hours=24),
    ]
    moment = start
    for number, offset in enumerate(offsets, start=2):
        delivery.refresh_from_db()
        assert delivery.next_attempt_at == moment + offset
        with (
            time_machine.travel(moment + offset - timedelta(seconds=1), tick=False),
            django_capture_on_commit_callbacks(execute=True),
        ):
            assert deliveries_sweep() == 0  # not due yet
        moment += offset
        with (
            time_machine.travel(moment, tick=False),
            django_capture_on_commit_callbacks(execute=True),
        ):
            assert deliveries_sweep() == 1
        assert len(https_receiver.requests) == number

    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.next_attempt_at is None
    attempts = list(delivery.attempts.all())
    assert [a.number for a in attempts] == [1, 2, 3, 4, 5, 6]
    assert all(a.status_code == 500 and not a.succeeded for a in attempts)
    assert attempts[0].error == "HTTP 500"
    assert len(attempts[0].response_excerpt) == 500  # truncated
    with time_machine.travel(moment + timedelta(days=7)):
        assert deliveries_sweep() == 0


def test_six_consecutive_failures_deactivate_the_endpoint_and_alert_once(
    team, https_receiver, django_capture_on_commit_callbacks
):
    https_receiver.respond("/flaky", status=503)
    endpoint = make_endpoint(team, https_receiver.url_for("/flaky"))

    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            record(team)
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 5
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        record(team)

    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.deactivated_at is not None
    assert endpoint.consecutive_failures == 6
    assert len(mail.outbox) == 1
    alert = mail.outbox[0]
    assert alert.to == [team.notification_email]
    # In Portuguese (the default language of e-mails), with the way back.
    assert alert.subject == "Webhook desativado após falhas de entrega"
    assert endpoint.url in alert.body and "reative o webhook" in alert.body
    # A deactivated endpoint gets no new deliveries and nothing is sent to it.
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
        deliveries_sweep()
    assert len(https_receiver.requests) == 6
    assert Delivery.objects.filter(endpoint=endpoint).count() == 6
    # Re-running the alert task does not send it again.
    from webhooks.tasks import send_deactivation_alert

    assert send_deactivation_alert(endpoint.id) is False
    assert len(mail.outbox) == 1


def test_reactivation_resets_the_count_and_sends_what_was_waiting(
    team, https_receiver, django_capture_on_commit_callbacks
):
    https_receiver.respond("/flaky", status=500)
    endpoint = make_endpoint(team, https_receiver.url_for("/flaky"))
    for _ in range(6):
        with django_capture_on_commit_callbacks(execute=True):
            record(team)
    endpoint.refresh_from_db()
    assert not endpoint.active
    https_receiver.respond("/flaky", status=204)
    sent_before = len(https_receiver.requests)

    # The waiting deliveries are due again (their retry time passed).
    Delivery.objects.update(next_attempt_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        webhook_update(endpoint=endpoint, active=True)

    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0
    assert endpoint.deactivated_at is None and endpoint.alert_sent_at is None
    assert len(https_receiver.requests) - sent_before == 6
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}


def test_a_redirect_is_a_failure_and_is_not_followed(
    team, https_receiver, django_capture_on_commit_callbacks
):
    internal = https_receiver.url_for("/internal")
    https_receiver.respond("/moved", status=302, headers={"Location": internal})
    make_endpoint(team, https_receiver.url_for("/moved"))

    with django_capture_on_commit_callbacks(execute=True):
        record(team)

    assert [r.path for r in https_receiver.requests] == ["/moved"]
    attempt = Delivery.objects.get().attempts.get()
    assert not attempt.succeeded and attempt.status_code == 302
    assert "redirect" in attempt.error


def test_a_refused_address_is_a_failed_attempt(team, django_capture_on_commit_callbacks):
    # An endpoint whose DNS now points inside the network (rebinding after registration).
    make_endpoint(team, "https://127.0.0.1:8443/hooks")

    with django_capture_on_commit_callbacks(execute=True):
        record(team)

    attempt = Delivery.objects.get().attempts.get()
    assert not attempt.succeeded and attempt.status_code is None
    assert attempt.error.startswith("Refused")


def test_a_test_event_goes_to_that_endpoint_only(
    team, https_receiver, django_capture_on_commit_callbacks
):
    target = make_endpoint(team, https_receiver.url_for("/target"), events=["booking.created"])
    make_endpoint(team, https_receiver.url_for("/bystander"), events=["booking.created"])

    with django_capture_on_commit_callbacks(execute=True):
        webhook_send_test_event(endpoint=target)

    (request,) = https_receiver.requests
    assert request.path == "/target"
    payload = orjson.loads(request.body)
    assert payload["type"] == "webhook.test" and payload["webhook_id"] == target.id
    assert verify_signature(SECRET, request.headers, request.body)


def test_redeliver_sends_the_same_event_again(
    team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        record(team)
    delivery = Delivery.objects.get()

    with django_capture_on_commit_callbacks(execute=True):
        delivery_redeliver(delivery=delivery)

    first, second = https_receiver.requests
    assert first.headers["X-Service-Event-Id"] == second.headers["X-Service-Event-Id"]
    assert delivery.attempts.count() == 2


def test_a_delivery_that_is_not_due_is_not_sent(team, https_receiver):
    make_endpoint(team, https_receiver.url)
    record(team)
    Delivery.objects.update(next_attempt_at=timezone.now() + timedelta(minutes=5))

    assert delivery_attempt(Delivery.objects.get().id) is None
    assert https_receiver.requests == []


def test_a_deactivation_alert_that_never_went_out_is_sent_by_the_sweep(team, mailoutbox):
    """The broker was down at the deactivation (or the mail server refused): the alert is
    queued again by the sweep, and sent once."""
    from webhooks.tasks import sweep_deliveries

    endpoint = make_endpoint(
        team,
        "https://hooks.example.com/down",
        active=False,
        consecutive_failures=6,
        deactivated_at=timezone.now() - timedelta(minutes=1),
    )
    sweep_deliveries()
    assert mailoutbox == []  # the alert queued at the deactivation may still be on its way

    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        sweep_deliveries()
        sweep_deliveries()

    (alert,) = mailoutbox
    assert endpoint.url in alert.body
    endpoint.refresh_from_db()
    assert endpoint.alert_sent_at is not None


def test_redeliver_leaves_a_delivery_being_sent_right_now_alone(team, https_receiver):
    """Restarting a delivery a worker is sending would drop that worker's answer (its lease
    is gone) and send the event a second time."""
    make_endpoint(team, https_receiver.url)
    record(team)
    claimed = delivery_claim(Delivery.objects.get().id)  # a worker holds it, sending
    assert claimed is not None and claimed.in_flight

    delivery_redeliver(delivery=claimed)

    after = Delivery.objects.get()
    assert (after.lease_id, after.in_flight) == (claimed.lease_id, True)
    assert after.attempt_count == claimed.attempt_count
