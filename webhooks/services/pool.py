"""The delivery pool: each worker process sends its webhook batches on threads of its own, so
that waiting on a receiver holds a thread, not the process.

`deliver_webhooks` (the batch task) hands its endpoint to this process's pool and returns at
once: the Celery process is free for the next message, bookings and e-mails included, while
up to WEBHOOK_DELIVERY_THREADS batches wait on their receivers. Claim, POST and record happen
in the pool's thread (`deliveries_send_batch`), as they did in the task; the caps, leases and
sweep are unchanged, so a batch in a thread is one attempt in flight like any other.

- **Bounded, holding no lease.** A batch is handed to a thread only if one is idle (or may
  still be started). Otherwise nothing is claimed: the sweep's lease on the message's
  deliveries, if any, is given back (`deliveries_not_taken`), and the pool notes the
  endpoint's id (no lease, no delivery: at most REMEMBERED endpoints, the oldest forgotten
  first) for its next thread to come free. The deliveries stay due in the database; a
  forgotten note, or a process that dies, costs nothing but the sweep's delay.
- **One database connection per thread**, Django's own (connections are per thread): checked
  around each batch as Celery checks a task's (`close_old_connections`: closed when broken,
  older than CONN_MAX_AGE or left in a transaction; health-checked before reuse), checked
  every IDLE_CHECK_SECONDS while the thread is idle, and closed when the thread ends. A
  thread is started only when no idle one is left, and the idle thread that ran last is
  handed the next batch, so a process keeps as many connections as it has needed threads
  at once. Behind PgBouncer (`DATABASE_POOLER=pgbouncer`) nothing differs: the claim's team
  lock is a transaction's advisory lock, and nothing is prepared.
- **Connections to receivers** are shared by the threads of a process (webhooks/http.py):
  kept alive per checked address, every request still resolved, checked and pinned first.
- **One claim per endpoint at a time, for messages.** A message for an endpoint whose batch
  is running in this process takes no thread of its own: the pool notes that the endpoint
  runs again, and the thread that ends its batch runs another at once (a burst of events
  queues a message per commit, and each would otherwise claim in a thread of its own, mostly
  finding the endpoint at its cap). The batch's own calls for another batch (`more`: a full
  batch, a split, a continuation) still take a free thread: they fill the endpoint's slots.
- **Stopping** (the worker's warm shutdown: `worker_process_shutdown` in a prefork child,
  `worker_shutdown` in a solo or threads worker): no batch is taken any more, a running batch
  ends after its attempt in flight and gives the rest back (a continuation is queued), and
  the process waits up to WEBHOOK_DELIVERY_SHUTDOWN_SECONDS for them. An attempt still in
  flight after that is lost with the process: its lease runs out and the sweep sends it again
  (webhooks/tests/test_pool_worker.py).
"""

import logging
import os
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.db import close_old_connections, connections

from webhooks.services.deliveries import (
    deliveries_not_taken,
    deliveries_queue_batch,
    deliveries_send_batch,
)

logger = logging.getLogger(__name__)

# How often an idle thread looks at its database connection (closed once obsolete or broken).
IDLE_CHECK_SECONDS = 10.0
# Endpoints turned away while every thread was busy, remembered for the next free thread.
REMEMBERED = 1000

# What became of a batch message handed to the pool (`DeliveryPool.submit`).
TAKEN = "taken"  # a thread runs it
AGAIN = "again"  # the endpoint's running batch runs once more when it ends
TURNED_AWAY = "turned_away"  # every thread busy (the endpoint remembered), or stopping


