"""gunicorn settings (`gunicorn -c python:config.gunicorn config.wsgi …`), used by bin/serve, the
production command in the README and the test stack.

gunicorn's default access log line prints the request line with its query string ("%(r)s") and
the Referer ("%(f)s"): the payment pages' links carry their token in the query string, so a log
reader could open a payer's boleto. This format logs the path without the query string, and the
request id to find the request in the application's log.

The serving model (docs/performance.md "Serving: threads per worker"): threaded workers, so that
a request waiting on a supplier (a search takes seconds, an order up to 130 s) holds one thread,
not a whole process. Each thread has its own database connection: at most
workers × threads of them (GUNICORN_THREADS, WEB_CONCURRENCY; the arithmetic is in that page).
"""

import contextlib
import ctypes
import ctypes.util
import os


def _count(variable: str, default: int) -> int:
    """A positive whole number from the environment; a typo stops the start, not the service."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    value = int(text)
    if value < 1:
        raise ValueError(f"{variable} must be at least 1, not {value}")
    return value


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may use (containers)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


accesslog = "-"  # stdout; the process manager keeps it
access_log_format = (
    '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms "%(a)s" %({x-request-id}o)s'
)

worker_class = "gthread"
# Requests one process serves at once. A request waiting on the network holds a thread and
# nothing else (the GIL is released while it waits); CPU-bound work still shares one core.
threads = _count("GUNICORN_THREADS", 16)
# One process per core: the threads give the concurrency, the processes the CPU.
workers = _count("WEB_CONCURRENCY", _cores())
# A worker accepts a connection only while it has a thread free for it: otherwise gthread
# accepts up to 1000 and queues them behind busy threads, while another worker sits idle. The
# rest wait in the listen backlog for whichever worker frees a thread first. The price: no
# kept-alive connections (gthread keeps at most worker_connections - threads idle ones, and logs
# "No keepalived connections can be handled" at start), so every answer closes its connection.
# Behind the TLS proxy that costs one local TCP handshake per request; clients keep theirs
# alive with the proxy. Allowing idle ones would let a worker hold connections it cannot serve.
worker_connections = threads
# With threads, `timeout` only watches the worker's main loop, which never waits on a request:
# gunicorn's default (30 s) holds. A stop or reload lets requests in flight finish: an order
# waits up to 130 s for the airline (flights/suppliers/duffel/http_client.py ORDER_TIMEOUT).
graceful_timeout = 140


def child_exit(server, worker):
    """A worker gone: prometheus_client's multiprocess mode drops its live gauges' files
    (docs/operations.md)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


# glibc's malloc gives each thread that allocates an arena of its own (up to 8 per core), and a
# freed block stays in its arena: 16 threads per worker grow its resident memory by arenas
# mostly empty. Two arenas: measured 8 to 11 MB less per worker after bench/http_load.py (three
# runs taking turns, docs/performance.md "Memory"), at no measurable cost in throughput (the
# GIL lets one thread allocate at a time anyway).
M_ARENA_MAX = -8  # glibc's malloc.h
WORKER_MALLOC_ARENAS = 2


def post_fork(server, worker):
    """In each worker, before it serves: cap glibc's malloc arenas (not on other C libraries)."""
    name = ctypes.util.find_library("c")
    if not name or "musl" in name:
        return
    with contextlib.suppress(OSError, AttributeError):  # no mallopt: not glibc
        ctypes.CDLL(name).mallopt(M_ARENA_MAX, WORKER_MALLOC_ARENAS)
