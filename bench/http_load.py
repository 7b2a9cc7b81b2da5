"""HTTP requests per second and client-side latency of the API served by gunicorn as production
serves it, against a bare Django view served by the same server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/http_load.py [--seconds 10] [--clients N]

In a scratch database (created, migrated, dropped, as bench/harness.py does) and a scratch
Redis database (BENCH_REDIS_URL, default redis://127.0.0.1:6379/12: cache and rate-limit
counters; flushed before and after). One team (`make_team`), its live wallet funded with 1000
BRL. The server: gunicorn as production runs it, `gunicorn -c python:config.gunicorn config.wsgi`
(config/gunicorn.py: gthread, WEB_CONCURRENCY workers or one per core, GUNICORN_THREADS threads
each, its access log), settings `config.settings.production` plus two bare views
(bench/http_settings.py, bench/http_urls.py) in the same server, API_RATE_LIMIT raised so that
no request is throttled, on this machine.

Endpoints, each for --seconds after a warm-up (--warmup seconds); with wrk they take turns
(--rounds, default 3: bare, bare search, balance, search, then again), so that other work on a
shared machine weighs on each alike:

* baseline: GET /bench/bare, a plain Django function view returning `JsonResponse({"ok": True})`
  (no DRF, no authentication, no database; the project's middleware still runs). Every ratio
  is relative to its requests/s.
* bare search bytes: POST /bench/bare-search with the search body, a plain view returning the
  bytes of a real search response: the floor of the search (HTTP, middleware, the response size)
  without any work. The search's ratio to it is printed below the table.
* GET /api/v1/wallet/balance with the live key (`Bearer sk_live_…`).
* POST /api/v1/flights/search with the test key: sandbox round trip GRU-LIS-GRU, 1 adult,
  departure ~100 days ahead, return 14 days later.

Load (--client wrk, the default when Debian's `wrk` is installed): `wrk` with --clients
connections on one thread per core, a closed loop (each connection sends its next request as
soon as the previous one is answered). wrk is C and spends a few µs of CPU per request, so it is
not the bottleneck; its CPU per request is shown. --client python: the former load generator,
--clients spawned processes with one `requests.Session` each (about 1 ms of CPU per request,
which understates the bare view; kept for machines without wrk).
Only 2xx answers are counted in requests/s; the rest are errors. Latency is client side: from
sending the request to having read the whole response (wrk's percentiles cover every answer).
Caveat: clients, gunicorn, PostgreSQL and Redis share the machine, so the clients' CPU is taken
from the server. config/gunicorn.py sets `worker_connections` = `threads`, which leaves gthread
no room for idle kept-alive connections (gunicorn keeps at most worker_connections - threads),
so every response closes its connection ("Connection: close", printed at the start) and each
request opens a new one, whatever the client asks, as behind a proxy that does not keep its
upstream connections alive.

Memory: after the runs, the resident set (RSS) and proportional set (PSS: shared pages divided
among the processes sharing them) of every gunicorn worker, from /proc (Linux).
"""

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import (  # noqa: E402 - needs sys.path
    percentile,
    scratch_django,
    stop_process,
    wait_until_answering,
)

RESULTS_FILE = REPO / "bench" / "results" / "http.md"
START_TIMEOUT = 120  # seconds for gunicorn to answer, and for every client to be warmed up


def search_body() -> bytes:
    departure = date.today() + timedelta(days=100)
    return json.dumps(
        {
            "type": "round_trip",
            "passengers": [{"type": "adult", "count": 1}],
            "slices": [
                {"origin": "GRU", "destination": "LIS", "departureDate": departure.isoformat()},
                {
                    "origin": "LIS",
                    "destination": "GRU",
                    "departureDate": (departure + timedelta(days=14)).isoformat(),
                },
            ],
        }
    ).encode()


@dataclass
class Endpoint:
    name: str
    method: str
    path: str
    headers: dict
    body: bytes | None = None


