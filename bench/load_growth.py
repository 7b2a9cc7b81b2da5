"""How wallet debits and instant bookings grow with load: 1, 8 and 32 clients, on ONE hot
wallet and spread over 100 wallets (100 teams, many agencies at once).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/load_growth.py [--quick] [--clients 1,8,32] [--wallets 1,100]
        [--seconds 5] [--bookings 96]

In a scratch database `bench_growth_<pid>` (created, migrated, dropped also on failure) and a
scratch Redis database (BENCH_REDIS_URL, default redis://127.0.0.1:6379/12, cleared at the end).
One pool of client processes (spawned, each with its own django.setup(), as gunicorn workers)
serves every configuration; a configuration with N clients uses N of them, started together.

* Debits: for --seconds, each client calls `wallet.services.wallet_debit` on the hot wallet
  (1 wallet) or on a wallet picked at random per debit (100 wallets). Baseline in the same run,
  same shape: raw pgbench `-M simple` with N clients replaying the statements of one debit
  (bench/wallet_debits.py), on the one wallet or on a wallet picked at random per transaction
  (one script file per wallet, pgbench picks one per transaction). Ratio = ours / pgbench.
* Bookings: --bookings instant bookings per configuration, shared among the N clients, each a
  real POST /api/v1/bookings through Django's full stack on the sandbox supplier, on the one
  wallet or round-robin over the 100 (offers searched beforehand, untimed).

After every run the ledger is checked: the balances of the wallets used dropped by exactly the
debits written, movement counts match the rows, every acknowledged debit or booking has its
ledger row, and `ledger_problems()` (what check_ledger runs) is empty. Exit status 1 otherwise.
`--quick` (for the test suite): 1 and 2 clients, 1 and 3 wallets, 1 s, 4 bookings.
"""

import argparse
import contextlib
import math
import multiprocessing
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.harness import (  # noqa: E402 - needs sys.path
    DJANGO_ENV,
    collect_offers,
    create_database,
    drop_database,
    percentile,
    scratch_urls,
)
from bench.wallet_debits import (  # noqa: E402 - needs sys.path
    AMOUNT,
    FUNDING,
    WARMUP_DEBITS,
    find_pgbench,
    pgbench_script,
)
from tests.kit.passengers import passenger  # noqa: E402 - needs sys.path

RESULTS_DIR = REPO / "bench" / "results"
RESULTS_FILE = RESULTS_DIR / "load_growth.md"
START_TIMEOUT = 300  # seconds for every client of a run to be ready (a loaded machine is slow)


@dataclass
class Run:
    kind: str  # "debits" or "bookings"
    clients: int
    wallets: int
    rate: float = 0.0
    latencies_ms: list = field(default_factory=list)
    acknowledged: int = 0
    errors: int = 0
    first_error: str = ""
    baseline_rate: float | None = None  # raw pgbench, same shape, same run (debits only)
    lost_updates: int = 0
    problems: list = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        return self.rate / self.baseline_rate if self.baseline_rate else None


# --- the client processes -----------------------------------------------------------------------


def worker_main(index: int, env: dict, commands, results) -> None:
    """A client process: set up Django once, then run the jobs the parent sends until None.
    Each job: prepare (warm up), report ready, wait for the common start, run, report, close the
    connection (no idle connection of ours while pgbench runs)."""
    os.environ.update(env)
    try:
        import django

        django.setup()
    except BaseException as exc:
        results.put((index, f"{type(exc).__name__}: {exc}"))
        return
    from django.db import connection

    results.put((index, "up"))
    while True:
        job = commands.get()
        if job is None:
            return
        try:
            run = debit_job if job["kind"] == "debits" else booking_job
            results.put((index, run(job, lambda: _wait_go(index, commands, results))))
        except SystemExit:
            return
        except BaseException as exc:
            results.put((index, f"{type(exc).__name__}: {exc}"))
        finally:
            with contextlib.suppress(Exception):
                connection.close()


