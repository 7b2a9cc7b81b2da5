"""The API request log (docs/request-log.md): one compact row per request under /api/, written
without adding anything to the request's own round trips.

The middleware measures the request (outside the API's own middleware, so that a 413 or a NUL
in the path is recorded too) and appends a tuple to this process's buffer: no query, no Redis
command. A thread of the process (the flusher) writes the buffer (`rows_insert`: one COPY on
PostgreSQL) every API_REQUEST_LOG_FLUSH_SECONDS, or at once when API_REQUEST_LOG_BATCH rows are
waiting; at exit
what is left is written too. A row leaves the buffer once (`popleft`), so two flushes never
write it twice; a flush that fails puts its rows back for the next one. The buffer holds at
most API_REQUEST_LOG_MAX_BUFFERED rows: a database that is down for long loses the oldest
rows, not the process's memory. A process killed outright loses at most its last second.

With API_REQUEST_LOG_FLUSH_SECONDS = 0 no thread is started (the tests: `request_log_flush()`
writes what is waiting, in the test's own transaction).
"""

import atexit
import logging
import os
import threading
import time
from collections import deque
from datetime import timedelta

import orjson
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone
from django_guid import get_guid

from agencies.models import API_REQUEST_ERROR_CODE_LENGTH, API_REQUEST_PATH_LENGTH, ApiRequest

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"

# (created_at, team_id, api_key_id, live_mode, method, path, status, latency_ms, request_id,
# error_code): a tuple is what a request can afford to build; the model instance is the
# flusher's work.
Row = tuple

_buffer: deque[Row] = deque()
_dropped = 0  # rows lost to a full buffer since the last warning
_wake = threading.Event()
_lock = threading.Lock()
_flusher: threading.Thread | None = None
_stopping = threading.Event()


# --- What the request does ---