@dataclass
class Result:
    endpoint: Endpoint
    rate: float  # 2xx answers per second, all clients together
    p50_ms: float
    p99_ms: float
    errors: int
    first_error: str
    client_cpu_ms: float  # client CPU (user + system) per answer
    # Server-side CPU µs per answer by process group, during the measured seconds (wrk only).
    server_cpu_us: dict[str, float] | None = None
    answers: int = 0  # every answer counted (2xx and errors), to weigh rounds (wrk only)
    seconds: float = 0.0  # measured (wrk only)


def merged(rounds: list[Result]) -> Result:
    """One endpoint's rounds as one result: requests/s over the rounds' seconds together, CPU
    per answer over their answers together; p50 the median of the rounds' p50s, p99 the
    highest of their p99s (wrk reports percentiles, not the latencies)."""
    answers = sum(r.answers for r in rounds)
    seconds = sum(r.seconds for r in rounds)
    groups = rounds[0].server_cpu_us or {}
    return Result(
        endpoint=rounds[0].endpoint,
        rate=sum(r.rate * r.seconds for r in rounds) / seconds,
        p50_ms=statistics.median(r.p50_ms for r in rounds),
        p99_ms=max(r.p99_ms for r in rounds),
        errors=sum(r.errors for r in rounds),
        first_error=next((r.first_error for r in rounds if r.first_error), ""),
        client_cpu_ms=sum(r.client_cpu_ms * r.answers for r in rounds) / max(1, answers),
        server_cpu_us={
            group: sum((r.server_cpu_us or {}).get(group, 0) * r.answers for r in rounds)
            / max(1, answers)
            for group in groups
        }
        or None,
        answers=answers,
        seconds=seconds,
    )


@dataclass
class WorkerMemory:
    pid: int
    rss_mb: float
    pss_mb: float | None  # None where /proc/<pid>/smaps_rollup cannot be read


# --- load generator (one spawned process per client) -----------------------------------------


def client_main(url, method, headers, body, warmup, seconds, barrier, queue):
    import requests

    session = requests.Session()  # keep-alive, if the server allows it
    session.trust_env = False  # no proxy or .netrc lookups per request: loopback only
    session.headers.update(headers)

    def send() -> tuple[bool, float, str]:
        started = time.perf_counter()
        try:
            response = session.request(method, url, data=body, timeout=30)
        except requests.RequestException as exc:
            return False, 0.0, repr(exc)
        elapsed_ms = (time.perf_counter() - started) * 1000
        if 200 <= response.status_code < 300:
            return True, elapsed_ms, ""
        return False, elapsed_ms, f"HTTP {response.status_code}: {response.text[:200]}"

    warm_until = time.monotonic() + warmup
    while time.monotonic() < warm_until:
        send()
    barrier.wait(timeout=START_TIMEOUT)

    latencies, errors, first_error = [], 0, ""
    cpu_before = sum(os.times()[:2])
    started = time.monotonic()  # CLOCK_MONOTONIC: the same clock in every process
    deadline = started + seconds
    while time.monotonic() < deadline:
        ok, elapsed_ms, error = send()
        if ok:
            latencies.append(elapsed_ms)
        else:
            errors += 1
            first_error = first_error or error
    ended = time.monotonic()
    queue.put(
        {
            "started": started,
            "ended": ended,
            "latencies": latencies,
            "errors": errors,
            "first_error": first_error,
            "cpu": sum(os.times()[:2]) - cpu_before,
        }
    )


def measure(base_url: str, endpoint: Endpoint, clients: int, warmup: float, seconds: float):
    ctx = multiprocessing.get_context("spawn")
    barrier, queue = ctx.Barrier(clients), ctx.Queue()
    args = (
        base_url + endpoint.path,
        endpoint.method,
        endpoint.headers,
        endpoint.body,
        warmup,
        seconds,
        barrier,
        queue,
    )
    processes = [ctx.Process(target=client_main, args=args) for _ in range(clients)]
    for process in processes:
        process.start()
    try:
        parts = [queue.get(timeout=START_TIMEOUT + warmup + seconds + 60) for _ in processes]
    except BaseException:  # failed or interrupted: do not wait for the clients to finish
        for process in processes:
            process.kill()
        raise
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    latencies = sorted(ms for part in parts for ms in part["latencies"])
    window = max(p["ended"] for p in parts) - min(p["started"] for p in parts)
    errors = sum(p["errors"] for p in parts)
    first_error = next((p["first_error"] for p in parts if p["first_error"]), "")
    cpu = sum(p["cpu"] for p in parts)
    return Result(
        endpoint=endpoint,
        rate=len(latencies) / window,
        p50_ms=statistics.median(latencies),
        p99_ms=percentile(latencies, 99),
        errors=errors,
        first_error=first_error,
        client_cpu_ms=cpu * 1000 / max(1, len(latencies) + errors),
    )


