"""Profile of one instant booking (`POST /api/v1/bookings`, paid and ticketed at once on the
sandbox supplier): the statements it sends, this process's CPU per booking, and where it goes.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [BENCH_REDIS_URL=redis://…/N] \\
        .venv/bin/python bench/profile_bookings.py [--bookings 100] [--top 25] [--cpu-only]

Runs in a scratch database (bench/harness.py) on production settings, in this process, with the
requests handed straight to Django's WSGI handler as gunicorn does. The team has one active
webhook endpoint subscribed to every event, so each event writes a delivery (its queue message
is not sent). Offers are searched first, untimed (an offer is booked once).

First, without the profiler: CPU per booking (user + system time of this process, the median of
five batches); the servers' CPU (PostgreSQL, Redis) is not in it, and on a busy machine it moves
far less than wall-clock time. Then the statements of one booking (CaptureQueriesContext) and a
cProfile in CPU time. Wall-clock figures belong to bench/bookings.py.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import collect_offers, scratch_django  # noqa: E402 - needs sys.path
from bench.profile_hotpaths import HOOK_URL, profile  # noqa: E402 - needs sys.path
from tests.kit.booking_bodies import booking_body  # noqa: E402 - needs sys.path
from tests.kit.wsgi import wsgi_call  # noqa: E402 - needs sys.path

BATCHES = 5


def run(n: int, top: int, cpu_only: bool, callees: str = "") -> str:
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tests.kit.factories import fund, make_endpoint, make_team
    from wallet.ledger_check import ledger_problems
    from webhooks.models import EventType
    from webhooks.tasks import deliver_webhook, deliver_webhooks

    team = make_team("Profiled bookings")
    fund(team.team, "900000000.00")
    make_endpoint(team.team, HOOK_URL, events=EventType.values, live_mode=True)
    # No queue messages (one per delivery, or per endpoint since batches).
    deliver_webhook.delay = deliver_webhooks.delay = lambda *args, **kwargs: None
    search_client = Client(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
    needed = 2 + n * BATCHES + (0 if cpu_only else n)
    offers = iter(collect_offers(search_client, needed))
    handler = WSGIHandler()

    def book() -> None:
        offer = next(offers)
        body = orjson.dumps(booking_body(offer, type="instant"))
        status, content = wsgi_call(
            handler, "POST", "/api/v1/bookings", key=team.live_key, body=body
        )
        assert status.startswith("201"), (status, content[:500])
        assert orjson.loads(content)["status"] == "ticketed", content[:500]

    book()  # warm: imports, the per-process key cache, compiled queries
    per_batch = []
    for _ in range(BATCHES):
        started = time.process_time()
        for _ in range(n):
            book()
        per_batch.append((time.process_time() - started) / n * 1e6)
    lines = [
        "## POST /api/v1/bookings, instant (sandbox, one subscribed endpoint)",
        "",
        f"CPU per booking (this process, no profiler, median of {BATCHES} batches of {n}): "
        f"**{statistics.median(per_batch):,.0f} µs** "
        f"(batches: {', '.join(f'{us:,.0f}' for us in per_batch)})",
        "",
    ]
    with CaptureQueriesContext(connection) as captured:
        book()
    queries = [q["sql"] for q in captured.captured_queries]
    lines += [f"{len(queries)} statements per booking:", ""]
    lines += [f"{i}. `{sql[:240]}`" for i, sql in enumerate(queries, 1)]
    if not cpu_only:
        calls, table = profile(book, n, top, callees=callees)
        lines += ["", f"{calls:,.0f} Python function calls per booking (cProfile, {n} bookings)"]
        lines += ["", "```", table.strip(), "```", ""]
    assert ledger_problems() == []
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bookings", type=int, default=100, help="per batch")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--cpu-only", action="store_true", help="no cProfile")
    parser.add_argument("--callees", default="", help="also list the callees of these functions")
    args = parser.parse_args()
    env = {
        "API_RATE_LIMIT": "1000000/minute",
        "API_SEARCH_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12"),
        "EMAIL_URL": "dummymail://",
        "FLIGHTS_LIVE_SANDBOX": "true",  # the live key books the sandbox
    }
    with scratch_django("profbookings", env):
        report = run(args.bookings, args.top, args.cpu_only, args.callees)
        from django.core.cache import cache

        cache.clear()  # the scratch Redis database: queued e-mail messages and counters
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
