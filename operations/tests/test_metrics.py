"""/metrics: refused without its token, and the series an operator reads after the things they
count happened (a booking, a webhook delivery, failed supplier and payment-provider calls)."""

from datetime import date, timedelta

import pytest
import responses
from django.test import Client
from django.utils import timezone

from bookings.tests.helpers import book, holdable
from flights.models import PassengerType
from flights.suppliers import supplier_named
from flights.suppliers.base import SearchRequest, SearchSlice, SupplierError
from operations.tests.scrape import TOKEN, grew, scrape, value
from tests.kit.factories import fund, make_endpoint, record
from tests.kit.marks import needs_postgresql
from wallet.models import Recharge
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db

HISTOGRAM_COUNT = "agency_http_request_duration_seconds_count"
SUPPLIER_CALLS = "agency_supplier_call_duration_seconds_count"
PROVIDER_CALLS = "agency_payment_provider_call_duration_seconds_count"
TASKS = "agency_celery_task_duration_seconds_count"


@pytest.fixture
def metrics(settings):
    settings.METRICS_TOKEN = TOKEN
    return Client()


# --- Access -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        f"Bearer {TOKEN[:-1]}",
        f"Bearer {TOKEN}x",
        TOKEN,
        f"Basic {TOKEN}",
    ],
)
def test_refused_without_its_token(metrics, authorization):
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    response = metrics.get("/metrics", **headers)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"  # the answer of any unknown path
    assert b"agency_" not in response.content


def test_not_found_when_no_token_is_set(settings):
    settings.METRICS_TOKEN = ""
    for authorization in ("Bearer ", "Bearer", ""):
        response = Client().get("/metrics", HTTP_AUTHORIZATION=authorization)
        assert response.status_code == 404


def test_answers_with_its_token(metrics):
    samples = scrape(metrics)
    assert value(samples, "agency_metrics_source_up", source="database") == 1


# --- Requests, supplier calls, tasks --------------------------------------------------------------


@pytest.mark.usefixtures("frozen_time", "live_sandbox")
def test_a_booking_shows_its_requests_and_supplier_calls(metrics, team, live_client):
    fund(team, "50000.00")
    before = scrape(metrics)
    offer = holdable(live_client)
    response = book(live_client, offer, type="instant")
    assert response.status_code == 201
    booking_id = response.json()["id"]
    after = scrape(metrics)

    def requests(route, method, status):
        return grew(before, after, HISTOGRAM_COUNT, route=route, method=method, status=status)

    assert requests("flights-search", "POST", "200") == 1
    assert requests("bookings", "POST", "201") == 1
    # Routes are the patterns' names: no booking id in any label.
    assert not any(booking_id in str(labels) for _, labels in after)
    supplier = {"supplier": "sandbox", "outcome": "ok"}
    assert grew(before, after, SUPPLIER_CALLS, operation="search", **supplier) == 1
    assert grew(before, after, SUPPLIER_CALLS, operation="create_order", **supplier) == 1
    # Histograms: the latency lands in the buckets, the sum is a duration.
    duration = grew(
        before,
        after,
        "agency_http_request_duration_seconds_sum",
        route="bookings",
        method="POST",
        status="201",
    )
    assert 0 < duration < 60
    assert (
        grew(
            before,
            after,
            "agency_http_request_duration_seconds_bucket",
            route="bookings",
            method="POST",
            status="201",
            le="+Inf",
        )
        == 1
    )


def test_a_failed_supplier_search_is_counted(metrics, test_client):
    before = scrape(metrics)
    body = {
        "type": "one_way",
        "slices": [{"origin": "GIG", "destination": "SDU", "departureDate": "2027-01-15"}],
        "passengers": [{"type": "adult", "count": 1}],
    }
    response = test_client.post("/api/v1/flights/search", body, format="json")
    assert response.status_code == 502  # the sandbox's failure scenario (docs/sandbox.md)
    after = scrape(metrics)
    failed = {"supplier": "sandbox", "operation": "search"}
    assert grew(before, after, SUPPLIER_CALLS, outcome="error", **failed) == 1
    assert grew(before, after, SUPPLIER_CALLS, outcome="ok", **failed) == 0
    assert (
        grew(before, after, HISTOGRAM_COUNT, route="flights-search", method="POST", status="502")
        == 1
    )


