"""Deterministic profile of the hot paths: the SQL each one sends, and where its Python goes.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [REDIS_URL=redis://…/N] \\
        .venv/bin/python bench/profile_hotpaths.py [--requests 200] [--top 25]

Runs in a scratch database (bench/harness.py) on production settings, in this process:
`GET /api/v1/wallet/balance` (live key), `POST /api/v1/flights/search` (sandbox, test key) and
one webhook delivery attempt (`delivery_attempt`, its POST answered in-process by `responses`).
For each: the queries of one warm request, then N requests under cProfile: function calls per
request (deterministic: it does not move with the machine's load, unlike wall-clock time) and
the functions with the most own CPU time (process time: waiting on a server is not counted).
Wall-clock figures belong to `bin/bench`.

First, without the profiler: this process's CPU per request (user + system, the median of five
batches) for a bare Django JSON view (bench/http_urls.py, the HTTP bench's baseline), the balance
and the search; the servers' CPU (PostgreSQL, Redis) is not in it. On a busy machine CPU time
moves far less than wall-clock time.
"""

import argparse
import cProfile
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import profile_text, scratch_django  # noqa: E402 - needs sys.path
from tests.kit.wsgi import wsgi_call  # noqa: E402 - needs sys.path

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


def profile(run, n: int, top: int, setup=_nothing, callees: str = "") -> tuple[float, str]:
    profiler = cProfile.Profile(time.process_time)  # CPU, not waiting
    for _ in range(n):
        setup()  # not profiled
        profiler.enable()
        run()
        profiler.disable()
    calls, text = profile_text(profiler, top, callees)
    return calls / n, text


def cpu_per_request_us(run, n: int, batches: int = 5) -> float:
    run()  # warm
    per_batch = []
    for _ in range(batches):
        started = time.process_time()
        for _ in range(n):
            run()
        per_batch.append((time.process_time() - started) / n * 1e6)
    return statistics.median(per_batch)


def cpu_table(runs: list[tuple[str, object, int]]) -> str:
    lines = [
        "## CPU per request (this process, no profiler)",
        "",
        "| request | CPU µs per request | × bare view |",
        "|---|---:|---:|",
    ]
    baseline = None
    for title, run, n in runs:
        us = cpu_per_request_us(run, n)
        baseline = baseline or us
        lines.append(f"| {title} | {us:,.0f} | {us / baseline:.1f} |")
    return "\n".join(lines) + "\n"


def balance_parts(team, bare, balance, n: int) -> str:
    """The balance's own work, part by part, each called alone (CPU µs per call, the median of
    five batches): what the balance does that the bare view does not. The rest of the difference
    is Django REST framework's dispatch (its Request, authentication's and the throttle's own
    Python, permissions) and Django's for an API path."""
    from types import SimpleNamespace

    from django.test import RequestFactory
    from rest_framework.response import Response

    from agencies import key_cache
    from agencies.authentication import api_key_for_secret, key_from_entry
    from agencies.models import hash_secret
    from api.throttling import limits_for, read_and_count_ahead
    from wallet.apis import WalletBalanceApi
    from wallet.selectors import wallet_balance

    key = api_key_for_secret(team.live_key)
    assert key is not None
    limits = limits_for(team_id=key.team_id, live_mode=True, view=WalletBalanceApi)
    generation = key_cache.current_generation()
    balance_data = wallet_balance(team=key.team, live_mode=True)
    factory = RequestFactory()

    def redis_command():
        assert read_and_count_ahead(SimpleNamespace(), key_cache.GENERATION_KEY, limits)[0]

    def key_from_cache():
        entry = key_cache.lookup(hash_secret(team.live_key), generation)
        assert entry is not None
        key_from_entry(entry)

    def query():
        wallet_balance(team=key.team, live_mode=True)

    def response():
        view = WalletBalanceApi()
        request = view.initialize_request(factory.get("/api/v1/wallet/balance"))
        view.request, view.args, view.kwargs, view.headers = request, (), {}, {}
        view.format_kwarg = None
        body = {"success": True, "data": balance_data}
        view.finalize_response(request, Response(body)).render()

    measured = [
        ("bare view, the whole request (GET /bench/bare)", bare),
        ("balance, the whole request (GET /api/v1/wallet/balance)", balance),
        ("its Redis command (key generation + rate-limit window, one EVALSHA)", redis_command),
        ("its key from the process cache (hash, entry, its ApiKey and Team)", key_from_cache),
        ("its PostgreSQL query (balance and pending holds, prepared)", query),
        ("its DRF Request and Response: negotiation, headers, orjson rendering", response),
    ]
    lines = [
        "## GET /api/v1/wallet/balance: its parts alone",
        "",
        "| part | CPU µs per call |",
        "|---|---:|",
    ]
    for title, run in measured:
        lines.append(f"| {title} | {cpu_per_request_us(run, n):,.0f} |")
    return "\n".join(lines) + "\n"