def _wait_go(index, commands, results) -> tuple[float, float]:
    results.put((index, "ready"))
    go = commands.get()
    if go is None:  # the parent is closing the pool
        raise SystemExit(0)
    start_at, deadline = go
    time.sleep(max(0.0, start_at - time.monotonic()))  # CLOCK_MONOTONIC: shared by processes
    return start_at, deadline


def debit_job(job: dict, wait_go) -> dict:
    from agencies.models import Team
    from wallet.services import wallet_debit

    teams = list(Team.objects.filter(pk__in=job["team_ids"]))
    pick = random.Random(job["tag"]).choice

    def debit(reference_id):
        wallet_debit(
            team=pick(teams),
            live_mode=True,
            amount=AMOUNT,
            reference_type="booking",
            reference_id=reference_id,
            description="bench debit",
        )

    for i in range(WARMUP_DEBITS):
        debit(f"{job['tag']}-w{i}")
    _, deadline = wait_go()
    return _timed_loop(debit, job["tag"], lambda i: time.monotonic() < deadline, WARMUP_DEBITS)


def booking_job(job: dict, wait_go) -> dict:
    from django.test import Client

    clients = {key: Client(HTTP_AUTHORIZATION=f"Bearer {key}") for key, _ in job["offers"]}
    offers = iter(job["offers"])

    def book(_reference):
        key, offer = next(offers)
        response = clients[key].post(
            "/api/v1/bookings",
            {
                "offerId": offer["id"],
                "type": "instant",
                "passengers": [passenger(offer["passenger_id"])],
                "payments": [
                    {"type": "balance", "amount": offer["amount"], "currency": offer["currency"]}
                ],
            },
            content_type="application/json",
        )
        if response.status_code != 201:
            raise RuntimeError(f"booking answered {response.status_code}: {response.content!r}")

    for client in clients.values():  # warm up the request path, untimed (writes nothing)
        client.get("/api/v1/wallet/balance")
    wait_go()
    count = len(job["offers"])
    return _timed_loop(book, job["tag"], lambda i: i <= count, 0)


def _timed_loop(action, tag, more, warmup: int) -> dict:
    ok = errors = 0
    first_error = ""
    latencies = []
    start = time.monotonic()
    i = 0
    while more(i + 1):
        i += 1
        t0 = time.perf_counter()
        try:
            action(f"{tag}-{i}")
        except Exception as exc:
            errors += 1
            first_error = first_error or repr(exc)[:300]
            continue
        latencies.append((time.perf_counter() - t0) * 1000)
        ok += 1
    return {
        "ok": ok,
        "acknowledged": ok + warmup,
        "errors": errors,
        "first_error": first_error,
        "latencies": latencies,
        "start": start,
        "end": time.monotonic(),
    }


class Pool:
    """`size` spawned client processes kept for the whole bench (spawn, not fork: a forked child
    would inherit the parent's open connection)."""

    def __init__(self, size: int, env: dict):
        ctx = multiprocessing.get_context("spawn")
        self.results = ctx.Queue()
        self.commands = [ctx.Queue() for _ in range(size)]
        self.procs = [
            ctx.Process(target=worker_main, args=(i, env, self.commands[i], self.results))
            for i in range(size)
        ]
        for proc in self.procs:
            proc.start()
        # Every client set up before the first run: a client still importing Django would take
        # CPU from the run being measured.
        for _ in range(size):
            _, message = self.results.get(timeout=START_TIMEOUT)
            if message != "up":
                raise RuntimeError(f"a client process failed to start: {message}")

    def run(self, jobs: list[dict], seconds: float | None) -> list[dict]:
        """Give jobs[i] to client i, start them together once all are ready, gather results."""
        for i, job in enumerate(jobs):
            self.commands[i].put(job)
        ready = 0
        outcomes = {}
        while ready < len(jobs):
            index, message = self.results.get(timeout=START_TIMEOUT)
            if message == "ready":
                ready += 1
            else:  # failed before it was ready
                outcomes[index] = message
                ready += 1
        start_at = time.monotonic() + 0.2
        deadline = start_at + (seconds or 0)
        for i in range(len(jobs)):
            if i not in outcomes:
                self.commands[i].put((start_at, deadline))
        while len(outcomes) < len(jobs):
            index, message = self.results.get(timeout=(seconds or 0) + START_TIMEOUT)
            outcomes[index] = message
        failed = [m for m in outcomes.values() if not isinstance(m, dict)]
        if failed:
            raise RuntimeError(f"a client process failed: {failed[0]}")
        return list(outcomes.values())

    def close(self) -> None:
        for queue in self.commands:
            with contextlib.suppress(Exception):
                queue.put(None)
        for proc in self.procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=10)


