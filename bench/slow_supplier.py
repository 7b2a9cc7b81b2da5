"""Another team's balance and instant bookings while one team's searches wait on a slow supplier.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/slow_supplier.py [--seconds 10] [--searches 16] [--worker-class sync]

In a scratch database (created, migrated, dropped, as bench/harness.py does) and a scratch
Redis database (BENCH_REDIS_URL, default redis://127.0.0.1:6379/12, flushed before and after).
The server: gunicorn as config/gunicorn.py runs it (`gunicorn -c python:config.gunicorn
config.wsgi`, nothing else on its command line: its workers, threads and worker class), with
`config.settings.production`. The supplier: the Duffel-shaped local server of the tests
(flights/tests/fake_duffel.py, its own process), answering every search after --search-delay
(1.5 s) and every order after --order-delay (3 s), as Duffel's take seconds.

Two teams. The busy team's live key is connected to that supplier; the other team's live key
books the sandbox (FLIGHTS_LIVE_SANDBOX), its wallet funded. Each phase measures, one after the
other for --seconds each: the other team's `GET /api/v1/wallet/balance` (one client, a closed
loop: p50/p99), then its instant bookings (`POST /api/v1/bookings`, --bookers clients in a closed
loop, offers searched beforehand: bookings per second). Phase "idle": nothing else runs. Phase
"busy": --searches clients of the busy team search in a closed loop (each search waits
--search-delay at the supplier), started and all in flight before the clock starts.

Targets (docs/performance.md): the other team's balance p99 under 100 ms and under 3 × its idle
p99 while the searches wait. `--worker-class sync` runs gunicorn's sync workers instead (the
command line overrides the file: `--worker-class sync --threads 1`), to compare.

The clients are threads of this process (they mostly wait), the supplier and gunicorn are
processes of their own; all of them, PostgreSQL and Redis share the machine's cores.
"""

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
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
    stop_process,
    wait_until_answering,
)
from tests.kit.booking_bodies import booking_body  # noqa: E402 - needs sys.path

RESULTS_FILE = REPO / "bench" / "results" / "slow_supplier.md"
START_TIMEOUT = 120  # seconds for gunicorn and the supplier to answer
TOKEN = "duffel_test_bench_slow_supplier"  # noqa: S105 - the local fake supplier's
P99_LIMIT_MS = 100.0
P99_RATIO_LIMIT = 3.0
SEARCH_BODY = {
    "type": "one_way",
    "passengers": [{"type": "adult", "count": 1}],
    "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": "2027-03-10"}],
}


@dataclass
class Figures:
    balance_ms: list[float] = field(default_factory=list)
    bookings: int = 0
    booking_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    @property
    def bookings_per_second(self) -> float:
        return self.bookings / self.booking_seconds if self.booking_seconds else 0.0