class DeliveryPool:
    """Up to `size` threads, each running one batch at a time. Not for use across a fork: each
    process has its own (`delivery_pool`)."""

    def __init__(self, size: int):
        self.size = size
        self._lock = threading.Lock()
        self._threads: list[_DeliveryThread] = []
        self._idle: list[_DeliveryThread] = []  # the one idle last is handed the next batch
        self._remembered: OrderedDict[str, None] = OrderedDict()  # endpoint ids, oldest first
        self._running: dict[str, int] = {}  # endpoint id: its batches running in this pool
        self._again: set[str] = set()  # endpoints to run again when a batch of theirs ends
        self._stopping = threading.Event()

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def submit(self, endpoint_id: str, lease_id: str = "") -> str:
        """A batch message of the endpoint: `TAKEN` (a thread runs it), `AGAIN` (a batch of
        the endpoint is running: it runs once more when it ends) or `TURNED_AWAY` (every thread
        busy, or the pool stopping: the endpoint is remembered unless stopping). Nothing is
        claimed for the last two: the caller gives the sweep's lease back."""
        with self._lock:
            if self._stopping.is_set():
                return TURNED_AWAY
            if self._running.get(endpoint_id):
                self._again.add(endpoint_id)
                return AGAIN
            return self._hand_to_free_thread(endpoint_id, lease_id)

    def more(self, endpoint_id: str) -> None:
        """Another batch of the endpoint beside the running one, if a thread is free
        (`deliveries_send_batch`'s `more`): a backlog fills the endpoint's slots at once.
        Nothing is claimed for it here: if every thread is busy, the endpoint is remembered."""
        with self._lock:
            if not self._stopping.is_set():
                self._hand_to_free_thread(endpoint_id, "")

    def shutdown(self, timeout: float) -> int:
        """Take no more batches, let the running ones end after their attempt in flight, and
        wait up to `timeout` seconds for them. Returns how many were still running."""
        self._stopping.set()
        with self._lock:
            noted = list(self._remembered) + sorted(self._again - set(self._remembered))
            self._remembered.clear()
            self._again.clear()
            idle, self._idle = self._idle, []
            threads = list(self._threads)
        for thread in idle:
            thread.hand(None)
        # What no thread here will run now goes back to the queue, for another worker (or this
        # one restarted) instead of waiting for the sweep.
        for endpoint_id in noted:
            deliveries_queue_batch(endpoint_id)
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        left = sum(thread.is_alive() for thread in threads)
        if left:
            logger.warning(
                "%s webhook batches still sending at shutdown: their deliveries are sent again "
                "once their leases run out",
                left,
            )
        return left

    # --- under the lock --------------------------------------------------------------------

    def _hand_to_free_thread(self, endpoint_id: str, lease_id: str) -> str:
        thread = self._free_thread()
        if thread is None:
            self._remember(endpoint_id)
            return TURNED_AWAY
        self._running[endpoint_id] = self._running.get(endpoint_id, 0) + 1
        thread.hand((endpoint_id, lease_id))
        return TAKEN

    def _free_thread(self) -> "_DeliveryThread | None":
        if self._idle:
            return self._idle.pop()
        if len(self._threads) < self.size:
            thread = _DeliveryThread(self, number=len(self._threads) + 1)
            self._threads.append(thread)
            thread.start()
            return thread
        return None

    def _remember(self, endpoint_id: str) -> None:
        self._remembered[endpoint_id] = None  # noted again: it keeps its place in the line
        while len(self._remembered) > REMEMBERED:
            self._remembered.popitem(last=False)  # forgotten: the sweep finds its deliveries

    def _next(self, thread: "_DeliveryThread", ended: str) -> tuple[str, str] | None:
        """What a thread that has ended a batch of endpoint `ended` runs next: the same
        endpoint again if a message came for it meanwhile, else a remembered endpoint, else
        nothing (it is idle again, or ends if the pool is stopping)."""
        with self._lock:
            if self._running[ended] > 1:
                self._running[ended] -= 1
            else:
                del self._running[ended]
            if self._stopping.is_set():
                return None
            if ended in self._again:
                self._again.discard(ended)
                endpoint_id = ended
            elif self._remembered:
                endpoint_id, _ = self._remembered.popitem(last=False)
            else:
                self._idle.append(thread)
                return None
            self._running[endpoint_id] = self._running.get(endpoint_id, 0) + 1
            return (endpoint_id, "")

    def _run(self, job: tuple[str, str]) -> None:
        endpoint_id, lease_id = job
        close_old_connections()  # as around a Celery task (config/celery_app.py)
        try:
            deliveries_send_batch(
                endpoint_id,
                lease_id=lease_id,
                stop=self._stopping.is_set,
                more=self.more,
            )
        except Exception:
            # Its deliveries are sent again once their leases run out (the sweep).
            logger.exception("Webhook batch of %s failed", endpoint_id)
        finally:
            close_old_connections()


