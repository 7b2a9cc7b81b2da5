"""Server-side time of a sandbox round-trip flight search, and where it goes.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/search.py [--requests 200]

Runs in a scratch database (created, migrated and dropped, as bench/harness.py does).
Each request is a real POST /api/v1/flights/search through Django's full stack in this process
(middleware, API-key authentication, throttling, validation, the sandbox supplier, pricing,
storage of the offers, JSON rendering): round trip GRU-LIS, 1 adult, 50+ offers. The split
comes from the view's `Server-Timing` header (supplier, pricing = exchange rates + pricing +
building the offer objects, storage); `rest` is everything else (routing, authentication,
validation, rendering to JSON). The process time (CPU) of each request is reported too: it
does not move with what else the machine runs, as wall-clock time does.

Baseline, measured in the same run: a bare DRF view (same authentication and renderer) that
returns the same-sized stored result without doing any work; it is the floor the framework and
JSON rendering alone cost. Target (issue 4): p50 ≤ 30 ms on this machine.

Storage (issue 12): bytes the searches left in PostgreSQL, per search: the growth of the flight
tables (heap + TOAST, `pg_table_size`) and of their indexes over the measured requests, divided
by the number of searches. Nothing is purged during the run.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import percentile, scratch_django  # noqa: E402 - needs sys.path

RESULTS_FILE = REPO / "bench" / "results" / "search.md"
BODY = {
    "type": "round_trip",
    "slices": [
        {"origin": "GRU", "destination": "LIS", "departureDate": "2027-03-10"},
        {"origin": "LIS", "destination": "GRU", "departureDate": "2027-03-24"},
    ],
    "passengers": [{"type": "adult", "count": 1}],
}


def parse_server_timing(header: str) -> dict[str, float]:
    stages = {}
    for part in header.split(","):
        name, _, duration = part.strip().partition(";dur=")
        stages[name] = float(duration)
    return stages


FLIGHT_TABLES = ("flights_offer", "flights_offerrequest", "flights_offerpassenger")


def stored_bytes() -> tuple[int, int]:
    """(heap + TOAST, indexes) of the flight tables that exist, in bytes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(pg_table_size(c.oid)), 0),"
            " coalesce(sum(pg_indexes_size(c.oid)), 0)"
            " FROM pg_class c WHERE c.relname = ANY(%s) AND c.relkind = 'r'",
            [list(FLIGHT_TABLES)],
        )
        table, indexes = cursor.fetchone()
    return int(table), int(indexes)


def run(requests: int) -> str:
    from django.test import Client
    from django.urls import path
    from rest_framework.response import Response

    from api.apis import ApiView
    from config import urls
    from tests.kit.factories import make_team

    team = make_team("Bench search")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {team.test_key}")
    first = client.post("/api/v1/flights/search", BODY, content_type="application/json")
    assert first.status_code == 200, (first.status_code, first.headers, first.content)
    stored = first.json()
    offers = len(stored["offers"])

    class BareApi(ApiView):  # the floor: authentication + rendering, no work
        def get(self, request):
            return Response(stored)

    urls.urlpatterns.insert(0, path("bench/bare", BareApi.as_view()))
    from django.urls import clear_url_caches

    clear_url_caches()

    totals, baseline, stages = [], [], {}
    cpu, baseline_cpu = [], []  # process time: CPU this process spent, whatever the load
    table_before, indexes_before = stored_bytes()
    for _ in range(requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.post("/api/v1/flights/search", BODY, content_type="application/json")
        totals.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200
        split = parse_server_timing(response["Server-Timing"])
        split["rest"] = totals[-1] - sum(split.values())
        for name, ms in split.items():
            stages.setdefault(name, []).append(ms)
        started, started_cpu = time.perf_counter(), time.process_time()
        assert client.get("/bench/bare").status_code == 200
        baseline.append((time.perf_counter() - started) * 1000)
        baseline_cpu.append((time.process_time() - started_cpu) * 1000)

    table_after, indexes_after = stored_bytes()
    table_per_search = (table_after - table_before) / requests
    indexes_per_search = (indexes_after - indexes_before) / requests

    def row(name, values):
        values = sorted(values)
        return f"| {name} | {statistics.median(values):.2f} | {percentile(values, 99):.2f} |"

    p50 = statistics.median(totals)
    lines = [
        f"Round-trip GRU-LIS search, 1 adult, {offers} offers, {requests} requests, sandbox "
        f"supplier, PostgreSQL, one process.",
        "",
        "| stage | p50 ms | p99 ms |",
        "|---|---:|---:|",
        row("**total (server side)**", totals),
        *(row(name, values) for name, values in stages.items()),
        row("baseline: bare view returning the same result", baseline),
        row("CPU (process time) of a search", cpu),
        row("CPU (process time) of the bare view", baseline_cpu),
        "",
        f"Total p50 = {p50:.1f} ms = {p50 / statistics.median(baseline):.1f} × the bare view. "
        f"Target p50 ≤ 30 ms: {'met' if p50 <= 30 else 'missed'}. CPU p50 = "
        f"{statistics.median(cpu):.1f} ms = "
        f"{statistics.median(cpu) / statistics.median(baseline_cpu):.1f} × the bare view's "
        f"(process time: what the search costs, whatever else the machine runs).",
        "",
        "| storage per search | bytes |",
        "|---|---:|",
        f"| tables + TOAST | {table_per_search:,.0f} |",
        f"| indexes | {indexes_per_search:,.0f} |",
        f"| **total stored per search** | **{table_per_search + indexes_per_search:,.0f}** |",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    env = {
        "API_RATE_LIMIT": "100000/minute",
        "API_SEARCH_RATE_LIMIT": "100000/minute",
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    with scratch_django("search", env):
        report = run(args.requests)
    print(report)
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(report + "\n")
    print(f"\nwritten to {RESULTS_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
