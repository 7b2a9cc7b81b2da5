"""The real stack as separate processes, for end-to-end and fault tests: gunicorn, a Celery
worker (with beat), management commands, all on the test database and the test Redis, in
production settings. Only on PostgreSQL and Redis."""

import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests
from django.conf import settings

from tests.kit.marks import NEEDS_POSTGRESQL, ON_POSTGRESQL

ROOT = Path(__file__).resolve().parents[2]
REAL_STACK = ON_POSTGRESQL and bool(settings.REDIS_URL)
needs_real_stack = pytest.mark.skipif(
    not REAL_STACK, reason=f"{NEEDS_POSTGRESQL} and Redis (DATABASE_URL and REDIS_URL)"
)


def database_url() -> str:
    """DATABASE_URL naming the test database, for processes started apart to work on it."""
    test_db = settings.DATABASES["default"]["NAME"]
    return urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{test_db}"))


def start_celery_worker(env: dict, *options: str) -> subprocess.Popen:
    """A Celery worker of the project with `options` ("--pool=solo") in `env`: quiet, on its own
    (no gossip, mingle or heartbeat) and in a process group of its own, which `kill` ends."""
    alone = ["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"]
    return subprocess.Popen(  # noqa: S603 - fixed argument lists
        [sys.executable, "-m", "celery", "-A", "config", "worker", *options, *alone],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def kill(process: subprocess.Popen) -> None:
    """Kill a process started in a group of its own, its children with it, and reap it."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition, timeout=30.0, interval=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(interval)
    return None


# Production settings are secure by default; the stack serves plain HTTP on localhost, so it
# turns the HTTPS hardening off explicitly.
PLAIN_HTTP_ENV = {
    "DJANGO_BEHIND_TLS_PROXY": "false",
    "DJANGO_SECURE_COOKIES": "false",
    "DJANGO_SECURE_SSL_REDIRECT": "false",
    "DJANGO_SECURE_HSTS_SECONDS": "0",
}


class Stack:
    """Processes started here are killed (their whole process group) by `stop()`."""

    def __init__(self, receiver_ca: str | None = None):
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_SECRET_KEY": "end-to-end-tests-only-" + "x" * 40,
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "EMAIL_URL": "dummymail://",
            "API_RATE_LIMIT": "100000/minute",
            "API_SEARCH_RATE_LIMIT": "100000/minute",
            "WEBHOOKS_ALLOWED_NETWORKS": "127.0.0.0/8",
            "DJANGO_CONN_MAX_AGE": "0",
            "LOG_LEVEL": "WARNING",
            # The live keys of these stacks search and book the sandbox (no supplier connected).
            "FLIGHTS_LIVE_SANDBOX": "true",
            **PLAIN_HTTP_ENV,
        }
        if receiver_ca:
            self.env["REQUESTS_CA_BUNDLE"] = receiver_ca
        self.processes: list[subprocess.Popen] = []
        self.base_url = ""
        self.base_urls: list[str] = []  # every gunicorn instance started, in order

    def _start(self, arguments: list[str]) -> subprocess.Popen:
        process = subprocess.Popen(  # noqa: S603 - fixed argument lists
            [sys.executable, "-m", *arguments],
            cwd=ROOT,
            env=self.env,
            start_new_session=True,  # its own process group, killed as a whole
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.processes.append(process)
        return process

    def start_web(self, workers: int = 2) -> subprocess.Popen:
        port = free_port()
        self.base_url = f"http://127.0.0.1:{port}"
        self.base_urls.append(self.base_url)
        server = self._start(
            [
                "gunicorn",
                "--config=python:config.gunicorn",
                "config.wsgi",
                f"--bind=127.0.0.1:{port}",
                f"--workers={workers}",
                "--timeout=60",
            ]
        )

        def healthy():
            try:
                return requests.get(f"{self.base_url}/health", timeout=2).status_code == 200
            except requests.RequestException:  # not listening yet, or still booting
                return False

        assert wait_until(healthy, timeout=60), "gunicorn did not become healthy"
        return server

    def start_worker(
        self, *, beat: bool = False, queues: str = "", concurrency: int = 2, name: str = ""
    ) -> subprocess.Popen:
        """A worker of every queue, as small installs run it, or of `queues` only ("webhooks",
        "emails,default"), as production runs one pool per queue. Several workers on one
        machine need distinct `name`s."""
        arguments = ["celery", "-A", "config", "worker", "--pool=prefork"]
        arguments += [f"--concurrency={concurrency}"]
        if name:
            arguments.append(f"--hostname={name}@%h")
        arguments += ["--without-gossip", "--without-mingle", "--loglevel=WARNING"]
        if queues:
            arguments += ["-Q", queues]
        if beat:
            arguments.append("--beat")
        return self._start(arguments)

    def start_beat(self) -> subprocess.Popen:
        """Celery beat on its own, as production runs it beside several workers (exactly one)."""
        return self._start(["celery", "-A", "config", "beat", "--loglevel=WARNING"])

    def manage(self, *arguments: str, stdin: str = "") -> str:
        completed = subprocess.run(  # noqa: S603 - fixed argument lists
            [sys.executable, "manage.py", *arguments],
            cwd=ROOT,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert completed.returncode == 0, completed.stderr
        return completed.stdout

    def stop(self) -> None:
        for process in self.processes:
            kill(process)


class RoundRobin(requests.Session):
    """A session whose requests to a path ("/api/v1/...") go to each of `base_urls` in turn, as a
    load balancer spreads them over several gunicorn instances. `served` counts them."""

    def __init__(self, base_urls: list[str]):
        super().__init__()
        self._next = itertools.cycle(base_urls)
        self.served = dict.fromkeys(base_urls, 0)

    def request(self, method, url, *arguments, **keywords):
        if url.startswith("/"):
            base = next(self._next)
            self.served[base] += 1
            url = base + url
        return super().request(method, url, *arguments, **keywords)