class _DeliveryThread(threading.Thread):
    """One of a pool's threads: waits to be handed a batch, runs it, then the pool's next."""

    def __init__(self, pool: DeliveryPool, *, number: int):
        # A daemon: a process that has waited its shutdown's time exits whatever is in flight.
        super().__init__(name=f"webhook-delivery-{number}", daemon=True)
        self._pool = pool
        self._job: tuple[str, str] | None = None
        self._handed = threading.Event()

    def hand(self, job: tuple[str, str] | None) -> None:
        """Run `job` (an endpoint id and a lease id); None: end."""
        self._job = job
        self._handed.set()

    def run(self) -> None:
        try:
            while True:
                if not self._handed.wait(IDLE_CHECK_SECONDS):
                    close_old_connections()  # idle: closed once obsolete (CONN_MAX_AGE)
                    continue
                self._handed.clear()
                job = self._job
                if job is None:
                    return
                while job is not None:
                    self._pool._run(job)
                    job = self._pool._next(self, ended=job[0])
                if self._pool.stopping:
                    return
        finally:
            connections.close_all()  # this thread's


_pool: DeliveryPool | None = None
_pool_lock = threading.Lock()


def delivery_pool() -> DeliveryPool | None:
    """This process's pool, made on first use (after the worker's fork: a prefork child makes
    its own); None when WEBHOOK_DELIVERY_THREADS is 0."""
    global _pool
    if settings.WEBHOOK_DELIVERY_THREADS <= 0:
        return None
    with _pool_lock:
        if _pool is None:
            _pool = DeliveryPool(settings.WEBHOOK_DELIVERY_THREADS)
        return _pool


def _forget_after_fork() -> None:
    """A forked child has none of its parent's threads: it starts a pool of its own."""
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


def delivery_pool_shutdown(**kwargs: object) -> None:
    """Stop this process's pool, if it has one (connected to the worker's shutdown signals).
    It stays this process's pool, stopped: a batch handed to it after this is not taken."""
    with _pool_lock:
        pool = _pool
    if pool is not None and not pool.stopping:
        pool.shutdown(settings.WEBHOOK_DELIVERY_SHUTDOWN_SECONDS)


def deliveries_send_batch_in_pool(endpoint_id: str, *, lease_id: str = "") -> str:
    """Hand a batch of the endpoint to this process's delivery pool and return at once (what
    `deliver_webhooks` does in a worker): `TAKEN`, `AGAIN` or `TURNED_AWAY` (see
    `DeliveryPool.submit`). Unless taken, nothing was claimed and the sweep's lease is given
    back. Without a pool (WEBHOOK_DELIVERY_THREADS=0) the batch is sent here."""
    pool = delivery_pool()
    if pool is None:
        deliveries_send_batch(endpoint_id, lease_id=lease_id)
        return TAKEN
    outcome = pool.submit(endpoint_id, lease_id)
    if outcome == AGAIN:
        # The batch that runs again forgets the endpoint's queued mark when it starts, as a
        # queued message's would: until then new deliveries queue no message of their own.
        deliveries_not_taken(endpoint_id, lease_id=lease_id, forget_queued=False)
    elif outcome == TURNED_AWAY:
        deliveries_not_taken(endpoint_id, lease_id=lease_id)
    return outcome


def connect() -> None:
    """Stop the pool when the worker stops: a prefork child as it exits, and the worker's own
    process (a solo or threads pool runs tasks there)."""
    from celery.signals import worker_process_shutdown, worker_shutdown

    worker_process_shutdown.connect(
        delivery_pool_shutdown, weak=False, dispatch_uid="webhooks.delivery_pool.child"
    )
    worker_shutdown.connect(
        delivery_pool_shutdown, weak=False, dispatch_uid="webhooks.delivery_pool.worker"
    )
