"""Another team's ticketing while one team's webhook receiver answers slowly, on a small install's
worker; then how soon the slow team's backlog arrives once its receiver recovers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/slow_receiver.py [--receiver-delay 4.5] [--events 30] \\
        [--bookings 10] [--booking-interval 2] [--deadline 180] [--worker-concurrency N]

In a scratch database (created, migrated, dropped, as bench/harness.py does) and a scratch
Redis database (BENCH_REDIS_URL, default redis://127.0.0.1:6379/12: the broker and the cache,
flushed before and after). Processes of their own, all on this machine:

* ONE Celery worker as a small install runs it: `celery -A config worker -B`, no `-Q` (it
  consumes every queue) and no `--concurrency` (prefork, one process per core), beat embedded.
  `--worker-concurrency N` adds `--concurrency N`, for experiments.
* gunicorn as config/gunicorn.py runs it (`gunicorn -c python:config.gunicorn config.wsgi`),
  `config.settings.production`; the live keys book the sandbox supplier (FLIGHTS_LIVE_SANDBOX).
* The HTTPS receiver of the tests (tests/kit/receiver.py, its own CA), its answers read from a
  file at each request, so that this script slows a path down and lets it recover.

Two teams, each with a webhook endpoint subscribed to every event, registered through the API
(`POST /api/v1/webhooks`, probed while the receiver answers at once). Team A's, `/slow`, then
answers each delivery after --receiver-delay (4.5 s: inside the 5 s webhook timeout, so every
attempt succeeds, slowly); team B's, `/quick`, answers at once.

1. Team A makes --events (30) events through the API: PIX recharges
   (`POST /api/v1/wallet/recharge`, one `wallet.recharge.pending` each).
2. Once the first of them reaches the receiver, team B books: --bookings holds
   (`POST /api/v1/bookings`, type hold), one every --booking-interval seconds, each confirmed
   at once (`PUT /api/v1/bookings/:id/confirm`, paid from the wallet); the `issue_tickets` task
   (queue `bookings`) tickets it. Each booking is polled (`GET /api/v1/bookings/:id`, every
   0.1 s for the first 5 s, then every 0.5 s) until `ticketed`, for at most
   --ticketed-deadline (60 s): confirm sent → ticketed seen, p50, p99, max. Beside it, confirm →
   team B's own `booking.ticketed` webhook received.
3. When every one of team B's bookings is ticketed (or past its deadline), team A's receiver
   recovers: it answers at once from then on. Measured: from the recovery until every one of
   team A's events has reached the receiver at least once (duplicates counted), for at most
   --deadline (180 s), after which the missing ones are reported.

Targets (docs/performance.md): team B's confirm → ticketed p99 under 5 s; team A's backlog
delivered within 60 s of its receiver recovering. The script exits 0 when a target is missed
(the report says so); non-zero when the run itself fails (a process dies, a request errs).
"""

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import (  # noqa: E402 - needs sys.path
    collect_offers,
    free_port,
    percentile,
    scratch_django,
    start,
    wait_until_answering,
)
from tests.kit.booking_bodies import balance_payment, booking_body  # noqa: E402
from tests.kit.receiver import verify_signature, write_answers  # noqa: E402

RESULTS_FILE = REPO / "bench" / "results" / "slow_receiver.md"
START_TIMEOUT = 120  # seconds for gunicorn, the worker and the receiver to be ready
TICKETED_LIMIT = 5.0  # seconds: another team's confirm → ticketed, p99
BACKLOG_LIMIT = 60.0  # seconds: the slow team's backlog, from its receiver's recovery
POLL_FAST, POLL_SLOW = 0.1, 0.5  # seconds between polls, before and after TICKETED_LIMIT
SLOW_PATH, QUICK_PATH = "/slow", "/quick"