class ApiRequestLogMiddleware:
    """Records every request under /api/ (settings.MIDDLEWARE: inside django-guid, which gives
    the request its id, and outside everything of the API's)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(API_PREFIX) or not settings.API_REQUEST_LOG_ENABLED:
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        latency_ms = int((time.perf_counter() - started) * 1000)
        request_record(request, response, latency_ms)
        return response


def request_record(request, response, latency_ms: int) -> None:
    """The row of one answered request, into the buffer. The key and team are the ones the
    request was authenticated with (DRF sets `request.user` to the key's client); a request
    refused before that (401, an unknown path) is recorded without them."""
    api_key = getattr(getattr(request, "user", None), "api_key", None)
    status = response.status_code
    row = (
        timezone.now(),
        None if api_key is None else api_key.team_id,
        None if api_key is None else api_key.pk,
        None if api_key is None else api_key.live_mode,
        request.method[:7],
        request.path[:API_REQUEST_PATH_LENGTH],
        status,
        latency_ms,
        get_guid() or "",
        error_code_of(response) if status >= 400 else "",
    )
    _append(row)


def error_code_of(response) -> str:
    """The `error.code` of an error answer (in the one error shape), or ""."""
    data = getattr(response, "data", None)  # a DRF answer's, before rendering
    if data is None:
        if response.streaming or not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            return ""
        try:
            data = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            return ""
    error = data.get("error") if isinstance(data, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code[:API_REQUEST_ERROR_CODE_LENGTH] if isinstance(code, str) else ""


def _append(row: Row) -> None:
    global _dropped
    if len(_buffer) >= settings.API_REQUEST_LOG_MAX_BUFFERED:
        try:
            _buffer.popleft()  # the oldest goes: the database has been away for a while
            _dropped += 1
        except IndexError:
            pass
    _buffer.append(row)
    if settings.API_REQUEST_LOG_FLUSH_SECONDS > 0:
        if _flusher is None:
            _flusher_start()
        if len(_buffer) >= settings.API_REQUEST_LOG_BATCH:
            _wake.set()


# --- Writing the buffer ---


def request_log_flush() -> int:
    """Write every row waiting in this process's buffer; the number written. A failed write
    puts its rows back (in order) and raises."""
    global _dropped
    if _dropped:
        logger.warning("API request log: %d rows dropped, the buffer was full", _dropped)
        _dropped = 0
    written = 0
    batch = settings.API_REQUEST_LOG_BATCH
    while True:
        rows = _take(batch)
        if not rows:
            return written
        try:
            rows_insert(rows)
        except BaseException:
            _buffer.extendleft(reversed(rows))
            raise
        written += len(rows)


def request_log_discard() -> int:
    """Forget what is waiting (a test starting clean); the number of rows forgotten."""
    count = 0
    while _take(1):
        count += 1
    return count


def _take(limit: int) -> list[Row]:
    rows: list[Row] = []
    while len(rows) < limit:
        try:
            rows.append(_buffer.popleft())
        except IndexError:
            break
    return rows


_FIELDS = (
    "created_at",
    "team_id",
    "api_key_id",
    "live_mode",
    "method",
    "path",
    "status",
    "latency_ms",
    "request_id",
    "error_code",
)


_COLUMN_OF = {field.attname: str(field.column) for field in ApiRequest._meta.concrete_fields}
_COLUMNS = [_COLUMN_OF[name] for name in _FIELDS]


def rows_insert(rows: list[Row]) -> None:
    """Write the rows: on PostgreSQL one COPY (about 4 µs of the flusher's CPU a row, against
    38 through `bulk_create`, which builds a model instance and compiles every value: measured
    by bench/request_log.py's flush line), elsewhere multi-row INSERTs within the backend's
    parameter limit. `rows_insert_orm` is its twin; the parity test is in
    agencies/tests/test_request_log.py."""
    ops = connection.ops
    table = ops.quote_name(ApiRequest._meta.db_table)
    columns = ", ".join(ops.quote_name(column) for column in _COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # psycopg's own COPY, its errors raised as Django's (IntegrityError, …).
            with (
                connection.wrap_database_errors,
                cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
            ):
                for row in rows:
                    copy.write_row(row)
            return
        one = f"({', '.join(['%s'] * len(_COLUMNS))})"
        per_statement = (connection.features.max_query_params or 999) // len(_COLUMNS)
        adapt = ops.adapt_datetimefield_value
        for start in range(0, len(rows), per_statement):
            chunk = rows[start : start + per_statement]
            params = [value for row in chunk for value in (adapt(row[0]), *row[1:])]
            values = ", ".join([one] * len(chunk))
            cursor.execute(f"INSERT INTO {table} ({columns}) VALUES {values}", params)  # noqa: S608 - names from _meta


def rows_insert_orm(rows: list[Row]) -> None:
    """`rows_insert`'s twin through the ORM (the parity test's reference)."""
    ApiRequest.objects.bulk_create(
        [ApiRequest(**dict(zip(_FIELDS, row, strict=True))) for row in rows]
    )


# --- The flusher thread, one per process ---


def _flusher_start() -> None:
    global _flusher
    with _lock:
        if _flusher is not None:
            return
        thread = threading.Thread(target=_flush_forever, name="api-request-log", daemon=True)
        _stopping.clear()
        thread.start()
        _flusher = thread
    atexit.unregister(_at_exit)  # once, however often a flusher was started
    atexit.register(_at_exit)


def _flush_forever() -> None:
    try:
        while not _stopping.is_set():
            _wake.wait(settings.API_REQUEST_LOG_FLUSH_SECONDS or 1.0)
            _wake.clear()
            _flush_quietly()
    finally:
        connection.close()  # this thread's own connection


def _flush_quietly() -> None:
    close_old_connections()  # a connection the database dropped is replaced, not reused
    try:
        request_log_flush()
    except Exception:
        logger.exception("API request log: the flush failed; its rows wait for the next one")
        connection.close()


def request_log_stop(timeout: float = 5.0) -> None:
    """Stop this process's flusher and write what is left (at exit, and the tests')."""
    global _flusher
    thread = _flusher
    if thread is not None:
        _stopping.set()
        _wake.set()
        thread.join(timeout)
        _flusher = None
    if _buffer:
        _flush_quietly()


def _at_exit() -> None:
    """A process whose flusher is running (a server's) writes what is left as it exits. One
    whose flusher was stopped (a test that started one) leaves the rest unwritten: they are
    later tests' rows, and their database is not this process's to write at exit."""
    if _flusher is not None:
        request_log_stop()


def _forked() -> None:
    """A child process starts with an empty buffer and no flusher: the parent's rows are the
    parent's to write (a copy here would write them twice)."""
    global _flusher, _lock, _dropped
    _buffer.clear()
    _dropped = 0
    _flusher = None
    _lock = threading.Lock()
    _wake.clear()
    _stopping.clear()


os.register_at_fork(after_in_child=_forked)


# --- Retention ---


def request_log_purge(*, now=None, batch: int = 10_000) -> int:
    """Delete the rows older than API_REQUEST_LOG_DAYS, `batch` at a time (short transactions,
    on the created_at index); the number deleted."""
    before = (now or timezone.now()) - timedelta(days=settings.API_REQUEST_LOG_DAYS)
    deleted = 0
    while True:
        ids = list(
            ApiRequest.objects.filter(created_at__lt=before)
            .order_by("created_at")
            .values_list("pk", flat=True)[:batch]
        )
        if not ids:
            return deleted
        deleted += ApiRequest.objects.filter(pk__in=ids).delete()[0]