def combine(run: Run, parts: list[dict]) -> None:
    ok = sum(p["ok"] for p in parts)
    elapsed = max(p["end"] for p in parts) - min(p["start"] for p in parts)
    run.rate = ok / elapsed if elapsed > 0 else 0.0
    run.latencies_ms = sorted(x for p in parts for x in p["latencies"])
    run.acknowledged = sum(p["acknowledged"] for p in parts)
    run.errors = sum(p["errors"] for p in parts)
    run.first_error = next((p["first_error"] for p in parts if p["first_error"]), "")


# --- the parent: set up, snapshots, checks --------------------------------------------------------


def setup_teams(count: int) -> list[tuple[str, str]]:
    """`count` teams as create_team makes them, each live wallet funded. (team id, live key)."""
    from tests.kit.factories import fund, make_team

    teams = []
    for n in range(count):
        made = make_team(f"Bench agency {n}")
        fund(made.team, str(FUNDING), reference_id=f"bench-funding-{n}")
        teams.append((made.team.pk, made.live_key))
    return teams


def search_offers(key: str, count: int, day: int = 10) -> list[dict]:
    from django.test import Client

    client = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
    return [
        {
            "id": o["id"],
            "passenger_id": o["passengers"][0]["id"],
            "amount": o["total_amount"],
            "currency": o["total_currency"],
        }
        for o in collect_offers(client, count, day)
    ]


def snapshot(team_ids: list[str]) -> dict:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(balance), 0), coalesce(sum(movement_count), 0) "
            "FROM wallet_wallet WHERE team_id = ANY(%s)",
            [team_ids],
        )
        balance, movements = cursor.fetchone()
        cursor.execute(
            "SELECT count(*), coalesce(sum(amount) FILTER (WHERE type = 'debit'), 0), "
            "count(*) FILTER (WHERE type = 'debit') "
            "FROM wallet_transaction WHERE team_id = ANY(%s) AND live_mode",
            [team_ids],
        )
        rows, debit_sum, debits = cursor.fetchone()
    return {
        "balance": balance,
        "movements": movements,
        "rows": rows,
        "debit_sum": debit_sum,
        "debits": debits,
    }


def check(run: Run, before: dict, after: dict) -> None:
    """Lost updates: the largest gap between balance drop and debits written (in debits of the
    smallest amount), ledger rows and movement_count, acknowledged and debit rows."""
    from wallet.ledger_check import ledger_problems

    drop = before["balance"] - after["balance"]
    debit_sum = after["debit_sum"] - before["debit_sum"]
    run.lost_updates = max(
        math.ceil(abs(debit_sum - drop) / Decimal("0.01")),
        abs((after["rows"] - before["rows"]) - (after["movements"] - before["movements"])),
        abs(run.acknowledged - (after["debits"] - before["debits"])),
    )
    run.problems = ledger_problems()


def settle() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) wallet_wallet, wallet_transaction, webhooks_event")
        with contextlib.suppress(Exception):  # CHECKPOINT needs superuser or pg_checkpoint
            cursor.execute("CHECKPOINT")