def search_parts(team, search, search_body: bytes, n: int) -> str:
    """The search's stages, each run alone on the same sandbox answer (CPU µs per call, the
    median of five batches), beside the whole request and a bare view returning its bytes."""
    import orjson
    from django.utils import timezone

    from agencies.authentication import api_key_for_secret
    from agencies.pricing import fx_quote, price_offer, team_fx_margin_percent
    from core.ids import new_id, sibling_id
    from flights import packing, payloads
    from flights.apis import FlightSearchApi
    from flights.fx import rate_provider
    from flights.models import OfferRequest
    from flights.suppliers import supplier_for
    from tests.kit.wsgi import wsgi_call

    key = api_key_for_secret(team.test_key)
    assert key is not None
    serializer = FlightSearchApi.InputSerializer(data=orjson.loads(search_body))
    serializer.is_valid(raise_exception=True)
    request = serializer.validated_data
    supplier = supplier_for(team=key.team, live_mode=False)
    offers = supplier.search(request)
    currency = offers[0].total_currency
    rate = fx_quote(
        currency=currency,
        reference_rate=rate_provider().rate(currency),
        margin_percent=team_fx_margin_percent(key.team),
    )
    search_id = new_id("orq")
    passengers = [(new_id("pas"), kind) for kind in request.passengers]

    def pricing():
        return [
            price_offer(
                total_amount=offer.total_amount,
                total_currency=offer.total_currency,
                fx=rate,
                markup_percent=key.team.markup_percent,
                fee=key.team.fee.amount,
            )
            for offer in offers
        ], [sibling_id("off", of=search_id) for _ in offers]

    prices, ids = pricing()

    def rendering():
        renderer = payloads.OfferRenderer(passengers)
        return [
            renderer.offer(offer_id=i, offer=o, price=p)
            for i, o, p in zip(ids, offers, prices, strict=True)
        ]

    def packing_():
        packer = packing.OfferPacker()
        return [
            packer.pack(offer_id=i, offer=o, price=p)
            for i, o, p in zip(ids, offers, prices, strict=True)
        ]

    packed, answer = packing_(), {"id": search_id, "offers": rendering()}

    def storage():
        now = timezone.now()
        OfferRequest(
            id=new_id("orq"),
            team=key.team,
            live_mode=False,
            supplier=supplier.name,
            created_at=now,
            expires_at=now,
            passengers=[[pid, kind, ""] for pid, kind in passengers],
            offers=packed,
        ).save(force_insert=True)

    from django.core.handlers.wsgi import WSGIHandler

    wsgi = WSGIHandler()
    status, content = wsgi_call(
        wsgi, "POST", "/api/v1/flights/search", key=team.test_key, body=search_body
    )
    assert status.startswith("200"), status
    # The bare view's bytes (bench/http_urls.py reads the file once per process).
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as copy:
        copy.write(content)
    os.environ["BENCH_HTTP_SEARCH_BODY"] = copy.name

    def supplier_search():
        supplier.search(request)

    def validation():
        checked = FlightSearchApi.InputSerializer(data=orjson.loads(search_body))
        assert checked.is_valid()

    def bare_search():
        status, _ = wsgi_call(wsgi, "POST", "/bench/bare-search", key="", body=search_body)
        assert status.startswith("200"), status

    measured = [
        ("bare view returning the search's bytes, the whole request", bare_search, n),
        ("search, the whole request", search, max(n // 10, 1)),
        (f"the sandbox supplier's search ({len(offers)} offers)", supplier_search, n // 10 or 1),
        ("input validation (parsing and the serializer)", validation, n),
        ("pricing and offer ids", pricing, max(n // 4, 1)),
        ("rendering the offers (OfferRenderer)", rendering, max(n // 10, 1)),
        ("packing the offers (OfferPacker)", packing_, max(n // 10, 1)),
        ("storing the search (INSERT, lz4 inside)", storage, max(n // 10, 1)),
        ("orjson of the answer's offers", lambda: orjson.dumps(answer), max(n // 4, 1)),
    ]
    lines = [
        "## POST /api/v1/flights/search: its stages alone",
        "",
        "| stage | CPU µs per call |",
        "|---|---:|",
    ]
    for title, run, count in measured:
        lines.append(f"| {title} | {cpu_per_request_us(run, count):,.0f} |")
    return "\n".join(lines) + "\n"


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


def run(n: int, top: int, cpu_only: bool = False) -> str:
    import orjson
    import responses
    from django.core.handlers.wsgi import WSGIHandler

    from tests.kit.factories import fund, make_endpoint, make_team, record
    from webhooks.models import Delivery
    from webhooks.services import delivery_attempt
    from webhooks.tasks import deliver_webhook, deliver_webhooks

    team = make_team("Profiled Travel")
    fund(team.team, "1000.00")
    # Requests go straight to Django's WSGI handler, as gunicorn calls it (the test client
    # would add its own signals, copies and checks to every request).
    handler = WSGIHandler()

    def call(method: str, path: str, key: str, body: bytes = b"") -> None:
        status, content = wsgi_call(handler, method, path, key=key, body=body)
        assert status.startswith("200"), (status, content[:300])

    def balance():
        call("GET", "/api/v1/wallet/balance", team.live_key)

    search_body = orjson.dumps(SEARCH_BODY)

    def search():
        call("POST", "/api/v1/flights/search", team.test_key, search_body)

    make_endpoint(team.team, HOOK_URL)
    # Each attempt's event is recorded first (not profiled), its queue message not sent.
    deliver_webhook.delay = deliver_webhooks.delay = lambda *args, **kwargs: None
    due = []

    def new_delivery():
        event = record(team.team)
        due.append(Delivery.objects.filter(event=event).values_list("pk", flat=True).get())

    def delivery():
        attempt = delivery_attempt(due.pop())
        assert attempt is not None and attempt.succeeded, attempt and attempt.error

    def bare():
        call("GET", "/bench/bare", "")

    parts = [
        cpu_table(
            [
                ("GET /bench/bare (bare Django JSON view)", bare, n),
                ("GET /api/v1/wallet/balance (live key)", balance, n),
                ("POST /api/v1/flights/search (sandbox)", search, max(n // 4, 1)),
            ]
        )
    ]
    parts.append(balance_parts(team, bare, balance, n))
    parts.append(search_parts(team, search, search_body, n))
    if cpu_only:
        return "\n".join(parts)
    parts.append(section("GET /api/v1/wallet/balance (live key)", balance, n, top))
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
    parser.add_argument("--cpu-only", action="store_true", help="only the CPU per request")
    args = parser.parse_args()
    env = {
        "API_RATE_LIMIT": "1000000/minute",
        "API_SEARCH_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DJANGO_SETTINGS_MODULE": "bench.http_settings",  # production's, plus the bare view
    }
    with scratch_django("hotpaths", env):
        print(run(args.requests, args.top, args.cpu_only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
