"""Celery tasks' latencies and outcomes, by task name, from Celery's signals in whichever
process runs the task (a worker's pool process; the caller's, when tasks run eagerly)."""

import time

from celery.signals import task_postrun, task_prerun

from operations.metrics import TASKS

# Start times by task id: a pool process runs one task at a time, a threaded one a few.
_started: dict[str, float] = {}


def _task_started(task_id=None, **kwargs) -> None:
    if task_id is not None:
        _started[task_id] = time.perf_counter()


def _task_finished(task_id=None, task=None, state=None, **kwargs) -> None:
    started = _started.pop(task_id, None) if task_id is not None else None
    if started is None or task is None:
        return
    outcome = (state or "unknown").lower()  # success, failure, retry, ignored, rejected
    TASKS.labels(task.name, outcome).observe(time.perf_counter() - started)


def connect() -> None:
    # weak=False: the receivers are module functions; dispatch_uid: connected once.
    task_prerun.connect(_task_started, weak=False, dispatch_uid="operations.task_started")
    task_postrun.connect(_task_finished, weak=False, dispatch_uid="operations.task_finished")
