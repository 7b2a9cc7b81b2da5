"""Wallet debits per second on ONE hot wallet: our service against the raw database limit.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/wallet_debits.py [--workers 8] [--seconds 10] [--repeat 1]

DATABASE_URL only names the server (and a database to connect to for CREATE/DROP DATABASE):
everything runs in a scratch database `bench_wallet_<pid>` that is created, migrated and
dropped again (also when the run fails or is interrupted).

Runners, all on the same wallet row, each for --seconds with --workers concurrent clients:

* raw pgbench: pgbench replaying the statements of one debit (BEGIN; the same conditional
  UPDATE ... RETURNING; the same INSERT into wallet_transaction; COMMIT). The baseline: what
  PostgreSQL on this machine allows on one hot row. Every ratio is relative to it.
* raw pgbench + event: the same plus the INSERT of the `wallet.debit` webhooks_event row, i.e.
  every statement our service sends. Not the baseline: it shows what the outbox row costs.
* ours, threads: `wallet.services.wallet_debit` in N Python threads (one connection each).
* ours, processes: the same in N processes (spawned, each with its own django.setup()): how
  gunicorn workers run it, without the GIL shared between clients. This is the headline.
* peer: django-hordak transfers: N processes calling hordak's `Account.transfer_to()` from one
  hot hordak account to another (optional: needs `pip install -e '.[bench]'`, skipped without
  it). Not the same work: hordak neither checks nor locks the source balance (bench/README.md).

After each runner the ledger is checked: balance drop == sum of the debits written, movement
count == ledger rows, every acknowledged debit has its row, and `ledger_problems()` is empty
(for hordak: its own books, see check_hordak()).
See bench/README.md for how to read the results.
"""

import argparse
import contextlib
import glob
import importlib.util
import math
import multiprocessing
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
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
    create_database,
    drop_database,
    percentile,
    scratch_urls,
)

RESULTS_DIR = REPO / "bench" / "results"
RESULTS_FILE = RESULTS_DIR / "wallet_debits.md"

AMOUNT = Decimal("1.00")  # every debit; far below the funding, so no debit is ever refused
FUNDING = Decimal("900000000.00")  # fits numeric(14, 2); stays above the low-balance threshold
WARMUP_DEBITS = 3  # per Python client, before the clock starts (pgbench connects untimed too)
START_TIMEOUT = 180  # seconds to wait for every client to be connected and warmed up

# production + mptt + hordak, only when the hordak runner runs: hordak is never in the product's
# INSTALLED_APPS.
HORDAK_SETTINGS = "bench.hordak_settings"

# The statements of one debit, as wallet/services/ledger.py sends them (psycopg 3 ClientCursor:
# parameters are merged into the text client-side). pgbench runs them with `-M simple`: the
# simple query protocol with the variables substituted into the text by pgbench, which is
# exactly what Django's default psycopg 3 connection does (client-side binding, one simple
# Query message per statement, no prepared statements). `-M extended` would add a
# Parse/Bind/Execute per statement (Django's `server_side_binding: True`, not our setting) and
# `-M prepared` would reuse server-side plans that our client never has: either would skew the
# comparison. pgbench substitutes `:name` everywhere, string literals included, so the team id
# and the reference ids are plain literals as in the SQL Django sends.
UPDATE_SQL = """\
UPDATE "wallet_wallet" SET balance = ROUND(balance - :amt, 2), last_transaction_at = now(),
    movement_count = movement_count + 1
    WHERE team_id = ':team' AND balance >= :amt RETURNING balance, movement_count \\gset
"""
INSERT_TXN_SQL = """\
INSERT INTO "wallet_transaction" ("id", "team_id", "live_mode", "type", "amount", "currency",
    "description", "reference_type", "reference_id", "balance_after", "sequence",
    "payment_method", "created_at")
    VALUES ('txn_:tag-:client_id-:r', ':team', true, 'debit', :amt, 'BRL', 'bench debit',
    'booking', ':tag-:client_id-:r', :balance, :movement_count, '', now());
"""
INSERT_EVENT_SQL = """\
INSERT INTO "webhooks_event" ("id", "team_id", "live_mode", "type", "api_version",
    "data_object", "previous_attributes", "created_at")
    VALUES ('evt_:tag-:client_id-:r', ':team', true, 'wallet.debit', '2026-11-22',
    '{"id": "txn_:tag-:client_id-:r", "type": "debit", "amount": ":amt", "currency": "BRL",
      "description": "bench debit", "reference_type": "booking",
      "reference_id": ":tag-:client_id-:r", "balance_after": ":balance",
      "created_at": "2026-01-01T00:00:00Z"}', '{}', now());
"""


