"""Faults injected into the real stack (separate processes, PostgreSQL and Redis): a gunicorn
worker killed during an instant booking, the broker flushed, PostgreSQL restarted under load.
After each, money is where it should be and `check_ledger` passes.

(A Celery worker killed mid-delivery is webhooks/tests/test_worker.py.)"""

import contextlib
import json
import os
import shutil
import subprocess
import threading
import time
import uuid
from datetime import date, timedelta
from decimal import Decimal

import pytest
import redis
import requests
from django.conf import settings

from bookings.models import Booking
from tests.kit.factories import fund, make_team
from tests.kit.passengers import passenger
from tests.kit.receiver import Receiver
from tests.kit.stack import Stack, needs_real_stack, wait_until
from wallet.models import Transaction, Wallet

pytestmark = [needs_real_stack, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

IN_FLIGHT_TIMEOUT_SECONDS = 2  # how soon a retry may take over a dead request's key


@pytest.fixture
def stack():
    running = Stack()
    running.env["IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS"] = str(IN_FLIGHT_TIMEOUT_SECONDS)
    yield running
    running.stop()


@pytest.fixture
def funded_team():
    created = make_team("Fault Travel")
    fund(created.team, "50000.00")
    return created


def live_session(team) -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {team.live_key}"
    return session


def instant_booking_request(api: requests.Session, url: str) -> dict:
    """A search and the body of an instant booking of one of its affordable offers."""
    departure = date.today() + timedelta(days=45)
    searched = api.post(
        f"{url}/flights/search",
        json={
            "type": "one_way",
            "passengers": [{"type": "adult", "count": 1}],
            "slices": [{"origin": "GRU", "destination": "GIG", "departureDate": str(departure)}],
        },
        timeout=30,
    )
    assert searched.status_code == 200, (searched.status_code, searched.text[:500])
    result = searched.json()
    offer = result["offers"][0]
    return {
        "offerId": offer["id"],
        "type": "instant",
        "passengers": [passenger(result["passengers"][0]["id"])],
        "payments": [
            {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        ],
    }


def gunicorn_worker_pids(master_pid: int) -> list[int]:
    found = subprocess.run(  # noqa: S603 - fixed argument list
        ["pgrep", "-P", str(master_pid)],  # noqa: S607 - procps
        capture_output=True,
        text=True,
        check=False,
    )
    return [int(pid) for pid in found.stdout.split()]


def assert_ledger_consistent(stack: Stack) -> None:
    assert "wallet(s) consistent" in stack.manage("check_ledger")


@pytest.mark.skipif(not shutil.which("pgrep"), reason="needs pgrep (procps)")
@pytest.mark.parametrize("kill_after_seconds", [0.0, 0.015, 0.03, 0.06, 0.12])
def test_a_gunicorn_worker_killed_during_an_instant_booking(stack, funded_team, kill_after_seconds):
    master = stack.start_web(workers=1)
    api, url = live_session(funded_team), f"{stack.base_url}/api/v1"
    body = instant_booking_request(api, url)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first_answer = {}

    def book():
        try:
            first_answer["response"] = api.post(f"{url}/bookings", json=body, headers=key)
        except requests.ConnectionError as lost:
            first_answer["error"] = lost

    in_flight = threading.Thread(target=book)
    in_flight.start()
    time.sleep(kill_after_seconds)
    (worker,) = gunicorn_worker_pids(master.pid)
    os.kill(worker, 9)
    in_flight.join(timeout=30)

    # The client saw the connection drop (or the answer, if it came first); it retries with
    # the same key until the service answers for good (a new worker is started by the master;
    # the dead request's claim may be taken over after IN_FLIGHT_TIMEOUT_SECONDS).
    def settled():
        try:
            answer = api.post(f"{url}/bookings", json=body, headers=key, timeout=30)
        except requests.ConnectionError:
            return None
        return None if _in_flight(answer) else (answer,)  # a Response of 4xx is falsy

    settled_answer = wait_until(settled, timeout=30, interval=0.5)
    assert settled_answer is not None, "the retry never settled"
    (retried,) = settled_answer
    assert retried.status_code == 201, retried.text
    booking = retried.json()
    assert booking["status"] == "ticketed"
    if "response" in first_answer:  # the first answer arrived: the retry replays it
        assert first_answer["response"].json()["id"] == booking["id"]

    # Exactly one booking and one debit, whatever moment the worker died at.
    assert Booking.objects.filter(team=funded_team.team).count() == 1
    debits = Transaction.objects.filter(team=funded_team.team, type="debit", live_mode=True)
    assert debits.count() == 1 and debits.get().reference_id == booking["id"]
    assert_ledger_consistent(stack)


def _in_flight(answer: requests.Response) -> bool:
    """The first request still holds the key (or the server is between workers)."""
    if answer.status_code in (502, 503):
        return True
    try:
        return answer.json()["error"]["code"] == "idempotency_key_in_flight"
    except (ValueError, KeyError, TypeError):
        return False


def test_a_flushed_broker_loses_no_webhook(stack, funded_team):
    receiver = Receiver().start()
    try:
        stack.env["REQUESTS_CA_BUNDLE"] = receiver.ca_path
        stack.start_web()
        api, url = live_session(funded_team), f"{stack.base_url}/api/v1"
        created = api.post(
            f"{url}/webhooks", json={"url": receiver.url, "events": ["wallet.credit"]}
        )
        assert created.status_code == 201, created.text
        recharge = api.post(
            f"{url}/wallet/recharge",
            json={"amount": "500.00", "currency": "BRL", "payment_method": "pix"},
        ).json()["data"]
        stack.manage("simulate_payment", recharge["id"])  # wallet.credit queued to Redis…
        redis.Redis.from_url(settings.REDIS_URL).flushdb()  # …and the broker loses everything

        stack.start_worker(beat=True)  # the beat's sweep finds the delivery due

        def credit_delivered():
            return [r for r in receiver.requests if b'"wallet.credit"' in r.body]

        (delivered,) = wait_until(credit_delivered, timeout=60) or [None]
        assert delivered is not None, "the credit's webhook was never delivered"
        assert json.loads(delivered.body)["data"]["object"]["reference_id"] == recharge["id"]
        assert_ledger_consistent(stack)
    finally:
        receiver.stop()


def _pg_cluster() -> list[str] | None:
    if not shutil.which("pg_ctlcluster") or os.geteuid() != 0:
        return None
    versions = os.listdir("/etc/postgresql") if os.path.isdir("/etc/postgresql") else []
    return [versions[0], "main"] if len(versions) == 1 else None


@pytest.mark.skipif(_pg_cluster() is None, reason="needs root and the local pg_ctlcluster")
def test_postgresql_restarted_under_load_loses_no_money(stack, funded_team):
    from django.db import connections

    stack.start_web(workers=2)
    api, url = live_session(funded_team), f"{stack.base_url}/api/v1"
    bodies = [instant_booking_request(api, url) for _ in range(8)]
    answers: dict[int, requests.Response] = {}
    stop = threading.Event()

    def client(number: int):
        """Books its offer with one key, retrying through the outage until it settles."""
        key = {"Idempotency-Key": str(uuid.uuid4())}
        while not stop.is_set():
            try:
                answer = api.post(f"{url}/bookings", json=bodies[number], headers=key, timeout=30)
            except requests.ConnectionError:
                time.sleep(0.2)
                continue
            if answer.status_code >= 500 or _in_flight(answer):
                time.sleep(0.2)
                continue
            answers[number] = answer
            return

    def balance_reader():
        while not stop.is_set():
            with contextlib.suppress(requests.RequestException):
                api.get(f"{url}/wallet/balance", timeout=5)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(len(bodies))]
    threads += [threading.Thread(target=balance_reader) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(0.05)
    subprocess.run(  # noqa: S603 - fixed argument list
        ["pg_ctlcluster", "--skip-systemctl-redirect", *_pg_cluster(), "restart"],  # noqa: S607
        check=True,
        timeout=60,
    )
    connections.close_all()  # this process's connection died with the server too
    for thread in threads[: len(bodies)]:
        thread.join(timeout=120)
    stop.set()
    for thread in threads:
        thread.join(timeout=10)

    assert sorted(answers) == list(range(len(bodies))), "some bookings never settled"
    assert {a.status_code for a in answers.values()} == {201}, [a.text for a in answers.values()]
    booked = {a.json()["id"] for a in answers.values()}
    assert set(Booking.objects.filter(team=funded_team.team).values_list("id", flat=True)) == (
        booked
    )
    debits = Transaction.objects.filter(team=funded_team.team, type="debit", live_mode=True)
    assert sorted(debits.values_list("reference_id", flat=True)) == sorted(booked)
    wallet = Wallet.objects.get(team=funded_team.team)
    spent = sum(Decimal(t.amount) for t in debits)
    refunded = sum(
        Decimal(t.amount)
        for t in Transaction.objects.filter(team=funded_team.team, type="credit", live_mode=True)
        if t.reference_type == "refund"
    )
    assert wallet.balance == Decimal("50000.00") - spent + refunded
    assert_ledger_consistent(stack)