def pgbench_spread(pgbench, scratch_url, team_ids, clients, seconds, tag, workdir) -> float:
    """Raw pgbench (bench/wallet_debits.py's debit statements, `-M simple`) with one script file
    per wallet: pgbench picks one per transaction (equal weights), so with one wallet it is that
    bench's baseline and with many the same statements on a wallet picked at random. Returns
    transactions per second."""
    url = urlsplit(scratch_url)
    cmd = [pgbench, "-n", "-M", "simple", "-c", str(clients), "-j", str(clients)]
    cmd += ["-T", str(seconds), "-D", f"amt={AMOUNT}", "-D", f"tag=g{tag}"]
    for n, team_id in enumerate(team_ids):
        script = workdir / f"spread_{tag}_{n}.sql"
        # team ids are our own generated identifiers (letters, digits, underscore)
        script.write_text(pgbench_script(False).replace(":team", team_id))
        cmd += ["-f", f"{script}@1"]
    cmd += ["-h", url.hostname or "127.0.0.1", "-p", str(url.port or 5432)]
    cmd += ["-U", unquote(url.username or "postgres"), unquote(url.path.lstrip("/"))]
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = unquote(url.password)
    proc = subprocess.run(  # noqa: S603 - fixed argument list, no shell
        cmd, capture_output=True, text=True, env=env, timeout=seconds + 120, check=False
    )
    output = proc.stdout + proc.stderr
    tps = re.search(r"^tps = ([\d.]+) \(without initial connection time\)", output, re.M)
    if proc.returncode != 0 or not tps:
        raise RuntimeError(f"pgbench failed (exit {proc.returncode}):\n{output[-3000:]}")
    return float(tps.group(1))


# --- report -----------------------------------------------------------------------------------