def pgbench_script(with_event: bool) -> str:
    # random() over 10^15 per client: no two reference ids collide (the unique constraint
    # would abort the client); the tag (runner and round) keeps the runs apart.
    parts = ["\\set r random(1, 1000000000000000)\n", "BEGIN;\n", UPDATE_SQL, INSERT_TXN_SQL]
    if with_event:
        parts.append(INSERT_EVENT_SQL)
    parts.append("COMMIT;\n")
    return "".join(parts)


# --- results ----------------------------------------------------------------------------------


@dataclass
class Check:
    """What a run did to the ledger, and whether it adds up."""

    new_rows: int = 0  # ledger rows written during the run (warm-up included)
    movement_delta: int = 0  # wallet_wallet.movement_count increase
    debit_sum: Decimal = Decimal("0")  # sum of the debits written
    balance_drop: Decimal = Decimal("0")  # wallet balance before - after
    acknowledged: int = 0  # debits the clients saw succeed (warm-up included)
    new_events: int = 0
    problems: list = field(default_factory=list)  # ledger_problems()
    detail: str = ""  # what was checked, when it is not our wallet ledger (the hordak peer)

    @property
    def lost_updates(self) -> int:
        """Debits whose effect is missing somewhere: written to the ledger but not taken from
        the balance (or the reverse), not counted in movement_count, or acknowledged to the
        client without a ledger row. The largest of those gaps; must be 0."""
        unbalanced = math.ceil(abs(self.debit_sum - self.balance_drop) / AMOUNT)
        return max(
            unbalanced,
            abs(self.new_rows - self.movement_delta),
            abs(self.acknowledged - self.new_rows),
        )


@dataclass
class Result:
    runner: str
    rate: float  # debits per second
    latencies_ms: list
    ok: int
    acknowledged: int = 0  # debits the clients saw succeed, warm-up included
    errors: int = 0
    first_error: str = ""
    client_cpu_us: float | None = None  # client CPU per debit (Python runners)
    # Mean time from the UPDATE's result reaching the client to the COMMIT's: how long each
    # debit keeps the hot row locked as the client sees it. 1 / this bounds debits/s.
    lock_window_ms: float | None = None
    note: str = ""
    check: Check | None = None


# --- Django side ------------------------------------------------------------------------------


def setup_wallet() -> str:
    """One team with its live wallet (make_team, as create_team makes it), funded through
    wallet_credit so that the ledger starts consistent. Returns the team id."""
    from tests.kit.factories import make_team
    from wallet.services import wallet_credit

    team = make_team("Bench hot wallet").team
    wallet_credit(
        team=team,
        live_mode=True,
        amount=FUNDING,
        reference_type="recharge",
        reference_id="bench-funding",
        description="Bench funding",
        payment_method="pix",
    )
    return team.pk


def snapshot(team_id: str) -> dict:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT balance, movement_count FROM wallet_wallet WHERE team_id = %s", [team_id]
        )
        balance, movements = cursor.fetchone()
        cursor.execute(
            "SELECT count(*), coalesce(sum(amount) FILTER (WHERE type = 'debit'), 0) "
            "FROM wallet_transaction WHERE team_id = %s AND live_mode",
            [team_id],
        )
        rows, debits = cursor.fetchone()
        cursor.execute(
            "SELECT count(*) FROM webhooks_event WHERE team_id = %s AND type = 'wallet.debit'",
            [team_id],
        )
        (events,) = cursor.fetchone()
    return {
        "balance": balance,
        "movements": movements,
        "rows": rows,
        "debits": debits,
        "events": events,
    }


def check_run(before: dict, after: dict, acknowledged: int) -> Check:
    from wallet.ledger_check import ledger_problems

    return Check(
        new_rows=after["rows"] - before["rows"],
        movement_delta=after["movements"] - before["movements"],
        debit_sum=after["debits"] - before["debits"],
        balance_drop=before["balance"] - after["balance"],
        acknowledged=acknowledged,
        new_events=after["events"] - before["events"],
        problems=ledger_problems(),
    )


