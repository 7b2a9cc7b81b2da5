"""Signed webhook deliveries per second by one Celery worker to a local HTTPS receiver, and the
latency from the commit of an event to its first attempt arriving.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/webhooks.py [--events 500] [--latency-events 200]

In a scratch database (created, migrated, dropped) and a scratch Redis database
(BENCH_REDIS_URL, default redis://127.0.0.1:6379/11, the broker; flushed before and after).
Processes: this script (records events, each in its own transaction, as the services do), ONE
Celery worker (prefork, concurrency 1) and the HTTPS receiver (tests/kit/receiver.py, its
own process and throwaway CA), all on this machine.

* latency: events recorded one at a time, each after the previous one arrived; commit →
  request received by the receiver (same clock), p50 and p99.
* throughput: a burst of events committed as fast as possible; deliveries per second from the
  first commit to the last request received. Every delivery is signed and checked by the
  receiver-side verifier afterwards.
* baseline (same run): the same receiver fed by a bare loop of `requests` POSTs of the same
  bodies over one kept-alive HTTPS connection: the transport's floor, without queue, database,
  claims or records. The ratio is ours / baseline.
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import percentile, scratch_django  # noqa: E402 - needs sys.path

RESULTS_FILE = REPO / "bench" / "results" / "webhooks.md"
BACKLOG_RESULTS_FILE = REPO / "bench" / "results" / "webhooks_backlog.md"


def start_receiver(log_path: Path) -> tuple[subprocess.Popen, dict]:
    receiver = subprocess.Popen(  # noqa: S603 - fixed argument list
        [sys.executable, "-m", "tests.kit.receiver", "--port", "0", "--log", str(log_path)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    info = json.loads(receiver.stdout.readline())
    return receiver, info


def start_worker(env: dict) -> subprocess.Popen:
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=WARNING",
        ],
        cwd=REPO,
        env=env,
    )
    return worker


def read_log(log_path: Path) -> list[dict]:
    if not log_path.exists():
        return []
    # The receiver may be halfway through writing its last line: only whole lines count.
    lines = log_path.read_text().split("\n")[:-1]
    return [json.loads(line) for line in lines if line.strip()]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children still running (Linux /proc):
    the worker's main process and its prefork child."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for each in worker_pids(pid):
        fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def count_lines(log_path: Path) -> int:
    """Whole lines in the receiver's log, counted from the bytes added since the last call:
    waiting costs this process next to nothing, instead of parsing the whole log every few
    milliseconds on the cores the worker, the receiver and PostgreSQL share."""
    size = log_path.stat().st_size if log_path.exists() else 0
    counted = _counted.get(log_path, (0, 0))
    offset, lines = counted
    if size > offset:
        with log_path.open("rb") as log:
            log.seek(offset)
            added = log.read(size - offset)
        whole = added.rfind(b"\n") + 1  # a line being written is counted once it ends
        lines += added.count(b"\n", 0, whole)
        _counted[log_path] = (offset + whole, lines)
    return lines


_counted: dict[Path, tuple[int, int]] = {}  # log -> (bytes of whole lines counted, lines)


def wait_for(log_path: Path, count: int, timeout: float = 120.0) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if count_lines(log_path) >= count:
            return read_log(log_path)
        time.sleep(0.002)
    raise TimeoutError(f"only {len(read_log(log_path))} of {count} deliveries arrived")


def in_flight(burst_ids: list[str]) -> tuple[int, float]:
    """How many attempts of these events' deliveries were in flight at once, from the attempts'
    records (each from its start, `attempted_at`, for its `duration_ms`): the most at one
    moment, and the mean over the time any was (how much the POSTs' waits overlapped)."""
    from webhooks.models import DeliveryAttempt

    spans = DeliveryAttempt.objects.filter(delivery__event_id__in=burst_ids).values_list(
        "attempted_at", "duration_ms"
    )
    edges = []
    for started, duration_ms in spans:
        start = started.timestamp()
        edges += [(start, 1), (start + duration_ms / 1000, -1)]
    most = now = 0
    busy = weighted = 0.0
    previous = None
    for at, step in sorted(edges):  # an end sorts before a start at the same instant
        if previous is not None and now:
            busy += at - previous
            weighted += now * (at - previous)
        now += step
        most = max(most, now)
        previous = at
    return most, (weighted / busy if busy else 0.0)


def header(entry: dict, name: str) -> str:
    return {k.lower(): v for k, v in entry["headers"].items()}[name.lower()]


def worker_pids(pid: int) -> list[int]:
    """The worker's main process and its prefork children."""
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        pids += [int(child) for child in (task / "children").read_text().split()]
    return pids


def run(
    events: int,
    latency_events: int,
    receiver_info: dict,
    log_path: Path,
    worker_pid: int,
    backlog: bool = False,
) -> str:
    import requests
    from django.db import transaction

    from tests.kit.factories import SECRET, make_endpoint, make_team
    from tests.kit.receiver import verify_signature
    from webhooks.models import Delivery, EventType
    from webhooks.services import event_payload, event_record

    team = make_team("Bench webhooks").team
    endpoint = make_endpoint(team, receiver_info["url"], events=["wallet.credit"])

    def record(number: int) -> tuple[str, float]:
        with transaction.atomic():
            event = event_record(
                team=team,
                live_mode=True,
                type=EventType.WALLET_CREDIT,
                data_object={"object": "transaction", "id": f"txn_{number}", "amount": "10.00"},
            )
        return event.id, time.time()  # the commit has returned: the task is queued

    # Warm-up (worker imports, connections), not measured.
    for number in range(5):
        record(number)
    wait_for(log_path, 5)

    # Latency: one event at a time.
    latencies = []
    for number in range(latency_events):
        already = len(read_log(log_path))
        event_id, committed = record(1000 + number)
        arrived = wait_for(log_path, already + 1)[-1]
        assert header(arrived, "X-Service-Event-Id") == event_id
        latencies.append((arrived["received_at"] - committed) * 1000)

    # Throughput: a burst.
    already = len(read_log(log_path))
    worker_cpu = cpu_seconds(worker_pid)
    if backlog:  # the worker waits, stopped, until the whole burst is committed
        stopped = worker_pids(worker_pid)
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
    first_commit = time.time()
    for number in range(events):
        record(100000 + number)
    producer_rate = events / (time.time() - first_commit)
    if backlog:
        first_commit = time.time()  # the rate is the worker's alone, from its resumption
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
    received = wait_for(log_path, already + events, timeout=600)
    burst = received[already:]
    elapsed = max(e["received_at"] for e in burst) - first_commit
    rate = events / elapsed
    bad = [e for e in received if not verify_signature(SECRET, e["headers"], e["body"].encode())]
    assert not bad, f"{len(bad)} deliveries failed signature verification"
    deadline = time.monotonic() + 60  # the last answers are still being recorded
    while Delivery.objects.exclude(status="succeeded").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Delivery.objects.exclude(status="succeeded").exists()
    assert len(received) == Delivery.objects.count()  # each delivered exactly once
    # The worker's CPU per delivery of the burst (its last answers are recorded by now): what
    # the machine's load does not change, unlike the rates.
    worker_cpu_ms = (cpu_seconds(worker_pid) - worker_cpu) * 1000 / events
    load = os.getloadavg()[0]
    most, mean = in_flight([header(e, "X-Service-Event-Id") for e in burst])

    # Baseline: the same bodies straight over one HTTPS connection.
    from webhooks.models import Event

    bodies = [
        event_payload(e, webhook_id=endpoint.id, api_version=endpoint.api_version)
        for e in Event.objects.all()[:events]
    ]
    session = requests.Session()
    session.verify = receiver_info["ca_path"]
    started = time.perf_counter()
    for body in bodies:
        session.post(
            receiver_info["url"], data=body, headers={"Content-Type": "application/json"}
        ).raise_for_status()
    baseline_rate = len(bodies) / (time.perf_counter() - started)
    # The same with a new connection and TLS handshake per POST, as each delivery makes (the
    # connection is pinned to the address checked for that attempt; nothing is pooled).
    started = time.perf_counter()
    for body in bodies:
        with requests.Session() as fresh:
            fresh.verify = receiver_info["ca_path"]
            fresh.post(
                receiver_info["url"], data=body, headers={"Content-Type": "application/json"}
            ).raise_for_status()
    fresh_rate = len(bodies) / (time.perf_counter() - started)

    latencies.sort()
    lines = [
        f"One Celery worker (prefork, concurrency 1), Redis broker, PostgreSQL, HTTPS receiver "
        f"on this machine; {events} events in the burst, {latency_events} for latency"
        + (
            " (--backlog: the burst committed while the worker was stopped; the rate is from"
            " its resumption to the last delivery received)."
            if backlog
            else "."
        ),
        "",
        "| measure | value |",
        "|---|---:|",
        f"| signed deliveries per second, one worker | {rate:.1f} |",
        f"| baseline: bare `requests` POSTs per second, one connection | {baseline_rate:.1f} |",
        f"| ratio ours / baseline | {rate / baseline_rate:.2f} |",
        f"| events committed per second by this script during the burst | {producer_rate:.1f} |",
        f"| baseline: bare POSTs per second, a new HTTPS connection each | {fresh_rate:.1f} |",
        f"| ratio ours / new-connection baseline | {rate / fresh_rate:.2f} |",
        f"| commit → first attempt received, p50 ms | {statistics.median(latencies):.1f} |",
        f"| commit → first attempt received, p99 ms | {percentile(latencies, 99):.1f} |",
        f"| worker CPU per delivery in the burst, ms (user + system) | {worker_cpu_ms:.2f} |",
        f"| attempts in flight at once in the burst, most / mean | {most} / {mean:.2f} |",
        f"| load average (1 min) at the end of the burst | {load:.2f} |",
        "",
        "Every delivery arrived once, succeeded, and passed the receiver's signature check.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--latency-events", type=int, default=200)
    parser.add_argument(
        "--backlog",
        action="store_true",
        help="commit the burst with the worker stopped, then time the worker alone",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch_dir:
        log_path = Path(scratch_dir) / "received.jsonl"
        receiver, info = start_receiver(log_path)
        redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
        env = {
            "REDIS_URL": redis_url,
            "WEBHOOKS_ALLOWED_NETWORKS": "127.0.0.0/8",
            "REQUESTS_CA_BUNDLE": info["ca_path"],
            "EMAIL_URL": "dummymail://",
        }
        worker = None
        try:
            with scratch_django("webhooks", env):
                from django.core.cache import cache

                from config.celery_app import app

                cache.clear()
                app.control.purge()
                worker = start_worker(dict(os.environ))
                report = run(
                    args.events, args.latency_events, info, log_path, worker.pid, args.backlog
                )
                worker.terminate()
                worker.wait(timeout=30)
                app.control.purge()
                cache.clear()
        finally:
            if worker is not None and worker.poll() is None:
                worker.kill()
            receiver.terminate()
    print(report)
    results_file = BACKLOG_RESULTS_FILE if args.backlog else RESULTS_FILE
    results_file.parent.mkdir(parents=True, exist_ok=True)
    results_file.write_text(report + "\n")
    print(f"\nwritten to {results_file.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