def closed_loop(send, clients: int, seconds: float, figures: Figures) -> int:
    """`clients` threads each calling `send()` (-> latency ms, or an error) until `seconds` are
    up; the latencies go to figures.balance_ms when `send` is the balance's. Answers counted."""
    stop_at = time.monotonic() + seconds
    done, lock = [0], threading.Lock()

    def loop():
        while time.monotonic() < stop_at:
            outcome = send()
            with lock:
                if isinstance(outcome, str):
                    figures.errors.append(outcome)
                else:
                    done[0] += 1

    threads = [threading.Thread(target=loop) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done[0]


def measure(base_url: str, other_key: str, offers: list[dict], args) -> Figures:
    import requests

    figures = Figures()
    session = requests.Session()
    session.trust_env = False
    session.headers["Authorization"] = f"Bearer {other_key}"

    def balance():
        started = time.perf_counter()
        try:
            response = session.get(f"{base_url}/api/v1/wallet/balance", timeout=60)
        except requests.RequestException as exc:
            return repr(exc)
        if response.status_code != 200:
            return f"balance: HTTP {response.status_code}"
        figures.balance_ms.append((time.perf_counter() - started) * 1000)
        return None

    closed_loop(balance, 1, args.seconds, figures)

    lock = threading.Lock()

    def book():
        with lock:
            if not offers:
                return "no offer left to book (raise --offers)"
            offer = offers.pop()
        try:
            response = requests.post(
                f"{base_url}/api/v1/bookings",
                headers={"Authorization": f"Bearer {other_key}"},
                json=booking_body(offer, type="instant"),
                timeout=60,
            )
        except requests.RequestException as exc:
            return repr(exc)
        if response.status_code != 201:
            return f"booking: HTTP {response.status_code}: {response.text[:200]}"
        return None

    started = time.perf_counter()
    figures.bookings = closed_loop(book, args.bookers, args.seconds, figures)
    figures.booking_seconds = time.perf_counter() - started
    return figures


class BusySearches:
    """`count` clients of the busy team searching in a closed loop until stopped."""

    def __init__(self, base_url: str, key: str, count: int):
        import requests

        self.url, self.key, self.count = f"{base_url}/api/v1/flights/search", key, count
        self.requests = requests
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.in_flight = 0
        self.answered: list[float] = []  # seconds per search
        self.errors: list[str] = []
        self.threads = [threading.Thread(target=self.loop) for _ in range(count)]

    def loop(self):
        session = self.requests.Session()
        session.trust_env = False
        session.headers["Authorization"] = f"Bearer {self.key}"
        while not self.stopping.is_set():
            with self.lock:
                self.in_flight += 1
            started = time.perf_counter()
            try:
                response = session.post(self.url, json=SEARCH_BODY, timeout=300)
                outcome = None if response.status_code == 200 else f"HTTP {response.status_code}"
            except self.requests.RequestException as exc:
                outcome = repr(exc)
            with self.lock:
                self.in_flight -= 1
                if outcome is None:
                    self.answered.append(time.perf_counter() - started)
                else:
                    self.errors.append(outcome)

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while self.in_flight < self.count and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)  # the requests themselves are on their way to the supplier
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=300)


