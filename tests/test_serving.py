"""Waiting on a supplier costs a thread, not a process: while one team's flight searches are
held by its supplier (more of them than gunicorn has worker processes), another team's
`GET /wallet/balance` answers at once, and the held searches all answer once released.
gunicorn as config/gunicorn.py runs it (threaded workers), production settings, PostgreSQL and
Redis; the supplier is a Duffel-shaped local server that holds every search until the test lets
it go. With sync workers (one request per process) the searches fill every process and neither
the balance nor the later searches get one (docs/performance.md "Serving: threads per worker")."""

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta

import pytest
import requests

from config import gunicorn
from flights.tests.fake_duffel import FakeDuffel
from tests.kit.stack import Stack, needs_real_stack, wait_until

pytestmark = [needs_real_stack, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

TOKEN = "duffel_test_serving_0123456789"
WEB_WORKERS = 2
HELD_SEARCHES = 16  # more than the processes, fewer than their threads
BALANCE_READS = 5
ANSWER_WITHIN = 10.0  # seconds; generous for a busy CI machine, far below a held search


def new_team(stack: Stack, name: str) -> dict:
    email = f"owner@{name.lower().replace(' ', '-')}.example"
    return json.loads(stack.manage("create_team", name, "--owner-email", email, "--json"))


def search(url: str, key: str) -> requests.Response:
    departure = date.today() + timedelta(days=60)
    return requests.post(
        f"{url}/flights/search",
        headers={"Authorization": f"Bearer {key}"},
        json={
            "type": "one_way",
            "passengers": [{"type": "adult", "count": 1}],
            "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": str(departure)}],
        },
        timeout=180,
    )


def test_searches_held_by_the_supplier_leave_another_team_served():
    assert WEB_WORKERS < HELD_SEARCHES < WEB_WORKERS * gunicorn.threads
    release = threading.Event()
    with FakeDuffel(token=TOKEN, hold_searches=release) as duffel:
        stack = Stack()
        stack.env["DUFFEL_BASE_URL"] = duffel.base_url
        try:
            stack.start_web(workers=WEB_WORKERS)
            url = f"{stack.base_url}/api/v1"
            team_a, team_b = new_team(stack, "Busy Searches"), new_team(stack, "Other Agency")
            stack.manage("connect_supplier", team_a["team_id"], "duffel", stdin=TOKEN)

            with ThreadPoolExecutor(HELD_SEARCHES) as clients:
                searches = [
                    clients.submit(search, url, team_a["live_key"]) for _ in range(HELD_SEARCHES)
                ]
                try:
                    held = wait_until(
                        lambda: duffel.state.searches_waiting == HELD_SEARCHES, timeout=60
                    )
                    assert held, (
                        f"{duffel.state.searches_waiting} of {HELD_SEARCHES} searches reached "
                        "the supplier: the server cannot wait on it for more requests at once"
                    )
                    other = requests.Session()
                    other.headers["Authorization"] = f"Bearer {team_b['live_key']}"
                    for _ in range(BALANCE_READS):
                        balance = other.get(f"{url}/wallet/balance", timeout=ANSWER_WITHIN)
                        assert balance.status_code == 200, balance.text
                        assert balance.json()["data"]["balance"] == "0.00"
                    # Still held: the balance was served beside them, not after them.
                    assert duffel.state.searches_waiting == HELD_SEARCHES
                finally:
                    release.set()
                answers = [found.result(timeout=120) for found in searches]
            assert [answer.status_code for answer in answers] == [200] * HELD_SEARCHES
            assert all(answer.json()["id"].startswith("orq_") for answer in answers)
        finally:
            release.set()
            stack.stop()


def test_a_team_waits_on_the_supplier_in_at_most_its_slots():
    # API_SUPPLIER_CONCURRENCY (api/concurrency.py): the searches over a team's cap are refused
    # at once, before the supplier; another team's are not; the slots come back after answers.
    cap, tried = 3, 5
    release = threading.Event()
    with FakeDuffel(token=TOKEN, hold_searches=release) as duffel:
        stack = Stack()
        stack.env["DUFFEL_BASE_URL"] = duffel.base_url
        stack.env["API_SUPPLIER_CONCURRENCY"] = str(cap)
        try:
            stack.start_web(workers=WEB_WORKERS)
            url = f"{stack.base_url}/api/v1"
            team_a, team_b = new_team(stack, "Many Searches"), new_team(stack, "Other Agency")
            for team in (team_a, team_b):
                stack.manage("connect_supplier", team["team_id"], "duffel", stdin=TOKEN)

            with ThreadPoolExecutor(tried + 1) as clients:
                searches = [clients.submit(search, url, team_a["live_key"]) for _ in range(tried)]
                try:
                    settled = wait_until(
                        lambda: (
                            sum(found.done() for found in searches) == tried - cap
                            and duffel.state.searches_waiting == cap
                        ),
                        timeout=60,
                    )
                    assert settled, (
                        f"{duffel.state.searches_waiting} searches at the supplier, "
                        f"{sum(found.done() for found in searches)} answered"
                    )
                    for answer in (found.result() for found in searches if found.done()):
                        assert answer.status_code == 429, answer.text
                        assert answer.json()["error"]["code"] == "concurrency_limited"
                        assert answer.headers["Retry-After"] == "1"
                    theirs = clients.submit(search, url, team_b["live_key"])
                    assert wait_until(lambda: duffel.state.searches_waiting == cap + 1, timeout=60)
                finally:
                    release.set()
                answers = [found.result(timeout=120) for found in searches]
                assert theirs.result(timeout=120).status_code == 200
            assert sorted(answer.status_code for answer in answers) == [200] * cap + [429] * (
                tried - cap
            )
            # Every slot was given back: as many searches held at once again, none refused.
            duffel.server.hold_searches = release_again = threading.Event()
            with ThreadPoolExecutor(cap) as clients:
                again = [clients.submit(search, url, team_a["live_key"]) for _ in range(cap)]
                try:
                    assert wait_until(lambda: duffel.state.searches_waiting == cap, timeout=60)
                finally:
                    release_again.set()
                assert [found.result(timeout=120).status_code for found in again] == [200] * cap
        finally:
            release.set()
            stack.stop()
