"""A team whose webhook receiver answers every delivery after 4.8 s, with a backlog of events,
does not delay another team: its confirmed hold is ticketed within 5 s and its own webhook
arrives promptly. Real processes (gunicorn, Celery workers and beat) on PostgreSQL and Redis,
in the production layout (one worker pool per queue) and in the small-install one (one worker
of every queue, as bin/serve runs it)."""

import json
import time
from datetime import date, timedelta

import pytest
import requests

from agencies.models import Team
from tests.kit.factories import make_endpoint
from tests.kit.passengers import passenger
from tests.kit.stack import Stack, needs_real_stack, wait_until
from webhooks.models import Delivery

pytestmark = [needs_real_stack, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

SLOW_ANSWER = 4.8  # seconds: just inside the 5 s webhook timeout, so every attempt succeeds
BACKLOG = 30  # team A's events, each a 4.8 s delivery


@pytest.fixture
def stack(receiver):
    from config.celery_app import app

    app.control.purge()  # no message left over in the test Redis from an earlier run
    running = Stack(receiver_ca=receiver.ca_path)
    yield running
    running.stop()
    app.control.purge()


def start_workers(stack: Stack, layout: str) -> None:
    if layout == "one pool per queue":  # the README's production layout
        stack.start_worker(queues="webhooks", concurrency=4)
        stack.start_worker(queues="bookings", concurrency=2)
        stack.start_worker(queues="emails,default", concurrency=1, beat=True)
    else:  # `celery -A config worker -B`, as bin/serve runs it
        stack.start_worker(concurrency=4, beat=True)


def new_team(stack: Stack, name: str) -> dict:
    email = f"owner@{name.lower().replace(' ', '-')}.example"
    return json.loads(stack.manage("create_team", name, "--owner-email", email, "--json"))


def api_session(key: str) -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {key}"
    return session


def most_at_once(received_at: list[float], *, duration: float) -> int:
    """The most requests a receiver was answering at the same moment, each taking `duration`
    (with a margin for the clocks of two processes)."""
    window = duration - 0.3
    overlapping = [
        sum(1 for other in received_at if start - window < other <= start) for start in received_at
    ]
    return max(overlapping, default=0)


@pytest.mark.parametrize("layout", ["one pool per queue", "one worker for every queue"])
def test_a_slow_receiver_does_not_delay_another_teams_ticketing(stack, receiver, layout):
    receiver.respond("/slow", status=200, delay=SLOW_ANSWER)
    stack.start_web(workers=3)
    start_workers(stack, layout)
    url = f"{stack.base_url}/api/v1"
    team_a, team_b = new_team(stack, "Slow Hooks"), new_team(stack, "Quick Travel")
    # Registered directly: the probe of a URL that takes 4.8 s to answer is not the subject.
    make_endpoint(
        Team.objects.get(pk=team_a["team_id"]),
        receiver.url_for("/slow"),
        events=["wallet.recharge.pending"],
        live_mode=False,
    )
    make_endpoint(
        Team.objects.get(pk=team_b["team_id"]),
        receiver.url_for("/quick"),
        events=["booking.ticketed"],
        live_mode=False,
    )

    # Team A: 30 cheap requests, each an event for its slow receiver.
    slow = api_session(team_a["test_key"])
    for _ in range(BACKLOG):
        created = slow.post(
            f"{url}/wallet/recharge",
            json={"amount": "100.00", "currency": "BRL", "payment_method": "pix"},
        )
        assert created.status_code == 201, created.text
    assert wait_until(lambda: any(r.path == "/slow" for r in receiver.requests), timeout=60)

    # Team B: search, hold, confirm; the worker tickets it.
    quick = api_session(team_b["test_key"])
    departure = date.today() + timedelta(days=60)
    search = quick.post(
        f"{url}/flights/search",
        json={
            "type": "one_way",
            "passengers": [{"type": "adult", "count": 1}],
            "slices": [{"origin": "GRU", "destination": "GIG", "departureDate": str(departure)}],
        },
    ).json()
    offer = next(
        o for o in search["offers"] if not o["payment_requirements"]["requires_instant_payment"]
    )
    hold = quick.post(
        f"{url}/bookings",
        json={
            "offerId": offer["id"],
            "type": "hold",
            "passengers": [passenger(search["passengers"][0]["id"])],
        },
    )
    assert hold.status_code == 201, hold.text
    booking_id = hold.json()["id"]
    payment = {
        "type": "balance",
        "amount": offer["total_amount"],
        "currency": offer["total_currency"],
    }

    confirmed_at = time.monotonic()
    confirmed = quick.put(f"{url}/bookings/{booking_id}/confirm", json={"payment": payment})
    assert confirmed.status_code == 200, confirmed.text

    def ticketed():
        return quick.get(f"{url}/bookings/{booking_id}").json()["status"] == "ticketed"

    assert wait_until(ticketed, timeout=30, interval=0.05), "never ticketed"
    ticketing_seconds = time.monotonic() - confirmed_at
    assert wait_until(lambda: any(r.path == "/quick" for r in receiver.requests), timeout=30)
    webhook_seconds = time.monotonic() - confirmed_at
    backlog_left = Delivery.objects.filter(
        endpoint__team_id=team_a["team_id"], status="pending"
    ).count()
    print(
        f"\n[{layout}] confirm → ticketed {ticketing_seconds:.2f} s, → team B's webhook "
        f"{webhook_seconds:.2f} s; team A's deliveries still waiting: {backlog_left}"
    )

    assert ticketing_seconds < 5.0
    assert webhook_seconds < 10.0  # not behind team A's 30 × 4.8 s
    assert backlog_left >= BACKLOG // 2  # team A's backlog was there all along
    # Team A never had more than its two attempts in flight.
    slow_requests = [r.received_at for r in receiver.requests if r.path == "/slow"]
    assert most_at_once(slow_requests, duration=SLOW_ANSWER) <= 2