def stop_group(process: subprocess.Popen, grace: float) -> None:
    """SIGTERM (gunicorn and Celery then stop their children), SIGKILL to the whole group after
    `grace` seconds; then SIGKILL to whatever of the group is left (a prefork child, beat)."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)  # the group's id is the leader's pid
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)


class Running:
    """The processes of the run, by name, with their logs: `check()` fails at once, with the
    log's tail, when one has exited."""

    def __init__(self):
        self.processes: dict[str, tuple[subprocess.Popen, Path]] = {}

    def add(self, name: str, process: subprocess.Popen, log_path: Path) -> subprocess.Popen:
        self.processes[name] = (process, log_path)
        return process

    def check(self) -> None:
        for name, (process, log_path) in self.processes.items():
            if process.poll() is not None:
                tail = log_path.read_text(errors="replace")[-3000:] if log_path.exists() else ""
                raise RuntimeError(f"{name} exited ({process.returncode}):\n{tail}")

    def stop(self) -> None:
        # The worker first: it may be waiting on the receiver. Its warm shutdown lets a task
        # finish; past the grace the group is killed (acks_late tasks die with the database).
        for name in ("worker", "gunicorn", "receiver"):
            if name in self.processes:
                stop_group(self.processes[name][0], grace=15 if name == "worker" else 30)


def wait_for(condition: Callable, running: Running, *, timeout: float, what: str, every=0.1):
    """Poll `condition()` until it returns something true, the processes all alive."""
    deadline = time.monotonic() + timeout
    while True:
        running.check()
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what}: not within {timeout:g} s")
        time.sleep(every)


def start_receiver(directory: Path, running: Running) -> tuple[dict, Path, Path]:
    """The HTTPS receiver, answering everything at once until the answers file says otherwise.
    Returns its `{"url", "ca_path"}`, its request log and its answers file."""
    log_path, answers_path = directory / "received.jsonl", directory / "answers.json"
    write_answers(answers_path, {})
    output = directory / "receiver.out"
    arguments = ["tests.kit.receiver", "--port", "0", "--log", str(log_path)]
    receiver = start([*arguments, "--answers", str(answers_path)], dict(os.environ), output)
    running.add("receiver", receiver, output)

    def first_line():
        text = output.read_text()
        return json.loads(text.split("\n")[0]) if "\n" in text else None

    info = wait_for(first_line, running, timeout=START_TIMEOUT, what="the receiver's address")
    return info, log_path, answers_path


def read_log(log_path: Path) -> list[dict]:
    """The receiver's requests so far (whole lines only: it may be writing the last one)."""
    if not log_path.exists():
        return []
    lines = log_path.read_text().split("\n")[:-1]
    return [json.loads(line) for line in lines if line.strip()]


def header(entry: dict, name: str) -> str:
    return {k.lower(): v for k, v in entry["headers"].items()}.get(name.lower(), "")


def deliveries(log_path: Path, path: str) -> list[dict]:
    """Deliveries received on `path` (the endpoint's probe left out)."""
    return [
        entry
        for entry in read_log(log_path)
        if entry["path"] == path and header(entry, "X-Service-Event-Id")
    ]


def api_session(key: str):
    import requests

    session = requests.Session()
    session.trust_env = False  # no proxy between this script and 127.0.0.1
    session.headers["Authorization"] = f"Bearer {key}"
    return session


def expect(response, status: int, what: str) -> dict:
    if response.status_code != status:
        raise RuntimeError(f"{what}: HTTP {response.status_code}: {response.text[:300]}")
    return response.json()


def wait_for_worker(running: Running) -> int | str:
    """Wait until the worker answers a ping; its pool's size, as the worker reports it."""
    from config.celery_app import app

    def stats():
        replies = app.control.inspect(timeout=1.0).stats() or {}
        return next(iter(replies.values()), None)

    answer = wait_for(stats, running, timeout=START_TIMEOUT, what="the Celery worker's stats")
    return answer.get("pool", {}).get("max-concurrency", "?")


@dataclass
class Booked:
    """One of team B's bookings: when its confirm was sent (wall clock, as the receiver's log),
    and how long until it was seen ticketed (None: not within the deadline)."""

    booking_id: str = ""
    confirmed_at: float = 0.0
    ticketed_after: float | None = None
    error: str = ""