def settle_database(extra_tables: tuple = ()) -> None:
    """The same starting conditions for every runner: no dead row versions of the hot wallet
    left from the previous one, no checkpoint pending."""
    from django.db import connection

    tables = ", ".join(("wallet_wallet", "wallet_transaction", "webhooks_event", *extra_tables))
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM (ANALYZE) {tables}")
        with contextlib.suppress(Exception):  # CHECKPOINT needs superuser or pg_checkpoint
            cursor.execute("CHECKPOINT")


def debit_loop(team_id: str, seconds: float, ref_prefix: str, wait_start, cpu_clock) -> dict:
    """Warm up, wait for every client, then debit the hot wallet until the time is up."""
    from django.db import connection

    from agencies.models import Team
    from wallet.services import wallet_debit

    team = Team.objects.get(pk=team_id)
    locked: list[float | None] = [None]

    def mark_lock(execute, sql, params, many, context):
        # When the statement that moves the balance returns (the conditional UPDATE, or on
        # PostgreSQL the one statement that also writes the ledger and event rows), this
        # transaction holds the wallet's row lock until COMMIT: every other client waits.
        # Outside a transaction the statement commits as it ends: the lock is already released
        # when its result arrives (the window counts 0).
        result = execute(sql, params, many, context)
        if "UPDATE wallet_wallet" in sql or sql.startswith('UPDATE "wallet_wallet"'):
            locked[0] = time.perf_counter() if connection.in_atomic_block else None
        return result

    def debit(reference_id):
        wallet_debit(
            team=team,
            live_mode=True,
            amount=AMOUNT,
            reference_type="booking",
            reference_id=reference_id,
            description="bench debit",
        )

    for i in range(WARMUP_DEBITS):
        debit(f"{ref_prefix}-w{i}")
    wait_start()
    ok = errors = 0
    first_error = ""
    latencies = []
    lock_window = 0.0
    cpu_start = cpu_clock()
    start = time.monotonic()  # CLOCK_MONOTONIC: comparable across processes
    deadline = start + seconds
    i = 0
    with connection.execute_wrapper(mark_lock):
        while time.monotonic() < deadline:
            i += 1
            t0 = time.perf_counter()
            try:
                debit(f"{ref_prefix}-{i}")
            except Exception as exc:
                errors += 1
                first_error = first_error or repr(exc)
                continue
            t1 = time.perf_counter()
            latencies.append((t1 - t0) * 1000)
            if locked[0] is not None:
                lock_window += t1 - locked[0]
            ok += 1
    end = time.monotonic()
    return {
        "ok": ok,
        "acknowledged": ok + WARMUP_DEBITS,
        "errors": errors,
        "first_error": first_error,
        "latencies": latencies,
        "start": start,
        "end": end,
        "cpu": cpu_clock() - cpu_start,
        "lock_window": lock_window,
    }


def combine(runner: str, parts: list[dict], note: str) -> Result:
    ok = sum(p["ok"] for p in parts)
    elapsed = max(p["end"] for p in parts) - min(p["start"] for p in parts)
    latencies = sorted(x for p in parts for x in p["latencies"])
    errors = sum(p["errors"] for p in parts)
    return Result(
        runner=runner,
        rate=ok / elapsed if elapsed > 0 else 0.0,
        latencies_ms=latencies,
        ok=ok,
        acknowledged=sum(p["acknowledged"] for p in parts),
        errors=errors,
        first_error=next((p["first_error"] for p in parts if p["first_error"]), ""),
        client_cpu_us=(sum(p["cpu"] for p in parts) / ok * 1e6) if ok else None,
        lock_window_ms=(
            sum(p["lock_window"] for p in parts) / ok * 1000
            if ok and all(p["lock_window"] is not None for p in parts)
            else None  # the hordak peer takes no exclusive lock on its hot row
        ),
        note=note,
    )


def run_threads(team_id: str, workers: int, seconds: float, round_no: int) -> Result:
    from django.db import connection

    barrier = threading.Barrier(workers + 1)
    results: list = [None] * workers

    def target(index):
        try:
            results[index] = debit_loop(
                team_id,
                seconds,
                f"t{round_no}-{index}",
                lambda: barrier.wait(timeout=START_TIMEOUT),
                time.thread_time,
            )
        except BaseException as exc:
            results[index] = exc
            barrier.abort()
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=target, args=(i,), daemon=True) for i in range(workers)]
    for thread in threads:
        thread.start()
    with contextlib.suppress(threading.BrokenBarrierError):
        barrier.wait(timeout=START_TIMEOUT)
    for thread in threads:
        thread.join(timeout=seconds + START_TIMEOUT)
    failed = [r for r in results if not isinstance(r, dict)]
    if failed:
        raise RuntimeError(f"a thread client failed: {failed[0]!r}")
    return combine(f"ours, {workers} threads", results, "one process: the clients share the GIL")