def report(runs: list[Run], args, server_version: str) -> str:
    load = os.getloadavg()
    lines = [
        "# How debits and bookings grow with load",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.node()} · {os.cpu_count()} CPUs · "
        f"{server_version} · Python {platform.python_version()} · load average at the end "
        f"{load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1 / 5 / 15 min) · debits: "
        f"{args.seconds} s per run · bookings: {args.bookings} per run · clients are spawned "
        "processes (one interpreter each, as gunicorn workers), on the same machine as PostgreSQL",
        "",
    ]
    if load[1] > (os.cpu_count() or 1):
        lines += [
            f"**Measured on a loaded machine** (5-minute load average {load[1]:.1f} on "
            f"{os.cpu_count()} CPUs: other work shared the cores): absolute figures are low and "
            "noisy; the ratios against pgbench of the same run move less. Rerun `bin/bench` on "
            "an idle machine.",
            "",
        ]
    lines += [
        "| figure | clients | wallets | per second | p50 ms | p99 ms | raw pgbench /s "
        "| ratio | lost updates | check_ledger |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for run in runs:
        baseline = f"{run.baseline_rate:,.0f}" if run.baseline_rate else "n/a"
        ratio = f"{run.ratio:.2f}" if run.ratio is not None else "n/a"
        lines.append(
            f"| {run.kind} | {run.clients} | {run.wallets} | {run.rate:,.1f} "
            f"| {percentile(run.latencies_ms, 50):.1f} | {percentile(run.latencies_ms, 99):.1f} "
            f"| {baseline} | {ratio} | {run.lost_updates} "
            f"| {'ok' if not run.problems else f'{len(run.problems)} problems'} |"
        )
    errors = [r for r in runs if r.errors]
    lines += [""]
    for run in errors:
        lines.append(
            f"- {run.kind}, {run.clients} clients, {run.wallets} wallets: {run.errors} errors "
            f"(first: {run.first_error})"
        )
    lines += growth(runs)
    return "\n".join(lines) + "\n"


def growth(runs: list[Run]) -> list[str]:
    """One sentence per figure and wallet count: how the rate grows from the fewest clients to
    the most, and against pgbench."""
    out = ["", "How each figure grows:", ""]
    keys = sorted({(r.kind, r.wallets) for r in runs})
    for kind, wallets in keys:
        series = sorted(
            (r for r in runs if (r.kind, r.wallets) == (kind, wallets)), key=lambda r: r.clients
        )
        if len(series) < 2:
            continue
        first, last = series[0], series[-1]
        factor = last.rate / first.rate if first.rate else float("nan")
        peak = max(series, key=lambda r: r.rate)
        steps = " → ".join(f"{r.rate:,.1f}" for r in series)
        text = (
            f"- **{kind}, {wallets} wallet{'s' if wallets > 1 else ''}**: {steps} per second "
            f"with {' / '.join(str(r.clients) for r in series)} clients "
            f"({factor:.1f} × from {first.clients} to {last.clients}"
            + (f", highest with {peak.clients}" if peak is not last else "")
            + ")"
        )
        if last.baseline_rate and first.baseline_rate:
            text += (
                f"; raw pgbench {first.baseline_rate:,.0f} → {last.baseline_rate:,.0f} "
                f"({last.baseline_rate / first.baseline_rate:.1f} ×), ratio "
                f"{first.ratio:.2f} → {last.ratio:.2f}"
            )
        out.append(text + ". " + BOUNDS[(kind, wallets == 1)])
    return out


BOUNDS = {
    ("debits", True): "Bound: the wallet's row lock. Every debit of one wallet waits for the "
    "previous one's COMMIT, so past a few clients more of them only queue (p50 and p99 grow) "
    "and, with more clients than cores, their CPU slows the lock holder down; pgbench meets "
    "the same lock with a client that costs next to nothing.",
    ("debits", False): "Bound: CPU. No shared row, so pgbench grows with clients until the "
    "cores (and the WAL flush of each COMMIT) are busy; ours stops earlier, at the Python CPU "
    "per debit in the client processes, which share the cores with PostgreSQL: the ratio "
    "falls as clients are added.",
    ("bookings", True): "Bound: CPU first, then the wallet. A booking holds the wallet's row "
    "lock only from its debit to the COMMIT of its short claim transaction (the bookings "
    "section gives that share); the rest is Python work per request (validation, the sandbox "
    "issuing tickets, events, e-mail rows) on the cores PostgreSQL also uses, so more clients "
    "than cores only lengthen each booking.",
    ("bookings", False): "Bound: CPU, the Python work per request in each client process on "
    "the cores PostgreSQL also uses; no row is shared between agencies.",
}


# --- main -------------------------------------------------------------------------------------


def _ints(text: str) -> list[int]:
    return sorted({int(x) for x in text.split(",") if x.strip()})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1,8,32", help="client counts (default 1,8,32)")
    parser.add_argument("--wallets", default="1,100", help="wallet counts (default 1,100)")
    parser.add_argument("--seconds", type=int, default=5, help="per debit run (default 5)")
    parser.add_argument("--bookings", type=int, default=96, help="per booking run (default 96)")
    parser.add_argument("--figures", default="debits,bookings", help="debits, bookings or both")
    parser.add_argument("--quick", action="store_true", help="1,2 clients; 1,3 wallets; 1 s; 4")
    args = parser.parse_args()
    if args.quick:
        args.clients, args.wallets, args.seconds, args.bookings = "1,2", "1,3", 1, 4
    clients, wallets = _ints(args.clients), _ints(args.wallets)
    figures = [f.strip() for f in args.figures.split(",") if f.strip()]
    admin_url = os.environ.get("DATABASE_URL", "")
    if not admin_url:
        parser.error("set DATABASE_URL=postgres://user@host:port/<an existing database>")
    pgbench = find_pgbench()
    scratch, scratch_url = scratch_urls(admin_url, "growth")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    env = {
        **DJANGO_ENV,
        "DATABASE_URL": scratch_url,
        "API_RATE_LIMIT": "1000000/minute",
        # 32 clients of one team book at once: throughput as clients grow, not the per-team cap
        # of requests waiting on the supplier (16, which would refuse half of them by design).
        "API_SUPPLIER_CONCURRENCY": "0",
        "API_SEARCH_RATE_LIMIT": "1000000/minute",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        # E-mail tasks are queued to Redis for a worker, as in production.
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12"),
        "EMAIL_URL": "dummymail://",
        "FLIGHTS_LIVE_SANDBOX": "true",  # the live key books the sandbox
    }
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix=".tmp-", dir=RESULTS_DIR))
    create_database(admin_url, scratch)
    print(f"scratch database {scratch} created", flush=True)
    pool = None
    try:
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection, connections

        from wallet.ledger_check import ledger_problems

        call_command("migrate", verbosity=0, interactive=False)
        teams = setup_teams(max(wallets))
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            server_version = f"PostgreSQL {cursor.fetchone()[0].split()[0]}"
        print(f"{len(teams)} teams funded; starting {max(clients)} client processes", flush=True)
        pool = Pool(max(clients), env)
        runs = []
        tag = 0
        if "debits" in figures:
            for wallet_count in wallets:
                team_ids = [t for t, _ in teams[:wallet_count]]
                for n in clients:
                    tag += 1
                    run = Run("debits", n, wallet_count)
                    settle()
                    before = snapshot(team_ids)
                    connections.close_all()
                    print(f"debits: {n} clients, {wallet_count} wallets ...", flush=True)
                    combine(
                        run,
                        pool.run(
                            [
                                {"kind": "debits", "team_ids": team_ids, "tag": f"d{tag}-{i}"}
                                for i in range(n)
                            ],
                            args.seconds,
                        ),
                    )
                    check(run, before, snapshot(team_ids))
                    settle()
                    connections.close_all()
                    base_before = snapshot(team_ids)
                    run.baseline_rate = pgbench_spread(
                        pgbench, scratch_url, team_ids, n, args.seconds, tag, workdir
                    )
                    base_after = snapshot(team_ids)
                    if base_after["rows"] - base_before["rows"] != (
                        base_after["movements"] - base_before["movements"]
                    ):
                        run.problems.append("pgbench run: rows and movement_count differ")
                    run.problems += ledger_problems()
                    runs.append(run)
                    print(
                        f"  {run.rate:,.1f}/s, pgbench {run.baseline_rate:,.0f}/s, "
                        f"lost {run.lost_updates}, problems {len(run.problems)}",
                        flush=True,
                    )
        if "bookings" in figures:
            for wallet_count in wallets:
                used = teams[:wallet_count]
                team_ids = [t for t, _ in used]
                # Booking j of every run goes to team j % wallet_count: search each team's offers.
                per_team = {
                    t: math.ceil(args.bookings / wallet_count) * len(clients) for t, _ in used
                }
                print(f"bookings: searching offers for {wallet_count} teams ...", flush=True)
                offers = {t: iter(search_offers(key, per_team[t])) for t, key in used}
                keys = dict(used)
                for n in clients:
                    run = Run("bookings", n, wallet_count)
                    plan = [[] for _ in range(n)]
                    for j in range(args.bookings):
                        team_id = team_ids[j % wallet_count]
                        plan[j % n].append((keys[team_id], next(offers[team_id])))
                    before = snapshot(team_ids)
                    connections.close_all()
                    print(f"bookings: {n} clients, {wallet_count} wallets ...", flush=True)
                    jobs = [
                        {"kind": "bookings", "offers": plan[i], "tag": f"b{n}-{i}"}
                        for i in range(n)
                    ]
                    combine(run, pool.run(jobs, None))
                    check(run, before, snapshot(team_ids))
                    runs.append(run)
                    print(
                        f"  {run.rate:,.1f}/s, lost {run.lost_updates}, "
                        f"problems {len(run.problems)}",
                        flush=True,
                    )
        pool.close()
        pool = None
        from django.core.cache import cache

        cache.clear()  # the scratch Redis database: queued e-mail messages and counters
        text = report(runs, args, server_version)
        print()
        print(text)
        RESULTS_FILE.write_text(text)
        print(f"written to {RESULTS_FILE.relative_to(REPO)}")
        failed = any(r.lost_updates or r.problems or r.errors for r in runs)
        return 1 if failed else 0
    finally:
        if pool is not None:
            pool.close()
        shutil.rmtree(workdir, ignore_errors=True)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        drop_database(admin_url, scratch)
        print(f"scratch database {scratch} dropped")


if __name__ == "__main__":
    sys.exit(main())