# --- load generator: wrk ----------------------------------------------------------------------

# wrk's Lua: the request (method, headers, body from a file) and one JSON line with the summary.
# errors.status counts answers with a status above 399 (every endpoint answers 200 before the run).
WRK_SCRIPT = """
wrk.method = "{method}"
{headers}
{body}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {{"requests": %d, "duration_us": %d, "status": %d, "connect": %d, '
    .. '"read": %d, "write": %d, "timeout": %d, "p50_us": %d, "p99_us": %d}}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"""


def wrk_script(endpoint: Endpoint, scratch_dir: Path) -> Path:
    headers = "\n".join(
        f"wrk.headers[{json.dumps(name)}] = {json.dumps(value)}"
        for name, value in endpoint.headers.items()
    )
    body = ""
    if endpoint.body is not None:
        body_file = scratch_dir / "wrk-body"
        body_file.write_bytes(endpoint.body)
        body = f'local f = io.open("{body_file}", "rb")\nwrk.body = f:read("*a")\nf:close()'
    script = scratch_dir / "wrk.lua"
    script.write_text(WRK_SCRIPT.format(method=endpoint.method, headers=headers, body=body))
    return script


def run_wrk(url: str, script: Path, connections: int, seconds: float) -> tuple[dict, float]:
    """wrk's summary, and the CPU (user + system, seconds) wrk used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    completed = subprocess.run(  # noqa: S603 - fixed argument list
        [
            shutil.which("wrk") or "wrk",
            f"--threads={min(connections, os.cpu_count() or 1)}",
            f"--connections={connections}",
            f"--duration={max(1, round(seconds))}s",
            "--timeout=30s",
            f"--script={script}",
            url,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = next(ln for ln in completed.stdout.splitlines() if ln.startswith("BENCH_JSON "))
    return json.loads(line.removeprefix("BENCH_JSON ")), cpu


def measure_wrk(
    base_url: str,
    endpoint: Endpoint,
    clients: int,
    warmup: float,
    seconds: float,
    master_pid: int | None = None,
):
    with tempfile.TemporaryDirectory() as scratch:
        script = wrk_script(endpoint, Path(scratch))
        if warmup:
            run_wrk(base_url + endpoint.path, script, clients, warmup)
        before = cpu_by_process(master_pid) if master_pid else None
        summary, cpu = run_wrk(base_url + endpoint.path, script, clients, seconds)
        server_cpu = cpu_used_since(before, cpu_by_process(master_pid)) if before else None
    socket_errors = sum(summary[k] for k in ("connect", "read", "write", "timeout"))
    errors = summary["status"] + socket_errors
    ok = summary["requests"] - summary["status"]
    first_error = ""
    if errors:
        first_error = (
            f"{summary['status']} answers above 399; socket errors: connect "
            f"{summary['connect']}, read {summary['read']}, write {summary['write']}, "
            f"timeout {summary['timeout']}"
        )
    return Result(
        endpoint=endpoint,
        rate=ok / (summary["duration_us"] / 1e6),
        p50_ms=summary["p50_us"] / 1000,
        p99_ms=summary["p99_us"] / 1000,
        errors=errors,
        first_error=first_error,
        client_cpu_ms=cpu * 1000 / max(1, summary["requests"]),
        server_cpu_us=server_cpu
        and {
            group: seconds_used * 1e6 / max(1, summary["requests"])
            for group, seconds_used in server_cpu.items()
        },
        answers=summary["requests"],
        seconds=summary["duration_us"] / 1e6,
    )


# --- CPU of the servers, by process (Linux /proc) ---------------------------------------------
#
# What each answer costs every process that serves it, not only the one that answers: the
# gunicorn workers, PostgreSQL's processes and Redis, all on the same cores as the load.

SERVER_GROUPS = {"postgres": "PostgreSQL", "redis-server": "Redis"}


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # ended meanwhile
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def cpu_by_process(master_pid: int) -> dict[tuple[str, int], float]:
    """CPU seconds used so far by each gunicorn worker and each PostgreSQL and Redis process."""
    groups: dict[int, str] = {}
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    with contextlib.suppress(OSError):
        groups.update({int(pid): "gunicorn workers" for pid in children.read_text().split()})
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                group = SERVER_GROUPS.get((entry / "comm").read_text().strip())
                if group:
                    groups[int(entry.name)] = group
    seconds = {(group, pid): _cpu_seconds(pid) for pid, group in groups.items()}
    return {key: value for key, value in seconds.items() if value is not None}


def cpu_used_since(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds per group between two snapshots (a process started meanwhile counts whole;
    one that ended is left out)."""
    used = {group: 0.0 for group in ("gunicorn workers", *SERVER_GROUPS.values())}
    for (group, pid), seconds in after.items():
        used[group] += seconds - before.get((group, pid), 0.0)
    return used