def client_process_main(loop, tag, index, round_no, payload, seconds, env, barrier, queue):
    """A spawned client process: its own interpreter, django.setup() and connection, running
    `loop(payload, …)`: debit_loop for ours, transfer_loop for the peer (whose env names
    bench.hordak_settings)."""
    os.environ.update(env)
    try:
        import django

        django.setup()
        result = loop(
            payload,
            seconds,
            f"{tag}{round_no}-{index}",
            lambda: barrier.wait(timeout=START_TIMEOUT),
            time.process_time,
        )
        queue.put((index, result))
    except BaseException as exc:
        barrier.abort()
        queue.put((index, f"{type(exc).__name__}: {exc}"))
    finally:
        with contextlib.suppress(Exception):
            from django.db import connection

            connection.close()


def run_processes(team_id: str, workers: int, seconds: float, round_no: int, env: dict) -> Result:
    return combine(
        f"ours, {workers} processes",
        spawn_clients(debit_loop, "p", team_id, workers, seconds, round_no, env),
        "one interpreter per client, as gunicorn workers",
    )


def spawn_clients(loop, tag: str, payload, workers: int, seconds: float, round_no: int, env: dict):
    """Run `loop` (see client_process_main) in `workers` spawned processes started together;
    returns their result dicts."""
    # spawn, not fork: a forked child would inherit the parent's open connection socket.
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(workers + 1)
    queue = ctx.Queue()
    procs = [
        ctx.Process(
            target=client_process_main,
            args=(loop, tag, i, round_no, payload, seconds, env, barrier, queue),
        )
        for i in range(workers)
    ]
    try:
        for proc in procs:
            proc.start()
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=START_TIMEOUT)
        results = {}
        while len(results) < workers:
            index, result = queue.get(timeout=seconds + START_TIMEOUT)
            results[index] = result
        for proc in procs:
            proc.join(timeout=30)
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=10)
    failed = [r for r in results.values() if not isinstance(r, dict)]
    if failed:
        raise RuntimeError(f"a client process failed: {failed[0]}")
    return list(results.values())


# --- peer: django-hordak ----------------------------------------------------------------------

HORDAK_TABLES = ("hordak_account", "hordak_transaction", "hordak_leg")


def hordak_installed() -> bool:
    return importlib.util.find_spec("hordak") is not None


def setup_hordak() -> tuple[int, int]:
    """Hordak's equivalent of the hot wallet: an asset account funded with FUNDING from an
    equity account (a balanced transaction, as hordak requires), and a sink asset account that
    receives every transfer. Returns the (hot, sink) account ids."""
    from djmoney.money import Money
    from hordak.models import Account, AccountType

    funding = Account.objects.create(name="Bench funding", code="3", type=AccountType.equity)
    hot = Account.objects.create(name="Bench hot account", code="1", type=AccountType.asset)
    sink = Account.objects.create(name="Bench sink", code="2", type=AccountType.asset)
    # equity -> asset raises both balances (hordak's transfer_to() sign convention)
    funding.transfer_to(hot, Money(FUNDING, "BRL"), description="bench funding")
    return hot.pk, sink.pk


def hordak_snapshot(hot_id: int, sink_id: int) -> dict:
    from django.db import connection
    from hordak.models import Account

    # The balances as hordak computes them (its GET_BALANCE SQL function, signed by account
    # type); the leg counts and sums below are read from the table directly, to compare.
    balances = {
        account.pk: account.balance["BRL"].amount.quantize(AMOUNT)  # GET_BALANCE drops zeros
        for account in Account.objects.with_balances().filter(pk__in=[hot_id, sink_id])
    }
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM hordak_transaction")
        (transactions,) = cursor.fetchone()
        cursor.execute(
            "SELECT count(*), coalesce(sum(credit), 0) FROM hordak_leg "
            "WHERE account_id = %s AND credit IS NOT NULL",
            [hot_id],
        )
        hot_legs, hot_credited = cursor.fetchone()
    return {
        "hot": balances[hot_id],
        "sink": balances[sink_id],
        "transactions": transactions,
        "hot_legs": hot_legs,
        "hot_credited": hot_credited,
    }


