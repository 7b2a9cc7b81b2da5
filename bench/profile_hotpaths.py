"""Deterministic profile of the hot paths: the SQL each one sends, and where its Python goes.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [REDIS_URL=redis://…/N] \\
        .venv/bin/python bench/profile_hotpaths.py [--requests 200] [--top 25]

Runs in a scratch database (bench/harness.py) on production settings, in this process:
`GET /api/v1/wallet/balance` (live key), `POST /api/v1/flights/search` (sandbox, test key) and
one webhook delivery attempt (`delivery_attempt`, its POST answered in-process by `responses`).
For each: the queries of one warm request, then N requests under cProfile: function calls per
request (deterministic: it does not move with the machine's load, unlike wall-clock time) and
the functions with the most own time. Wall-clock figures belong to `bin/bench`.
"""

import argparse
import cProfile
import io
import pstats
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import scratch_django  # noqa: E402 - needs sys.path

SEARCH_BODY = {
    "type": "round_trip",
    "slices": [
        {"origin": "GRU", "destination": "LIS", "departureDate": "2027-03-10"},
        {"origin": "LIS", "destination": "GRU", "departureDate": "2027-03-24"},
    ],
    "passengers": [{"type": "adult", "count": 1}],
}
HOOK_URL = "https://93.184.216.34/hook"  # a global address: passes the SSRF rules


def _nothing():
    return None


def queries_of(run, setup=_nothing) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    setup()
    with CaptureQueriesContext(connection) as captured:
        run()
    return [q["sql"] for q in captured.captured_queries]


def profile(run, n: int, top: int, setup=_nothing) -> tuple[float, str]:
    profiler = cProfile.Profile()
    for _ in range(n):
        setup()  # not profiled
        profiler.enable()
        run()
        profiler.disable()
    stats = pstats.Stats(profiler)
    out = io.StringIO()
    stats.stream = out
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return stats.total_calls / n, out.getvalue()


def section(title: str, run, n: int, top: int, setup=_nothing) -> str:
    setup()
    run()  # warm: imports, caches, the per-process key cache
    queries = queries_of(run, setup)
    calls, table = profile(run, n, top, setup)
    lines = [f"## {title}", "", f"{len(queries)} queries per request:", ""]
    lines += [f"{i}. `{sql[:300]}`" for i, sql in enumerate(queries, 1)]
    lines += ["", f"{calls:,.0f} Python function calls per request (cProfile, {n} requests)"]
    lines += ["", "```", table.strip(), "```", ""]
    return "\n".join(lines)


def run(n: int, top: int) -> str:
    import orjson
    import responses
    from django.core.handlers.wsgi import WSGIHandler

    from agencies.tests.factories import make_team
    from wallet.tests.factories import fund
    from webhooks.models import Delivery
    from webhooks.services import delivery_attempt
    from webhooks.tasks import deliver_webhook
    from webhooks.tests.factories import make_endpoint, record

    team = make_team("Profiled Travel")
    fund(team.team, "1000.00")
    # Requests go straight to Django's WSGI handler, as gunicorn calls it (the test client
    # would add its own signals, copies and checks to every request).
    handler = WSGIHandler()

    def call(method: str, path: str, key: str, body: bytes = b"") -> None:
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "testserver",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "testserver",
            "HTTP_AUTHORIZATION": f"Bearer {key}",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
        }
        status = []
        response = handler(environ, lambda s, headers, exc_info=None: status.append(s))
        content = b"".join(response)
        response.close()
        assert status[0].startswith("200"), (status, content[:300])

    def balance():
        call("GET", "/api/v1/wallet/balance", team.live_key)

    search_body = orjson.dumps(SEARCH_BODY)

    def search():
        call("POST", "/api/v1/flights/search", team.test_key, search_body)

    make_endpoint(team.team, HOOK_URL)
    # Each attempt's event is recorded first (not profiled), its queue message not sent.
    deliver_webhook.delay = lambda *args, **kwargs: None
    due = []

    def new_delivery():
        event = record(team.team)
        due.append(Delivery.objects.filter(event=event).values_list("pk", flat=True).get())

    def delivery():
        attempt = delivery_attempt(due.pop())
        assert attempt is not None and attempt.succeeded, attempt and attempt.error

    parts = [section("GET /api/v1/wallet/balance (live key)", balance, n, top)]
    parts.append(section("POST /api/v1/flights/search (sandbox)", search, max(n // 4, 1), top))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        mocked.post(HOOK_URL, body="ok")
        parts.append(
            section("delivery_attempt (one attempt, answered 200)", delivery, n, top, new_delivery)
        )
    return "\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    env = {
        "API_RATE_LIMIT": "1000000/minute",
        "API_SEARCH_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    with scratch_django("hotpaths", env):
        print(run(args.requests, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