# --- memory of the workers --------------------------------------------------------------------


def worker_memory(master_pid: int) -> list[WorkerMemory]:
    """RSS and PSS of each child of gunicorn's master (its workers), from /proc."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    if not children.exists():
        return []
    workers = []
    for pid in map(int, children.read_text().split()):
        rss_kb = next(
            int(line.split()[1])
            for line in Path(f"/proc/{pid}/status").read_text().splitlines()
            if line.startswith("VmRSS:")
        )
        pss_kb = None
        rollup = Path(f"/proc/{pid}/smaps_rollup")
        with contextlib.suppress(OSError, StopIteration):  # no PSS: report RSS alone
            pss_kb = next(
                int(line.split()[1])
                for line in rollup.read_text().splitlines()
                if line.startswith("Pss:")
            )
        workers.append(WorkerMemory(pid, rss_kb / 1024, None if pss_kb is None else pss_kb / 1024))
    return workers


# --- server -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(port: int, env: dict, log_path: Path) -> subprocess.Popen:
    """gunicorn with production's configuration (config/gunicorn.py), on a local port."""
    with log_path.open("wb") as log:
        return subprocess.Popen(  # noqa: S603 - fixed argument list
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "python:config.gunicorn",
                "config.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as a whole on failure
        )


def serving_model() -> tuple[str, int, int]:
    """gunicorn's worker class, workers and threads, as config/gunicorn.py reads them from this
    environment (the server's is a copy of it)."""
    from config import gunicorn as config

    return config.worker_class, config.workers, config.threads


# --- report -----------------------------------------------------------------------------------


MEMORY_TARGET_MB = 150  # issue 17: resident memory per gunicorn worker after the bench


