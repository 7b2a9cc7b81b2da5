"""The metrics of the real stack: gunicorn with two workers and a Celery worker with two pool
processes sharing one PROMETHEUS_MULTIPROC_DIR, as docs/operations.md asks of a host. Whichever
gunicorn worker answers the scrape, it counts every process's requests and the worker's tasks."""

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from bookings.tests.helpers import BOOKINGS
from operations.tests.scrape import TOKEN
from tests.kit.booking_bodies import booking_body
from tests.kit.factories import fund, make_endpoint, make_team
from tests.kit.stack import Stack, needs_real_stack, wait_until

pytestmark = [needs_real_stack, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


@pytest.fixture
def stack(tmp_path, receiver):
    running = Stack(receiver_ca=receiver.ca_path)
    running.env.update(PROMETHEUS_MULTIPROC_DIR=str(tmp_path), METRICS_TOKEN=TOKEN)
    yield running
    running.stop()


def scrape(base_url: str) -> dict:
    response = requests.get(
        f"{base_url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10
    )
    assert response.status_code == 200
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def test_one_scrape_counts_every_process_of_the_host(stack, receiver):
    created = make_team("Watched Travel")
    fund(created.team, "50000.00")
    make_endpoint(created.team, receiver.url, events=("booking.created",))
    stack.start_web(workers=2)
    stack.start_worker(concurrency=2)
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {created.live_key}"
    search = {
        "type": "one_way",
        "passengers": [{"type": "adult", "count": 1}],
        "slices": [{"origin": "GRU", "destination": "CNF", "departureDate": "2027-03-10"}],
    }
    offer = api.post(f"{stack.base_url}/api/v1/flights/search", json=search).json()["offers"][0]
    booked = api.post(
        f"{stack.base_url}{BOOKINGS}",
        json=booking_body(offer, type="instant"),
    )
    assert booked.status_code == 201, booked.text
    assert wait_until(lambda: receiver.requests, timeout=60), "no delivery arrived"

    delivered = ("task", "webhooks.tasks.deliver_webhooks"), ("outcome", "success")

    def scraped_with_the_delivery():
        samples = scrape(stack.base_url)
        key = ("agency_celery_task_duration_seconds_count", frozenset(delivered))
        return samples if samples.get(key, 0) >= 1 else None

    # The task's series are written when it ends, a moment after the receiver's answer.
    samples = wait_until(scraped_with_the_delivery, timeout=30)
    assert samples, "the worker's task is not in the scrape"
    for _ in range(4):  # whichever gunicorn worker answers, the same sums
        samples = scrape(stack.base_url)

        def count(name, samples=samples, **labels):
            return samples.get((name, frozenset(labels.items())), 0)

        requests_count = "agency_http_request_duration_seconds_count"
        assert count(requests_count, route="flights-search", method="POST", status="200") == 1
        assert count(requests_count, route="bookings", method="POST", status="201") == 1
        supplier = "agency_supplier_call_duration_seconds_count"
        assert count(supplier, supplier="sandbox", operation="create_order", outcome="ok") == 1
        assert count("agency_metrics_source_up", source="broker") == 1
        assert ("agency_celery_queue_messages", frozenset({("queue", "webhooks")})) in samples
    refused = requests.get(
        f"{stack.base_url}/metrics", headers={"Authorization": "Bearer x"}, timeout=10
    )
    assert refused.status_code == 404
