"""What the API request log costs a request (docs/request-log.md): the same request with the log
off (the baseline) and on, in the same run, interleaved.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [REDIS_URL=redis://…/N] \\
        .venv/bin/python bench/request_log.py [--requests 2000] [--rounds 5]

In a scratch database (bench/harness.py) on production settings, in this process, straight
through Django's WSGI handler as gunicorn calls it: `GET /api/v1/wallet/balance` with the live
key. Each round runs --requests requests with the log off, then as many with it on (the
process's flusher thread writing every API_REQUEST_LOG_FLUSH_SECONDS, as in production, and
what it buffered written before the round ends, so that its writes are in the round's time),
then as many with the rows only buffered (written after the round: the request's own cost).
For each: wall-clock µs per request and this process's CPU µs per request (every thread's, so
the flusher's INSERTs count), the median round; queries per request sent by the request itself.
Then one flush of API_REQUEST_LOG_BATCH rows alone: µs per row written. The table also goes
to bench/results/request_log.md.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import scratch_django  # noqa: E402 - needs sys.path
from tests.kit.wsgi import wsgi_call  # noqa: E402 - needs sys.path

RESULTS_FILE = REPO / "bench" / "results" / "request_log.md"


def run(n: int, rounds: int) -> str:
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from agencies.models import ApiRequest
    from agencies.request_log import request_log_flush, request_log_stop
    from tests.kit.factories import fund, make_team

    team = make_team("Logged Travel")
    fund(team.team, "1000.00")
    handler = WSGIHandler()

    def balance():
        status, content = wsgi_call(handler, "GET", "/api/v1/wallet/balance", key=team.live_key)
        assert status.startswith("200"), (status, content[:300])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            balance()
        return len(captured.captured_queries)

    warm = 50
    for _ in range(warm):
        balance()  # warm: the key cache, imports, the connection
    period = settings.API_REQUEST_LOG_FLUSH_SECONDS
    modes = {
        "off (baseline)": (False, period),
        "on: buffered and written by the flusher": (True, period),
        "on: buffered only (written after the round)": (True, 0),
    }
    results: dict[str, list[tuple[float, float]]] = {mode: [] for mode in modes}
    counted = {}
    for _ in range(rounds):
        for mode, (logging, flush_seconds) in modes.items():
            settings.API_REQUEST_LOG_ENABLED = logging
            settings.API_REQUEST_LOG_FLUSH_SECONDS = flush_seconds
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(n):
                balance()
            if flush_seconds:
                request_log_stop()  # the flusher writes what is left, inside the round's time
            results[mode].append(
                ((time.perf_counter() - wall) / n * 1e6, (time.process_time() - cpu) / n * 1e6)
            )
            counted[mode] = queries()
            request_log_stop()  # what is left, outside the round's time
    written = ApiRequest.objects.count()

    batch = settings.API_REQUEST_LOG_BATCH
    settings.API_REQUEST_LOG_FLUSH_SECONDS = 0  # no thread: the flush below is timed alone
    settings.API_REQUEST_LOG_ENABLED = True
    request_log_stop()
    for _ in range(batch):
        balance()
    started, cpu_started = time.perf_counter(), time.process_time()
    flushed = request_log_flush()
    per_row = (time.perf_counter() - started) / max(flushed, 1) * 1e6
    cpu_per_row = (time.process_time() - cpu_started) / max(flushed, 1) * 1e6
    written_by = "one COPY" if connection.vendor == "postgresql" else "INSERTs"

    off_wall = statistics.median(w for w, _ in results["off (baseline)"])
    off_cpu = statistics.median(c for _, c in results["off (baseline)"])
    lines = [
        f"## GET /api/v1/wallet/balance, {n} requests × {rounds} rounds (median round)",
        "",
        "| request log | wall µs per request | × off | CPU µs per request | × off | queries |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for mode in modes:
        wall = statistics.median(w for w, _ in results[mode])
        cpu = statistics.median(c for _, c in results[mode])
        lines.append(
            f"| {mode} | {wall:,.0f} | {wall / off_wall:.3f} "
            f"| {cpu:,.0f} | {cpu / off_cpu:.3f} | {counted[mode]} |"
        )
    lines += [
        "",
        f"Rows written by the flusher: {written:,} (requests with the log on, the warm-up's"
        f" included: {warm + 2 * (n + 1) * rounds:,}).",
        f"One flush of {flushed} rows alone ({written_by}):"
        f" {per_row:,.1f} µs per row, {cpu_per_row:,.1f} µs of CPU per row.",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    env = {
        "API_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    with scratch_django("reqlog", env):
        report = run(args.requests, args.rounds)
    print(report)
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(report)
    print(f"written to {RESULTS_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