def report(results: list[Result], args, serving: tuple[str, int, int], memory) -> str:
    baseline = results[0].rate
    rows = []
    for r in results:
        rows.append(
            f"| {r.endpoint.name} | {r.rate:,.0f} | {r.p50_ms:.2f} | {r.p99_ms:.2f} "
            f"| {r.rate / baseline:.2f} | {r.errors} | {r.client_cpu_ms:.3f} |"
        )
    by_path = {r.endpoint.path: r for r in results}
    search, floor = by_path["/api/v1/flights/search"], by_path["/bench/bare-search"]
    problems = [f"- {r.endpoint.name}: {r.first_error}" for r in results if r.errors]
    client = (
        f"wrk, {args.clients} connections on {min(args.clients, os.cpu_count() or 1)} threads"
        if args.client == "wrk"
        else f"{args.clients} closed-loop client processes (requests.Session)"
    )
    lines = [
        f"gunicorn as production runs it (`-c python:config.gunicorn`): {serving[1]} "
        f"{serving[0]} workers × {serving[2]} threads, `config.settings.production`, the API "
        f"and the bare views in the same server, PostgreSQL + Redis; {client}, "
        f"{args.seconds:g} s per endpoint"
        + (f" in {args.rounds} rounds taking turns" if args.client == "wrk" else "")
        + f" after {args.warmup:g} s of warm-up; all on this machine "
        f"({platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}), "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; load average before the run "
        f"{args.load_before:.2f}.",
        "",
        "| endpoint | requests/s | p50 ms | p99 ms | ratio vs bare view | errors "
        "| client CPU ms/req |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        f"Search vs the bare view returning the same response bytes: "
        f"{search.rate / floor.rate:.2f} of its requests/s, p50 "
        f"{search.p50_ms / floor.p50_ms:.1f} ×.",
        "Only 2xx answers are counted; latency is client side (request sent → response read).",
        "The clients' CPU is taken from the same cores as the server's.",
    ]
    lines += cpu_table(results)
    if memory:
        largest = max(w.rss_mb for w in memory)
        lines += [
            "",
            "Memory of each gunicorn worker after the runs (RSS counts the pages it shares "
            "with the master and the other workers in full; PSS divides them):",
            "",
            "| worker pid | RSS MB | PSS MB |",
            "|---|---:|---:|",
            *(
                f"| {w.pid} | {w.rss_mb:.1f} | {'n/a' if w.pss_mb is None else f'{w.pss_mb:.1f}'} |"
                for w in memory
            ),
            "",
            f"Largest worker RSS {largest:.1f} MB; target ≤ {MEMORY_TARGET_MB} MB: "
            f"{'met' if largest <= MEMORY_TARGET_MB else 'MISSED'}.",
        ]
    if problems:
        lines += ["", "First error per endpoint:", *problems]
    return "\n".join(lines)


def cpu_table(results: list[Result]) -> list[str]:
    """Where each answer's CPU went: what bounds a ratio when nothing waits."""
    measured = [r for r in results if r.server_cpu_us]
    if not measured:
        return []
    groups = ["gunicorn workers", *SERVER_GROUPS.values()]
    lines = [
        "",
        "CPU per answer, by process, during the measured seconds (user + system, from /proc; "
        "the load generator's from its own usage):",
        "",
        "| endpoint | " + " | ".join(f"{g} µs" for g in groups) + " | load generator µs "
        "| total µs | × bare view's total |",
        "|---|" + "---:|" * (len(groups) + 3),
    ]
    baseline = None
    for r in measured:
        cpu = r.server_cpu_us or {}
        total = sum(cpu.values()) + r.client_cpu_ms * 1000
        baseline = baseline or total
        cells = " | ".join(f"{cpu.get(g, 0):,.0f}" for g in groups)
        lines.append(
            f"| {r.endpoint.name} | {cells} | {r.client_cpu_ms * 1000:,.0f} | {total:,.0f} "
            f"| {total / baseline:.2f} |"
        )
    return lines


# --- main -------------------------------------------------------------------------------------