def book_and_wait(base_url: str, key: str, offer: dict, deadline: float, booked: Booked) -> None:
    """Hold `offer`, confirm it, poll the booking until it is ticketed (or `deadline` s pass)."""
    import requests

    session = api_session(key)
    api = f"{base_url}/api/v1/bookings"
    try:
        hold = expect(session.post(api, json=booking_body(offer), timeout=60), 201, "hold")
        booked.booking_id = hold["id"]
        payment = {"payment": balance_payment(offer)}
        booked.confirmed_at, started = time.time(), time.monotonic()
        confirm = session.put(f"{api}/{booked.booking_id}/confirm", json=payment, timeout=60)
        status = expect(confirm, 200, "confirm")["data"]["status"]
        while True:
            if status == "ticketed":
                booked.ticketed_after = time.monotonic() - started
                return
            waited = time.monotonic() - started
            if waited >= deadline:
                return
            time.sleep(POLL_FAST if waited < TICKETED_LIMIT else POLL_SLOW)
            answer = session.get(f"{api}/{booked.booking_id}", timeout=60)
            status = expect(answer, 200, "booking")["status"]
    except (requests.RequestException, RuntimeError) as exc:
        booked.error = str(exc)


def team_b_books(base_url: str, key: str, offers: list[dict], args) -> list[Booked]:
    """--bookings holds confirmed one every --booking-interval s (an open loop: a booking waiting
    for its tickets does not hold the next one back), each in a thread of its own."""
    booked = [Booked() for _ in offers]
    threads = [
        threading.Thread(  # daemon: a Ctrl-C does not wait for the polls to give up
            target=book_and_wait,
            args=(base_url, key, offer, args.ticketed_deadline, each),
            daemon=True,
        )
        for offer, each in zip(offers, booked, strict=True)
    ]
    first = time.monotonic()
    for number, thread in enumerate(threads):
        time.sleep(max(0.0, first + number * args.booking_interval - time.monotonic()))
        thread.start()
    for thread in threads:
        thread.join()
    return booked


def ticketed_webhooks(log_path: Path, booked: list[Booked]) -> list[float]:
    """Seconds from each booking's confirm to its `booking.ticketed` reaching team B's receiver
    (inf: not received)."""
    arrived: dict[str, float] = {}
    for entry in deliveries(log_path, QUICK_PATH):
        body = json.loads(entry["body"])
        if body.get("type") == "booking.ticketed":
            booking_id = body["data"]["object"]["id"]
            arrived.setdefault(booking_id, entry["received_at"])
    return sorted(
        arrived[b.booking_id] - b.confirmed_at if b.booking_id in arrived else float("inf")
        for b in booked
    )


@dataclass
class Backlog:
    """Team A's events at the receiver: when each first arrived (wall clock), how many
    requests came in all, how many failed the signature check."""

    event_ids: list[str]
    first_arrival: dict[str, float] = field(default_factory=dict)
    requests: int = 0
    bad_signatures: int = 0

    def read(self, log_path: Path, secret: str) -> "Backlog":
        self.first_arrival.clear()
        received = deliveries(log_path, SLOW_PATH)
        self.requests = len(received)
        self.bad_signatures = 0
        for entry in received:
            event_id = header(entry, "X-Service-Event-Id")
            self.first_arrival.setdefault(event_id, entry["received_at"])
            if not verify_signature(secret, entry["headers"], entry["body"].encode()):
                self.bad_signatures += 1
        return self

    @property
    def missing(self) -> list[str]:
        return [e for e in self.event_ids if e not in self.first_arrival]

    @property
    def duplicates(self) -> int:
        return self.requests - len(self.first_arrival)


def seconds(values: list[float], p: float | None = None, never: str = "never") -> str:
    """A percentile (the max without `p`) of durations, inf (never happened) shown as `never`."""
    value = max(values) if p is None else percentile(values, p)
    return never if value == float("inf") else f"{value:.2f}"