def test_a_duffel_5xx_is_counted_as_an_error(metrics, settings):
    supplier = supplier_named("duffel", access_token="duffel_test_token")
    leg = SearchSlice(
        origin="GRU",
        destination="LIS",
        origin_airports=("GRU",),
        destination_airports=("LIS",),
        departure_date=date(2027, 1, 15),
    )
    request = SearchRequest(slices=(leg,), passengers=(PassengerType.ADULT,))
    before = scrape(metrics)
    with responses.RequestsMock() as duffel:
        duffel.post(f"{settings.DUFFEL_BASE_URL}/air/offer_requests", status=503, json={})
        with pytest.raises(SupplierError):
            supplier.search(request)
    after = scrape(metrics)
    labels = {"supplier": "duffel", "operation": "search"}
    assert grew(before, after, SUPPLIER_CALLS, outcome="error", **labels) == 1


def test_a_failed_payment_provider_call_is_counted(metrics, settings, team, live_client):
    from wallet.tests.asaas import API_KEY, BASE_URL, WEBHOOK_TOKEN

    settings.PAYMENT_PROVIDER = "asaas"
    settings.ASAAS_API_KEY = API_KEY
    settings.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN
    settings.ASAAS_BASE_URL = BASE_URL
    before = scrape(metrics)
    with responses.RequestsMock() as asaas:
        asaas.get(f"{BASE_URL}/customers", status=503, json={})
        response = live_client.post(
            "/api/v1/wallet/recharge",
            {"amount": "250.00", "currency": "BRL", "payment_method": "pix"},
            format="json",
        )
    assert response.status_code == 502
    after = scrape(metrics)
    labels = {"provider": "asaas", "operation": "create_charge"}
    assert grew(before, after, PROVIDER_CALLS, outcome="error", **labels) == 1
    assert Recharge.objects.get().status == Recharge.Status.FAILED


def test_a_webhook_delivery_shows_its_task_and_the_deliveries_due(
    metrics, team, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(team, https_receiver.url)
    record(team)  # not dispatched: on_commit callbacks do not run here
    Delivery.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    before = scrape(metrics)
    assert value(before, "agency_webhook_deliveries_due") == 1
    assert value(before, "agency_webhook_deliveries_in_flight") == 0
    with django_capture_on_commit_callbacks(execute=True):
        record(team)  # dispatched on commit: the task sends the endpoint's due deliveries
    assert len(https_receiver.requests) == 2  # the task ran eagerly, on commit
    after = scrape(metrics)
    assert set(Delivery.objects.values_list("status", flat=True)) == {"succeeded"}
    assert value(after, "agency_webhook_deliveries_due") == 0
    delivered = grew(
        before, after, TASKS, task="webhooks.tasks.deliver_webhooks", outcome="success"
    )
    assert delivered >= 1


def test_deactivated_endpoints_recharges_and_bookings_by_mode(metrics, team):
    make_endpoint(team, "https://receiver.example/a", active=False, deactivated_at=timezone.now())
    make_endpoint(team, "https://receiver.example/b", active=False, live_mode=False)  # paused
    samples = scrape(metrics)
    assert value(samples, "agency_webhook_endpoints_deactivated", mode="live") == 1
    assert value(samples, "agency_webhook_endpoints_deactivated", mode="test") == 0
    for name in (
        "agency_recharges_pending",
        "agency_bookings_needing_attention",
        "agency_bookings_outcome_unknown",
        "agency_bookings_failed",
    ):
        assert (name, frozenset({("mode", "live")})) in samples, name


@needs_postgresql("the broker is Redis where CI runs PostgreSQL (REDIS_URL)")
def test_queue_depths_come_from_the_redis_broker(metrics, broker, settings):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    broker.send_task("wallet.tasks.expire_recharges")  # to `default`, no worker to take it
    samples = scrape(metrics)
    assert value(samples, "agency_celery_queue_messages", queue="default") == 1
    assert value(samples, "agency_celery_queue_messages", queue="webhooks") == 0
    assert value(samples, "agency_metrics_source_up", source="broker") == 1


@pytest.mark.parametrize("adapter", ["sandbox", "duffel"])
def test_every_call_an_adapter_makes_to_its_supplier_is_timed(adapter):
    """Each call the supplier interface declares (changes, extras and cancellations included) is
    wrapped in the histogram's timer on both adapters: none can be added and forgotten."""
    from flights.suppliers.base import supplier_calls
    from flights.suppliers.duffel.supplier import DuffelSupplier
    from flights.suppliers.sandbox.supplier import SandboxSupplier

    cls = {"sandbox": SandboxSupplier, "duffel": DuffelSupplier}[adapter]
    declared = supplier_calls()
    assert {"request_order_change", "confirm_order_change", "add_order_services"} <= set(declared)
    untimed = [name for name in declared if not getattr(getattr(cls, name), "__metered__", False)]
    assert untimed == []