def hordak_problems() -> list:
    """Hordak's books as a whole: every transaction is two legs that balance (transfer_to()
    writes exactly that), and all debits == all credits (the trial balance)."""
    from django.db import connection

    from wallet.ledger_check import LedgerProblem

    problems = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM hordak_transaction t WHERE (SELECT count(*) FROM hordak_leg l "
            "WHERE l.transaction_id = t.id) <> 2 OR (SELECT sum(coalesce(debit, 0) - "
            "coalesce(credit, 0)) FROM hordak_leg l WHERE l.transaction_id = t.id) <> 0"
        )
        (bad,) = cursor.fetchone()
        if bad:
            problems.append(LedgerProblem("hordak", f"{bad} transactions not 2 balanced legs"))
        cursor.execute("SELECT coalesce(sum(debit), 0), coalesce(sum(credit), 0) FROM hordak_leg")
        debits, credits = cursor.fetchone()
        if debits != credits:
            problems.append(LedgerProblem("hordak", f"debits {debits} != credits {credits}"))
    return problems


def check_hordak(before: dict, after: dict, acknowledged: int) -> Check:
    """The same Check as for our wallet: a hordak transaction per acknowledged transfer, a
    credit leg on the hot account per transaction, its balance down by what those legs say."""
    from wallet.ledger_check import LedgerProblem

    check = Check(
        new_rows=after["transactions"] - before["transactions"],
        movement_delta=after["hot_legs"] - before["hot_legs"],
        debit_sum=after["hot_credited"] - before["hot_credited"],
        balance_drop=before["hot"] - after["hot"],
        acknowledged=acknowledged,
        problems=hordak_problems(),
    )
    sink_rise = after["sink"] - before["sink"]
    if sink_rise != check.balance_drop:
        check.problems.append(
            LedgerProblem("hordak", f"sink +{sink_rise} != hot account -{check.balance_drop}")
        )
    check.detail = (
        f"hordak: {check.new_rows:,} transactions (incl. warm-up), {check.movement_delta:,} "
        f"legs out of the hot account for {check.debit_sum}, its balance -{check.balance_drop} "
        f"and the sink's +{sink_rise} (hordak's GET_BALANCE), {acknowledged:,} acknowledged, "
        "trial balance and 2 balanced legs per transaction checked"
    )
    return check


def transfer_loop(accounts: tuple, seconds: float, ref_prefix: str, wait_start, cpu_clock):
    """debit_loop() for the peer: warm up, wait for every client, then transfer from the hot
    hordak account to the sink until the time is up."""
    from djmoney.money import Money
    from hordak.models import Account

    hot = Account.objects.get(pk=accounts[0])
    sink = Account.objects.get(pk=accounts[1])
    amount = Money(AMOUNT, "BRL")

    def transfer(reference):
        # Hordak's public API: atomic itself (its legs only balance at COMMIT, where a deferred
        # constraint trigger checks them). The description keeps the runs' rows apart.
        hot.transfer_to(sink, amount, description=reference)

    for i in range(WARMUP_DEBITS):
        transfer(f"{ref_prefix}-w{i}")
    wait_start()
    ok = errors = 0
    first_error = ""
    latencies = []
    cpu_start = cpu_clock()
    start = time.monotonic()
    deadline = start + seconds
    i = 0
    while time.monotonic() < deadline:
        i += 1
        t0 = time.perf_counter()
        try:
            transfer(f"{ref_prefix}-{i}")
        except Exception as exc:
            errors += 1
            first_error = first_error or repr(exc)
            continue
        latencies.append((time.perf_counter() - t0) * 1000)
        ok += 1
    end = time.monotonic()
    return {
        "ok": ok,
        "acknowledged": ok + WARMUP_DEBITS,
        "errors": errors,
        "first_error": first_error,
        "latencies": latencies,
        "start": start,
        "end": end,
        "cpu": cpu_clock() - cpu_start,
        "lock_window": None,  # no statement of hordak's takes an exclusive lock on the hot row
    }