def report(
    args,
    pool: int | str,
    booked: list[Booked],
    webhook_s: list[float],
    backlog: Backlog,
    times: dict,
) -> str:
    ticketed = sorted(
        b.ticketed_after if b.ticketed_after is not None else float("inf") for b in booked
    )
    late = sum(1 for b in booked if b.ticketed_after is None)
    not_ticketed = f"over {args.ticketed_deadline:g}"
    recovered_at = times["recovered_at"]
    before = sum(1 for at in backlog.first_arrival.values() if at < recovered_at)
    if args.worker_concurrency:
        worker = f"`celery -A config worker -B --concurrency {args.worker_concurrency}`"
    else:
        worker = "`celery -A config worker -B` at its default concurrency"
    lines = [
        f"One {worker} (pool: {pool} processes; {os.cpu_count()} cores), every queue; "
        "Redis broker, PostgreSQL; gunicorn "
        "as config/gunicorn.py runs it; the sandbox supplier; the HTTPS receiver on this "
        "machine.",
        f"Team A: an endpoint subscribed to every event whose receiver answers each delivery "
        f"after {args.receiver_delay:g} s; {len(backlog.event_ids)} events (PIX recharges "
        f"through the API). Team B: {len(booked)} holds confirmed through the API, one every "
        f"{args.booking_interval:g} s, while team A's deliveries wait; then team A's receiver "
        f"recovered ({times['slow_seconds']:.1f} s after team A's first event was committed).",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| team B: confirm → ticketed, p50 s | {seconds(ticketed, 50, not_ticketed)} |",
        f"| team B: confirm → ticketed, p99 s | {seconds(ticketed, 99, not_ticketed)} |",
        f"| team B: confirm → ticketed, max s | {seconds(ticketed, never=not_ticketed)} |",
        f"| team B: bookings ticketed within {args.ticketed_deadline:g} s | "
        f"{len(booked) - late} of {len(booked)} |",
        f"| team B: confirm → its own `booking.ticketed` webhook received, p50 s | "
        f"{seconds(webhook_s, 50, 'not received')} |",
        f"| team B: confirm → its own `booking.ticketed` webhook received, max s | "
        f"{seconds(webhook_s, never='not received')} |",
        f"| team A: events received before its receiver recovered | {before} of "
        f"{len(backlog.event_ids)} |",
    ]
    missing = backlog.missing
    if missing:
        recovery = None
        lines.append(
            f"| team A: recovery → every event received, s | not within {args.deadline:g} s: "
            f"{len(missing)} missing |"
        )
    else:
        recovery = max(0.0, max(backlog.first_arrival.values()) - recovered_at)
        lines.append(f"| team A: recovery → every event received, s | {recovery:.2f} |")
    lines += [
        f"| team A: requests received (of which repeats of an event already received) | "
        f"{backlog.requests} ({backlog.duplicates}) |",
        f"| team A: deliveries by status at the end | {times['statuses']} |",
        "",
    ]
    if late:
        ticketed_text = f"over {args.ticketed_deadline:g} s ({late} of {len(booked)} not ticketed)"
    else:
        ticketed_text = f"{seconds(ticketed, 99)} s"
    p99 = percentile(ticketed, 99)
    lines.append(
        f"Target: another team's confirm → ticketed p99 under {TICKETED_LIMIT:g} s: "
        f"{ticketed_text}, {'met' if p99 < TICKETED_LIMIT else 'MISSED'}."
    )
    if recovery is None:
        backlog_text = (
            f"not within {args.deadline:g} s ({len(missing)} of {len(backlog.event_ids)} events "
            "missing)"
        )
    else:
        backlog_text = f"{recovery:.2f} s"
    met = recovery is not None and recovery <= BACKLOG_LIMIT
    lines.append(
        f"Target: the slow team's backlog delivered within {BACKLOG_LIMIT:g} s of its receiver "
        f"recovering: {backlog_text}, {'met' if met else 'MISSED'}."
    )
    if backlog.bad_signatures:
        lines.append(f"{backlog.bad_signatures} of team A's requests failed the signature check.")
    errors = [b.error for b in booked if b.error]
    if errors:
        lines.append(f"{len(errors)} of team B's bookings failed, the first: {errors[0]}")
    return "\n".join(lines)