def report(idle: Figures, busy: Figures, searches: BusySearches, args, serving: str) -> str:
    idle_ms, busy_ms = sorted(idle.balance_ms), sorted(busy.balance_ms)
    rows = [
        ("other team's balance p50 ms", percentile(idle_ms, 50), percentile(busy_ms, 50)),
        ("other team's balance p99 ms", percentile(idle_ms, 99), percentile(busy_ms, 99)),
        ("other team's balance answers", len(idle_ms), len(busy_ms)),
        (
            "other team's instant bookings/s",
            idle.bookings_per_second,
            busy.bookings_per_second,
        ),
    ]
    lines = [
        f"gunicorn: {serving}; supplier: searches after {args.search_delay:g} s, orders after "
        f"{args.order_delay:g} s; {os.cpu_count()} cores; {args.seconds:g} s per figure.",
        "",
        f"| figure | idle | {args.searches} searches waiting on the supplier | busy / idle |",
        "|---|---:|---:|---:|",
    ]
    for name, quiet, loaded in rows:
        ratio = loaded / quiet if quiet else float("nan")
        if isinstance(quiet, int):
            lines.append(f"| {name} | {quiet} | {loaded} | {ratio:.2f} |")
        else:
            lines.append(f"| {name} | {quiet:.1f} | {loaded:.1f} | {ratio:.2f} |")
    answered = sorted(searches.answered)
    lines += [
        "",
        f"Busy team: {len(answered)} searches answered during the busy phase, p50 "
        f"{percentile(answered, 50):.2f} s (the supplier's {args.search_delay:g} s included), "
        f"{len(searches.errors)} errors.",
    ]
    p99_idle, p99_busy = percentile(idle_ms, 99), percentile(busy_ms, 99)
    met_limit = p99_busy < P99_LIMIT_MS
    met_ratio = p99_busy < P99_RATIO_LIMIT * p99_idle
    lines += [
        "",
        f"Target: balance p99 under {P99_LIMIT_MS:g} ms while the searches wait: "
        f"{p99_busy:.1f} ms, {'met' if met_limit else 'MISSED'}.",
        f"Target: under {P99_RATIO_LIMIT:g} × its idle p99 ({P99_RATIO_LIMIT * p99_idle:.1f} ms): "
        f"{p99_busy / p99_idle:.2f} ×, {'met' if met_ratio else 'MISSED'}.",
    ]
    errors = idle.errors + busy.errors
    if errors:
        lines += ["", f"{len(errors)} errors of the other team, the first: {errors[0]}"]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per figure (default 10)")
    parser.add_argument("--searches", type=int, default=16, help="busy team's clients (16)")
    parser.add_argument("--bookers", type=int, default=2, help="other team's booking clients")
    parser.add_argument("--search-delay", type=float, default=1.5)
    parser.add_argument("--order-delay", type=float, default=3.0)
    parser.add_argument(
        "--worker-class", choices=["config", "sync"], default="config", help="sync: to compare"
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    supplier_port, port = free_port(), free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {
        "REDIS_URL": redis_url,
        "API_RATE_LIMIT": "1000000/minute",
        "API_SEARCH_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
        "EMAIL_URL": "dummymail://",
        "FLIGHTS_LIVE_SANDBOX": "true",  # the other team's live key books the sandbox
        "DUFFEL_BASE_URL": f"http://127.0.0.1:{supplier_port}",
        "DJANGO_BEHIND_TLS_PROXY": "false",
    }
    with tempfile.TemporaryDirectory() as scratch_dir, scratch_django("slowsupplier", env):
        from django.core.cache import cache
        from django.db import connections
        from django.test import Client

        from agencies.services import integration_replace
        from tests.kit.factories import fund, make_team

        cache.clear()  # FLUSHDB of the scratch Redis database
        busy_team, other_team = make_team("Bench busy searches"), make_team("Bench other")
        integration_replace(
            team=busy_team.team, live_mode=True, provider="duffel", access_token=TOKEN
        )
        fund(other_team.team, "900000000.00")
        client = Client(HTTP_AUTHORIZATION=f"Bearer {other_team.live_key}")
        # An offer is booked once: enough for both phases at up to 100 bookings/s.
        offers = collect_offers(client, int(args.seconds * 2 * 100))
        connections.close_all()

        serving = "as config/gunicorn.py runs it"
        gunicorn = ["gunicorn", "-c", "python:config.gunicorn", "config.wsgi"]
        gunicorn += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
        if args.worker_class == "sync":
            gunicorn += ["--worker-class", "sync", "--threads", "1"]
            serving = "sync workers (--worker-class sync --threads 1), config/gunicorn.py's count"
        supplier_log = Path(scratch_dir) / "supplier.log"
        server_log = Path(scratch_dir) / "gunicorn.log"
        supplier = start(
            [
                "flights.tests.fake_duffel",
                f"--port={supplier_port}",
                f"--token={TOKEN}",
                f"--search-delay={args.search_delay}",
                f"--order-delay={args.order_delay}",
                "--quiet",
            ],
            dict(os.environ),
            supplier_log,
        )
        server = start(gunicorn, dict(os.environ), server_log)
        try:
            wait_until_answering(
                env["DUFFEL_BASE_URL"], supplier, supplier_log, timeout=START_TIMEOUT
            )
            wait_until_answering(f"{base_url}/health", server, server_log, timeout=START_TIMEOUT)
            from config import gunicorn as config

            if args.worker_class == "config":
                serving += f" ({config.workers} workers × {config.threads} threads, gthread)"
            print(f"gunicorn {serving}; idle phase ...", flush=True)
            idle = measure(base_url, other_team.live_key, offers, args)
            print(f"busy phase: {args.searches} searches of one team at a time ...", flush=True)
            with BusySearches(base_url, busy_team.live_key, args.searches) as searches:
                busy = measure(base_url, other_team.live_key, offers, args)
        finally:
            stop_process(server)
            stop_process(supplier)
            cache.clear()
    text = report(idle, busy, searches, args, serving)
    print()
    print(text)
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(text + "\n")
    print(f"\nwritten to {RESULTS_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