def run_hordak(accounts: tuple, workers: int, seconds: float, round_no: int, env: dict):
    return combine(
        f"peer: django-hordak transfers, {workers} processes",
        spawn_clients(transfer_loop, "h", accounts, workers, seconds, round_no, env),
        "Account.transfer_to(): INSERT transaction + 2 legs; no balance check, no row lock",
    )


# --- pgbench ----------------------------------------------------------------------------------


def find_pgbench() -> str:
    found = shutil.which("pgbench")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pgbench"), key=_version_key)
    if not candidates:
        sys.exit("pgbench not found (PATH, /usr/lib/postgresql/*/bin)")
    return candidates[-1]


def _version_key(path: str):
    match = re.search(r"/postgresql/(\d+)/", path)
    return int(match.group(1)) if match else 0


def run_pgbench(
    pgbench: str,
    scratch_url: str,
    team_id: str,
    workers: int,
    seconds: float,
    with_event: bool,
    round_no: int,
    workdir: Path,
) -> Result:
    tag = f"{'pge' if with_event else 'pgb'}{round_no}"  # keeps every round's ids apart
    script = workdir / f"debit_{tag}.sql"
    script.write_text(pgbench_script(with_event))
    log_prefix = workdir / f"log_{tag}"
    url = urlsplit(scratch_url)
    cmd = [
        pgbench,
        "-n",  # no vacuum of pgbench's own tables (there are none)
        "-M",
        "simple",  # see the comment above UPDATE_SQL
        "-c",
        str(workers),
        "-j",
        str(workers),
        "-T",
        str(seconds),
        "-f",
        str(script),
        "-D",
        f"team={team_id}",
        "-D",
        f"amt={AMOUNT}",
        "-D",
        f"tag={tag}",
        "-r",  # mean latency per statement: the lock window is INSERT(s) + COMMIT
        "-l",  # one line per transaction: its latency, for p50/p99
        f"--log-prefix={log_prefix}",
        "-h",
        url.hostname or "127.0.0.1",
        "-p",
        str(url.port or 5432),
        "-U",
        unquote(url.username or "postgres"),
        unquote(url.path.lstrip("/")),
    ]
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = unquote(url.password)
    proc = subprocess.run(  # noqa: S603 - fixed argument list, no shell
        cmd, capture_output=True, text=True, env=env, timeout=seconds + 120, check=False
    )
    output = proc.stdout + proc.stderr
    tps = re.search(r"^tps = ([\d.]+) \(without initial connection time\)", output, re.M)
    processed = re.search(r"number of transactions actually processed: (\d+)", output)
    failed = re.search(r"number of failed transactions: (\d+)", output)
    if proc.returncode != 0 or not tps or not processed:
        raise RuntimeError(f"pgbench failed (exit {proc.returncode}):\n{output}")
    latencies = []
    for log in glob.glob(f"{log_prefix}.*"):
        with open(log) as lines:
            for line in lines:
                fields = line.split()
                if len(fields) >= 3 and fields[2].isdigit():
                    latencies.append(int(fields[2]) / 1000)  # µs -> ms
    latencies.sort()
    ok = int(processed.group(1))
    # "-r" lines: "  <mean ms>  <failures>  <statement>"; after the UPDATE come the INSERT(s)
    # and the COMMIT, all run while the row lock is held.
    statement_ms = re.findall(r"^\s+([\d.]+)\s+\d+\s+(INSERT INTO|COMMIT)", output, re.M)
    return Result(
        runner="raw pgbench + event INSERT" if with_event else "raw pgbench",
        rate=float(tps.group(1)),
        latencies_ms=latencies,
        ok=ok,
        acknowledged=ok,
        errors=int(failed.group(1)) if failed else 0,
        lock_window_ms=sum(float(ms) for ms, _ in statement_ms) if statement_ms else None,
        note=(
            "every statement the service sends: the above plus the webhooks_event INSERT"
            if with_event
            else "BEGIN; UPDATE ... RETURNING; INSERT wallet_transaction; COMMIT"
        ),
    )


# --- report -----------------------------------------------------------------------------------


