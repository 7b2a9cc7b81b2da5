"""Instant bookings end to end on the sandbox supplier, and the share of their time spent
holding the wallet's row lock.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/bookings.py [--bookings 200] [--threads 4]

In a scratch database (created, migrated, dropped) and a scratch Redis database
(BENCH_REDIS_URL, default redis://127.0.0.1:6379/12, flushed at the end). Offers are searched
first (untimed: an offer is booked once). Then each booking is a real POST /api/v1/bookings
with type instant through Django's full stack: validation, the wallet debit, the sandbox
issuing tickets, events, e-mail rows (the e-mails are queued for a worker, as in production).
All bookings debit ONE wallet, the worst case for its row lock. The lock window runs from the
statement that moves the balance to the COMMIT that releases it. Baseline in the same run: a
bare view with the same authentication (the framework's floor).
"""

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import collect_offers, percentile, scratch_django  # noqa: E402 - needs sys.path
from tests.kit.booking_bodies import booking_body  # noqa: E402 - needs sys.path

RESULTS_FILE = REPO / "bench" / "results" / "bookings.md"


def run(bookings: int, threads: int) -> str:
    from django.db import connection
    from django.test import Client
    from django.urls import clear_url_caches, path
    from rest_framework.response import Response

    from api.apis import ApiView
    from config import urls
    from tests.kit.factories import fund, make_team
    from wallet.ledger_check import ledger_problems

    team = make_team("Bench bookings")
    fund(team.team, "900000000.00")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
    offers = collect_offers(client, bookings)

    class BareApi(ApiView):
        def get(self, request):
            return Response({"ok": True})

    urls.urlpatterns.insert(0, path("bench/bare", BareApi.as_view()))
    clear_url_caches()

    latencies, lock_windows, baseline, lock = [], [], [], threading.Lock()

    def worker(chunk):
        own = Client(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
        locked_at = [None]

        def watch(execute, sql, params, many, context):
            result = execute(sql, params, many, context)
            if "UPDATE wallet_wallet" in sql or sql.startswith('UPDATE "wallet_wallet"'):
                locked_at[0] = time.perf_counter()
            return result

        with connection.execute_wrapper(watch):
            for offer in chunk:
                started = time.perf_counter()
                response = own.post(
                    "/api/v1/bookings",
                    booking_body(offer, type="instant"),
                    content_type="application/json",
                )
                ended = time.perf_counter()
                assert response.status_code == 201, response.content
                window = None
                if locked_at[0] is not None:
                    # The debit's transaction ends with the claim step; the supplier is called
                    # after it, so the window is debit → commit of that first transaction.
                    window = (claim_end[0] - locked_at[0]) * 1000 if claim_end[0] else None
                with lock:
                    latencies.append((ended - started) * 1000)
                    if window is not None:
                        lock_windows.append(window)
                locked_at[0] = claim_end[0] = None
                started = time.perf_counter()
                own.get("/bench/bare")
                with lock:
                    baseline.append((time.perf_counter() - started) * 1000)
        connection.close()

    # The commit that releases the lock: the first COMMIT after the balance moved. Patched for
    # this measurement only; with several threads the windows are approximate.
    claim_end = [None]
    from django.db.backends.base import base as db_base

    original_commit = db_base.BaseDatabaseWrapper.commit

    def commit(self):
        original_commit(self)
        if claim_end[0] is None:
            claim_end[0] = time.perf_counter()

    db_base.BaseDatabaseWrapper.commit = commit
    chunks = [offers[i::threads] for i in range(threads)]
    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(chunk,)) for chunk in chunks]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    elapsed = time.perf_counter() - started
    db_base.BaseDatabaseWrapper.commit = original_commit
    assert ledger_problems() == []

    latencies.sort()
    baseline.sort()
    lock_p50 = statistics.median(lock_windows) if lock_windows else float("nan")
    lines = [
        f"{len(latencies)} instant bookings on one wallet, sandbox supplier, PostgreSQL, "
        f"{threads} thread(s) in one process.",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| bookings per second (booking requests only) | {len(latencies) / elapsed:.1f} |",
        f"| booking latency p50 / p99 ms | {statistics.median(latencies):.1f} / "
        f"{percentile(latencies, 99):.1f} |",
        f"| wallet row lock held p50 ms | {lock_p50:.2f} |",
        f"| share of a booking's time holding the lock (p50) | "
        f"{lock_p50 / statistics.median(latencies) * 100:.1f} % |",
        f"| baseline: bare authenticated view p50 ms | {statistics.median(baseline):.2f} |",
        "",
        "check_ledger after the run: ok.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bookings", type=int, default=200)
    parser.add_argument(
        "--threads", type=int, default=1, help="concurrent clients in this process (default 1)"
    )
    args = parser.parse_args()
    env = {
        "API_RATE_LIMIT": "1000000/minute",
        "API_SEARCH_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        # E-mail tasks are queued to Redis for a worker, as in production, not run in the request.
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12"),
        "EMAIL_URL": "dummymail://",
        "FLIGHTS_LIVE_SANDBOX": "true",  # the live key books the sandbox
    }
    with scratch_django("bookings", env):
        report = run(args.bookings, args.threads)
        from django.core.cache import cache

        cache.clear()  # the scratch Redis database: queued e-mail messages and counters
    print(report)
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(report + "\n")
    print(f"\nwritten to {RESULTS_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