def main() -> int:
    cores = os.cpu_count() or 1
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="per endpoint (default 10)")
    parser.add_argument(
        "--clients", type=int, default=2 * cores, help=f"concurrent clients (default {2 * cores})"
    )
    parser.add_argument("--warmup", type=float, default=2, help="seconds (default 2)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="wrk: the endpoints take turns this many times, --seconds split between them "
        "(default 3)",
    )
    parser.add_argument(
        "--client",
        choices=("wrk", "python"),
        default="wrk" if shutil.which("wrk") else "python",
        help="load generator (default: wrk when installed)",
    )
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]  # other work on the machine skews every figure
    # Ctrl-C raises KeyboardInterrupt; make SIGTERM unwind the same way, through the finally.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    import requests

    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    env = {
        "REDIS_URL": redis_url,
        "API_RATE_LIMIT": "1000000/minute",
        "API_SEARCH_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "EMAIL_URL": "dummymail://",
        # Production settings are secure by default; this bench serves plain HTTP on localhost.
        "DJANGO_BEHIND_TLS_PROXY": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_HSTS_SECONDS": "0",
    }
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch_dir, scratch_django("http", env):
        from django.core.cache import cache
        from django.db import connections

        from tests.kit.factories import fund, make_team

        cache.clear()  # FLUSHDB of the scratch Redis database
        team = make_team("Bench HTTP")
        fund(team.team, "1000.00")
        connections.close_all()  # no idle connection of ours during the runs

        body_path = Path(scratch_dir) / "search.json"
        log_path = Path(scratch_dir) / "gunicorn.log"
        server_env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "bench.http_settings",
            "BENCH_HTTP_SEARCH_BODY": str(body_path),
        }
        server = None
        try:
            serving = serving_model()
            server = start_gunicorn(port, server_env, log_path)
            wait_until_answering(
                f"{base_url}/health",
                server,
                log_path,
                timeout=START_TIMEOUT,
                answered=lambda response: response.status_code == 200,
            )
            json_headers = {"Content-Type": "application/json"}
            body = search_body()
            live = {"Authorization": f"Bearer {team.live_key}"}
            test = {"Authorization": f"Bearer {team.test_key}", **json_headers}
            # Check every endpoint answers 200 before measuring; keep the search's answer.
            first = requests.post(
                f"{base_url}/api/v1/flights/search", data=body, headers=test, timeout=30
            )
            assert first.status_code == 200, (first.status_code, first.text[:500])
            offers = len(first.json()["offers"])
            body_path.write_bytes(first.content)
            endpoints = [
                Endpoint("baseline: bare Django JSON view", "GET", "/bench/bare", {}),
                Endpoint(
                    f"bare view returning the search bytes ({len(first.content) // 1024} KiB)",
                    "POST",
                    "/bench/bare-search",
                    json_headers,
                    body,
                ),
                Endpoint(
                    "GET /api/v1/wallet/balance (live key)", "GET", "/api/v1/wallet/balance", live
                ),
                Endpoint(
                    f"POST /api/v1/flights/search (test key, {offers} offers)",
                    "POST",
                    "/api/v1/flights/search",
                    test,
                    body,
                ),
            ]
            for endpoint in endpoints:
                check = requests.request(
                    endpoint.method,
                    base_url + endpoint.path,
                    data=endpoint.body,
                    headers=endpoint.headers,
                    timeout=30,
                )
                answer = (endpoint.path, check.status_code, check.text[:500])
                assert check.status_code == 200, answer
            print(
                f"gunicorn on {base_url}, {serving[1]} {serving[0]} workers × {serving[2]} "
                f"threads; connection header of a response: "
                f"{check.headers.get('Connection', '(none)')}",
                flush=True,
            )

            # wrk: the endpoints take turns, --rounds times, so that whatever else the machine
            # runs meanwhile weighs on each of them alike, and the ratios compare like with like.
            rounds = args.rounds if args.client == "wrk" else 1
            measured: dict[str, list[Result]] = {endpoint.path: [] for endpoint in endpoints}
            for turn in range(rounds):
                for endpoint in endpoints:
                    seconds = args.seconds / rounds
                    print(
                        f"{endpoint.name}: {args.clients} clients, {seconds:g} s "
                        f"(round {turn + 1} of {rounds}) ...",
                        flush=True,
                    )
                    warmup = args.warmup if turn == 0 else 0
                    if args.client == "wrk":
                        result = measure_wrk(
                            base_url, endpoint, args.clients, warmup, seconds, server.pid
                        )
                    else:
                        result = measure(base_url, endpoint, args.clients, warmup, seconds)
                    print(f"  {result.rate:,.0f} requests/s, {result.errors} errors", flush=True)
                    measured[endpoint.path].append(result)
            results = [
                merged(measured[e.path]) if rounds > 1 else measured[e.path][0] for e in endpoints
            ]
            memory = worker_memory(server.pid)
        finally:
            if server is not None:
                stop_process(server)
            cache.clear()
    text = report(results, args, serving, memory)
    print()
    print(text)
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(text + "\n")
    print(f"\nwritten to {RESULTS_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