def report(rounds: list[list[Result]], args, server_version: str, scratch: str) -> str:
    """One table row per runner. With --repeat, debits/s, p50/p99 and the lock window are those
    of the runner's median round (all rounds in brackets), the ratio is the median of the
    per-round ratios (each against the raw pgbench of the same round), lost updates and ledger
    problems are summed over all rounds."""
    by_runner: dict[str, list[tuple[Result, float | None]]] = {}
    for results in rounds:
        baseline = next((r for r in results if r.runner == "raw pgbench"), None)
        for r in results:
            ratio = r.rate / baseline.rate if baseline and baseline.rate else None
            by_runner.setdefault(r.runner, []).append((r, ratio))
    lines = [
        "# Wallet debits on one hot wallet",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.node()} · "
        f"{os.cpu_count()} CPUs · {server_version} · Python {platform.python_version()} · "
        f"{args.workers} concurrent clients · {args.seconds} s per runner · "
        f"{len(rounds)} round(s) · debit {AMOUNT} BRL · scratch database `{scratch}` (dropped)",
        "",
        "| runner | debits/s | p50 ms | p99 ms | ratio vs raw pgbench | lost updates "
        "| check_ledger | row lock held ms |",
        "|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    summary = {}
    for runner, runs in by_runner.items():
        median_run = sorted(runs, key=lambda run: run[0].rate)[len(runs) // 2][0]
        ratios = sorted(ratio for _, ratio in runs if ratio is not None)
        ratio = ratios[len(ratios) // 2] if ratios else None
        lost = sum(r.check.lost_updates for r, _ in runs)
        problems = sum(len(r.check.problems) for r, _ in runs)
        summary[runner] = (median_run, ratio, lost, problems)
        rate = f"{median_run.rate:,.0f}"
        if len(runs) > 1:
            rate += " (" + ", ".join(f"{r.rate:,.0f}" for r, _ in runs) + ")"
        held = median_run.lock_window_ms
        lines.append(
            f"| {runner} | {rate} | {percentile(median_run.latencies_ms, 50):.2f} "
            f"| {percentile(median_run.latencies_ms, 99):.2f} "
            f"| {'n/a' if ratio is None else f'{ratio:.2f}'} | {lost} "
            f"| {'ok' if not problems else f'{problems} problems'} "
            f"| {'n/a' if held is None else f'{held:.2f}'} |"
        )
    lines += [
        "",
        "*row lock held*: mean time from the UPDATE's result reaching the client to the COMMIT's "
        "(pgbench: mean latency of the INSERTs + COMMIT); on one hot row, debits/s cannot "
        "exceed 1000 / this. Ours is 0.00 when each debit is its own transaction: the one "
        "statement commits as it ends, so the lock is held only inside the server.",
        "",
        "Per run:",
        "",
    ]
    for round_no, results in enumerate(rounds, start=1):
        for r in results:
            c = r.check
            details = [
                f"{r.ok:,} debits timed",
                f"{r.errors} errors" + (f" (first: {r.first_error})" if r.first_error else ""),
            ]
            if r.client_cpu_us is not None:
                details.append(f"client CPU {r.client_cpu_us:,.0f} µs/debit")
            details.append(
                c.detail
                or f"ledger: {c.new_rows:,} rows (incl. warm-up), movement_count +"
                f"{c.movement_delta:,}, balance -{c.balance_drop} for {c.debit_sum} of debits, "
                f"{c.acknowledged:,} acknowledged, {c.new_events:,} wallet.debit events"
            )
            details += [f"PROBLEM {p.team_id}: {p.message}" for p in c.problems[:5]]
            prefix = f"round {round_no}, " if len(rounds) > 1 else ""
            lines.append(f"- {prefix}**{r.runner}** ({r.note}): " + "; ".join(details) + ".")
    headline = next((k for k in summary if k.startswith("ours") and k.endswith("processes")), None)
    if headline and summary[headline][1] is not None:
        run, ratio, lost, problems = summary[headline]
        met = ratio >= 0.5 and lost == 0 and problems == 0
        lines += [
            "",
            f"**Headline ({headline}): {run.rate:,.0f} debits/s = {ratio:.2f} × raw pgbench, "
            f"{lost} lost updates. Target ≥ 0.5 × with zero lost updates: "
            f"{'met' if met else 'MISSED'}.**",
        ]
    return "\n".join(lines) + "\n"


# --- main -------------------------------------------------------------------------------------

RUNNERS = ("pgbench", "pgbench-event", "threads", "processes", "hordak")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--seconds", type=int, default=10, help="per runner (default 10)")
    parser.add_argument(
        "--runners",
        default=",".join(RUNNERS),
        help=f"comma-separated subset of {','.join(RUNNERS)} (default: all)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="rounds of all runners, interleaved; the table shows medians (default 1)",
    )
    parser.add_argument("--keep-db", action="store_true", help="do not drop the scratch database")
    args = parser.parse_args()
    runners = [r.strip() for r in args.runners.split(",") if r.strip()]
    unknown = set(runners) - set(RUNNERS)
    if unknown:
        parser.error(f"unknown runner(s): {', '.join(sorted(unknown))}")
    if "hordak" in runners and not hordak_installed():
        # An optional peer: the other runners still run without it.
        print("django-hordak is not installed, hordak runner skipped: pip install -e '.[bench]'")
        runners.remove("hordak")
        if not runners:
            parser.error("no runner left to run")

    admin_url = os.environ.get("DATABASE_URL", "")
    if not admin_url:
        parser.error("set DATABASE_URL=postgres://user@host:port/<an existing database>")
    pgbench = find_pgbench()
    scratch, scratch_url = scratch_urls(admin_url)

    # Ctrl-C raises KeyboardInterrupt; make SIGTERM unwind the same way, through the finally.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    env = {**DJANGO_ENV, "DATABASE_URL": scratch_url}
    # Hordak is only installed (migrated, set up, checked) in this scratch Django when its runner
    # runs; our own process clients always get the product settings.
    hordak_env = {**env, "DJANGO_SETTINGS_MODULE": HORDAK_SETTINGS}
    parent_env = hordak_env if "hordak" in runners else env
    # bench/results/ is git-ignored: a fresh clone does not have it yet.
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix=".tmp-", dir=RESULTS_DIR))
    create_database(admin_url, scratch)
    print(f"scratch database {scratch} created", flush=True)
    try:
        os.environ.update(parent_env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection, connections

        call_command("migrate", verbosity=0, interactive=False)
        team_id = setup_wallet()
        hordak_accounts = setup_hordak() if "hordak" in runners else None
        if hordak_accounts:
            print(f"hordak account {hordak_accounts[0]} funded with {FUNDING} BRL")
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            server_version = f"PostgreSQL {cursor.fetchone()[0].split()[0]}"
        print(f"team {team_id} funded with {FUNDING} BRL; runners: {', '.join(runners)}")

        rounds = []
        for round_no in range(1, args.repeat + 1):
            results = []
            for runner in runners:
                peer = runner == "hordak"
                settle_database(HORDAK_TABLES if hordak_accounts else ())
                before = hordak_snapshot(*hordak_accounts) if peer else snapshot(team_id)
                connections.close_all()  # no idle connection of ours during the run
                print(
                    f"round {round_no}/{args.repeat}: {runner} "
                    f"({args.workers} clients, {args.seconds} s) ...",
                    flush=True,
                )
                if runner in ("pgbench", "pgbench-event"):
                    result = run_pgbench(
                        pgbench,
                        scratch_url,
                        team_id,
                        args.workers,
                        args.seconds,
                        runner == "pgbench-event",
                        round_no,
                        workdir,
                    )
                elif runner == "threads":
                    result = run_threads(team_id, args.workers, args.seconds, round_no)
                elif peer:
                    result = run_hordak(
                        hordak_accounts, args.workers, args.seconds, round_no, hordak_env
                    )
                else:
                    result = run_processes(team_id, args.workers, args.seconds, round_no, env)
                if peer:
                    after = hordak_snapshot(*hordak_accounts)
                    result.check = check_hordak(before, after, result.acknowledged)
                else:
                    result.check = check_run(before, snapshot(team_id), result.acknowledged)
                print(
                    f"  {result.rate:,.0f} debits/s, lost updates {result.check.lost_updates}, "
                    f"ledger problems {len(result.check.problems)}",
                    flush=True,
                )
                results.append(result)
            rounds.append(results)

        text = report(rounds, args, server_version, scratch)
        print()
        print(text)
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        RESULTS_FILE.write_text(text)
        print(f"written to {RESULTS_FILE.relative_to(REPO)}")
        failed = any(
            r.check.lost_updates or r.check.problems for results in rounds for r in results
        )
        return 1 if failed else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if args.keep_db:
            print(f"scratch database {scratch} kept (--keep-db)")
        else:
            drop_database(admin_url, scratch)
            print(f"scratch database {scratch} dropped")


if __name__ == "__main__":
    sys.exit(main())
