"""Timing the calls an adapter makes to an outside party (a flight supplier, a payment
provider) into a Prometheus histogram (prometheus_client), so that every adapter of an interface
is measured the same way without knowing it: the interface's `__init_subclass__` calls
`meter_calls` on each adapter class. The histograms are defined beside their interface
(`flights/suppliers/base.py`, `wallet/providers/base.py`); docs/operations.md lists the series.

With PROMETHEUS_MULTIPROC_DIR set (gunicorn's and Celery's processes), prometheus_client writes
the values to files in that directory and the scrape adds them up; without it they stay in this
process's default registry."""

import functools
import time
from collections.abc import Callable, Iterable

from prometheus_client import Histogram

# Seconds. From a sandbox answer (milliseconds) to Duffel's longest order (130 s).
OUTSIDE_CALL_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 130.0)

# Marks a method already timed, so that a subclass of an adapter that does not override it
# is not wrapped twice.
_METERED = "__metered__"


def meter_calls(
    cls: type,
    *,
    histogram: Histogram,
    operations: Iterable[str],
    outcome_of: Callable[[BaseException], str],
) -> None:
    """Time each method of `operations` that `cls` itself defines into `histogram`, labelled
    with the adapter's `name`, the operation (the method's name, never an id) and the outcome:
    `ok`, or `outcome_of(exception)` for a call that raised (the exception goes on)."""
    for operation in operations:
        method = cls.__dict__.get(operation)
        if method is None or getattr(method, _METERED, False):
            continue
        setattr(cls, operation, _metered(method, histogram, operation, outcome_of))


def _metered(method, histogram: Histogram, operation: str, outcome_of):
    @functools.wraps(method)
    def timed(self, *args, **kwargs):
        started = time.perf_counter()
        outcome = "ok"
        try:
            return method(self, *args, **kwargs)
        except BaseException as exc:
            outcome = outcome_of(exc)
            raise
        finally:
            histogram.labels(self.name, operation, outcome).observe(time.perf_counter() - started)

    setattr(timed, _METERED, True)
    return timed
