"""What every benchmark under bench/ shares: a scratch PostgreSQL database (created, migrated
and dropped again, also when the run fails), Django set up on it as the web workers are, and
the percentile the reports quote."""

import contextlib
import io
import math
import os
import pstats
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

DJANGO_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DJANGO_SECRET_KEY": "bench-throwaway-key-not-a-secret",  # scratch database only
    "DJANGO_ENV_FILE": os.devnull,  # ignore the developer's .env (it could turn DEBUG on)
    "DJANGO_DEBUG": "false",  # DEBUG would record every query in connection.queries
    "LOG_LEVEL": "WARNING",
    # Production settings are secure by default; the benches talk plain HTTP on localhost.
    "DJANGO_SECURE_COOKIES": "false",
    "DJANGO_SECURE_SSL_REDIRECT": "false",
    "DJANGO_SECURE_HSTS_SECONDS": "0",
}


def percentile(sorted_values: list, p: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


# --- scratch database -------------------------------------------------------------------------


def scratch_urls(admin_url: str, kind: str = "wallet") -> tuple[str, str]:
    name = f"bench_{kind}_{os.getpid()}"
    parts = urlsplit(admin_url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit(f"DATABASE_URL must be a PostgreSQL URL, not {parts.scheme!r}")
    return name, urlunsplit(parts._replace(path=f"/{name}"))


def admin_execute(admin_url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(sql)


def create_database(admin_url: str, name: str) -> None:
    admin_execute(admin_url, f'CREATE DATABASE "{name}"')


def drop_database(admin_url: str, name: str) -> None:
    # FORCE (PostgreSQL 13+) ends any connection still open on it (a killed worker's).
    admin_execute(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def scratch_django(kind: str, extra_env: dict):
    """Django set up on a migrated scratch database `bench_<kind>_<pid>` (dropped on exit) of
    the server DATABASE_URL names, with the web workers' warm-up (config/wsgi.py)."""
    admin_url = os.environ.get("DATABASE_URL", "")
    if not admin_url:
        sys.exit("set DATABASE_URL=postgres://user@host:port/<an existing database>")
    scratch, scratch_url = scratch_urls(admin_url, kind)
    create_database(admin_url, scratch)
    try:
        os.environ.update({**DJANGO_ENV, "DATABASE_URL": scratch_url, **extra_env})
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0, interactive=False)
        import config.wsgi  # noqa: F401 - warms up and freezes the heap as the server does

        yield
        connections.close_all()
    finally:
        drop_database(admin_url, scratch)


# --- offers to book ---------------------------------------------------------------------------

DESTINATIONS = ["BSB", "CNF", "SSA", "REC", "POA", "CWB", "FOR", "BEL", "MAO", "FLN"]


def collect_offers(client, count: int, day: int = 10) -> list[dict]:
    """`count` sandbox offers (one adult, GRU to domestic destinations from March `day` on), as
    the search API returns them; the benches book them untimed."""
    offers: list[dict] = []
    while len(offers) < count:
        for destination in DESTINATIONS:
            body = {
                "type": "one_way",
                "passengers": [{"type": "adult", "count": 1}],
                "slices": [
                    {
                        "origin": "GRU",
                        "destination": destination,
                        "departureDate": f"2027-03-{day:02d}",
                    }
                ],
            }
            response = client.post("/api/v1/flights/search", body, content_type="application/json")
            offers += response.json()["offers"]
            if len(offers) >= count:
                break
        day += 1
    return offers[:count]


def profile_text(profiler, top: int, callees: str = "") -> tuple[int, str]:
    """A cProfile's total calls and its tables: own time, then cumulative (and the callees of
    the functions matching `callees`, a regex, if given)."""
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    if callees:
        stats.print_callees(callees)
    return stats.total_calls, out.getvalue()


def stop_process(process: subprocess.Popen) -> None:
    """Stop a server the bench started in its own process group: gracefully (gunicorn's master
    stops its workers), then the whole group if it does not go within 30 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def wait_until_answering(
    url: str,
    process: subprocess.Popen,
    log_path: Path,
    *,
    timeout: float,
    answered: Callable[[Any], bool] = lambda response: True,
) -> None:
    """Wait until `url` gives an answer that `answered` accepts (any answer by default: it
    listens), failing at once with the log's tail if the process exits."""
    import requests

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: the process exited:\n{log_path.read_text()[-3000:]}")
        try:
            if answered(requests.get(url, timeout=30)):
                return
        except (requests.ConnectionError, requests.Timeout):
            pass  # not listening yet, or a worker still importing on a busy machine
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer:\n{log_path.read_text()[-3000:]}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(arguments: list[str], env: dict, log_path: Path) -> subprocess.Popen:
    """A process of its own group (stopped as a whole), its output in `log_path`."""
    with log_path.open("wb") as log:
        return subprocess.Popen(  # noqa: S603 - fixed argument lists
            [sys.executable, "-m", *arguments],
            cwd=Path(__file__).resolve().parent.parent,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