def run(args, running: Running, scratch: Path, base_url: str, port: int, info: dict, paths):
    """Everything from the teams to the figures, in the scratch database (Django set up)."""
    log_path, answers_path = paths
    from django.db import connections
    from django.test import Client

    from tests.kit.factories import fund, make_team
    from webhooks.models import SUBSCRIBABLE_EVENT_TYPES, Delivery, Event, EventType

    team_a, team_b = make_team("Bench slow receiver"), make_team("Bench other team")
    fund(team_b.team, "900000000.00")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {team_b.live_key}")
    offers = [  # holds: offers that may be paid later
        offer
        for offer in collect_offers(client, 4 * (args.bookings + 1))
        if not offer["payment_requirements"]["requires_instant_payment"]
    ]
    if len(offers) < args.bookings + 1:
        raise RuntimeError(f"only {len(offers)} offers to hold; lower --bookings")
    connections.close_all()

    server_log = scratch / "gunicorn.log"
    gunicorn = ["gunicorn", "-c", "python:config.gunicorn", "config.wsgi"]
    gunicorn += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    server = running.add("gunicorn", start(gunicorn, dict(os.environ), server_log), server_log)
    worker_log = scratch / "worker.log"
    worker = ["celery", "-A", "config", "worker", "-B", "--loglevel=WARNING"]
    if args.worker_concurrency:
        worker.append(f"--concurrency={args.worker_concurrency}")
    running.add("worker", start(worker, dict(os.environ), worker_log), worker_log)
    wait_until_answering(f"{base_url}/health", server, server_log, timeout=START_TIMEOUT)
    pool = wait_for_worker(running)
    print(f"worker pool: {pool} processes; registering the endpoints ...", flush=True)

    every_event = sorted(SUBSCRIBABLE_EVENT_TYPES)
    slow, quick = api_session(team_a.live_key), api_session(team_b.live_key)
    secret = expect(
        slow.post(
            f"{base_url}/api/v1/webhooks",
            json={"url": f"{info['url'].rsplit('/', 1)[0]}{SLOW_PATH}", "events": every_event},
            timeout=60,
        ),
        201,
        "team A's endpoint",
    )["data"]["secret"]
    expect(
        quick.post(
            f"{base_url}/api/v1/webhooks",
            json={"url": f"{info['url'].rsplit('/', 1)[0]}{QUICK_PATH}", "events": every_event},
            timeout=60,
        ),
        201,
        "team B's endpoint",
    )

    # Warm-up, untimed: one booking of team B through the whole path (gunicorn, the worker's
    # bookings and webhooks queues, the receiver), while nothing is slow.
    warm = Booked()
    book_and_wait(base_url, team_b.live_key, offers.pop(), START_TIMEOUT, warm)
    if warm.error or warm.ticketed_after is None:
        raise RuntimeError(f"the warm-up booking was not ticketed: {warm.error}")
    wait_for(
        lambda: ticketed_webhooks(log_path, [warm])[0] != float("inf"),
        running,
        timeout=START_TIMEOUT,
        what="the warm-up booking's webhook",
    )

    write_answers(answers_path, {SLOW_PATH: {"delay": args.receiver_delay}})
    print(f"team A: {args.events} events for a {args.receiver_delay:g} s receiver ...", flush=True)
    first_commit = time.monotonic()
    for _ in range(args.events):
        expect(
            slow.post(
                f"{base_url}/api/v1/wallet/recharge",
                json={"amount": "100.00", "currency": "BRL", "payment_method": "pix"},
                timeout=60,
            ),
            201,
            "team A's recharge",
        )
    event_ids = list(
        Event.objects.filter(team=team_a.team, type=EventType.WALLET_RECHARGE_PENDING).values_list(
            "id", flat=True
        )
    )
    if len(event_ids) != args.events:
        raise RuntimeError(f"team A made {len(event_ids)} events, not {args.events}")
    wait_for(
        lambda: deliveries(log_path, SLOW_PATH),
        running,
        timeout=START_TIMEOUT,
        what="team A's first delivery",
    )

    print(f"team B: {args.bookings} holds confirmed, one every {args.booking_interval:g} s ...")
    booked = team_b_books(base_url, team_b.live_key, offers[: args.bookings], args)

    write_answers(answers_path, {})  # team A's receiver recovers
    recovered_at = time.time()
    slow_seconds = time.monotonic() - first_commit
    print(f"team A's receiver recovered; waiting for its backlog (≤ {args.deadline:g} s) ...")
    backlog = Backlog(event_ids)
    with contextlib.suppress(TimeoutError):  # the report says what is missing
        wait_for(
            lambda: not backlog.read(log_path, secret).missing,
            running,
            timeout=args.deadline,
            what="team A's backlog",
            every=0.05,
        )
    backlog.read(log_path, secret)
    team_a_deliveries = Delivery.objects.filter(endpoint__team=team_a.team)
    with contextlib.suppress(TimeoutError):  # the last answers are still being recorded
        wait_for(
            lambda: not team_a_deliveries.filter(status=Delivery.Status.PENDING).exists(),
            running,
            timeout=15 if not backlog.missing else 0,
            what="team A's last answers recorded",
        )
    statuses = Counter(team_a_deliveries.values_list("status", flat=True))
    connections.close_all()
    times = {
        "recovered_at": recovered_at,
        "slow_seconds": slow_seconds,
        "statuses": ", ".join(f"{n} {status}" for status, n in sorted(statuses.items())),
    }
    return report(args, pool, booked, ticketed_webhooks(log_path, booked), backlog, times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--receiver-delay", type=float, default=4.5, help="team A's, s (4.5)")
    parser.add_argument("--events", type=int, default=30, help="team A's events (30)")
    parser.add_argument("--bookings", type=int, default=10, help="team B's confirms (10)")
    parser.add_argument(
        "--booking-interval", type=float, default=2.0, help="s between team B's confirms (2)"
    )
    parser.add_argument(
        "--ticketed-deadline", type=float, default=60.0, help="s a booking is polled (60)"
    )
    parser.add_argument(
        "--deadline", type=float, default=180.0, help="s for team A's backlog once recovered"
    )
    parser.add_argument(
        "--worker-concurrency", type=int, default=0, help="adds --concurrency N to the worker"
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    running = Running()
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        try:
            info, log_path, answers_path = start_receiver(scratch, running)
            env = {
                "REDIS_URL": redis_url,
                "API_RATE_LIMIT": "1000000/minute",
                "API_SEARCH_RATE_LIMIT": "1000000/minute",
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
                "EMAIL_URL": "dummymail://",
                "FLIGHTS_LIVE_SANDBOX": "true",  # the live keys book the sandbox
                "DJANGO_BEHIND_TLS_PROXY": "false",
                "WEBHOOKS_ALLOWED_NETWORKS": "127.0.0.0/8",  # the receiver is on this machine
                "REQUESTS_CA_BUNDLE": info["ca_path"],  # gunicorn's probe, the worker's POSTs
            }
            with scratch_django("slowreceiver", env):
                from django.core.cache import cache

                from config.celery_app import app

                cache.clear()  # FLUSHDB of the scratch Redis database: the queues too
                try:
                    text = run(
                        args, running, scratch, base_url, port, info, (log_path, answers_path)
                    )
                finally:
                    running.stop()
                    with contextlib.suppress(Exception):
                        app.control.purge()
                    cache.clear()
        finally:
            running.stop()  # the receiver, or anything started before a failure
    print()
    print(text)
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(text + "\n")
    print(f"\nwritten to {RESULTS_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
