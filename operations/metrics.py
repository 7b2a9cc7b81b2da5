"""The series this process records (requests, tasks) and the registry a scrape reads
(docs/operations.md). The supplier's and payment provider's histograms are defined beside
their interfaces (`flights/suppliers/base.py`, `wallet/providers/base.py`), the gauges computed
at scrape time in `operations/collectors.py`.

With PROMETHEUS_MULTIPROC_DIR set, every process (gunicorn's workers, Celery's pool processes)
writes its values to files in that directory, and a scrape adds up every process's files
(prometheus_client's multiprocess mode); without it, the scrape reads this process's registry."""

import os

from prometheus_client import REGISTRY, CollectorRegistry, Histogram, multiprocess
from prometheus_client.registry import Collector

REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
TASK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

REQUESTS = Histogram(
    "agency_http_request_duration_seconds",
    "HTTP requests answered, by route (the URL pattern's name), method and status.",
    ["route", "method", "status"],
    buckets=REQUEST_BUCKETS,
)
TASKS = Histogram(
    "agency_celery_task_duration_seconds",
    "Celery tasks run, by task name and outcome (success, failure, retry...).",
    ["task", "outcome"],
    buckets=TASK_BUCKETS,
)


class _ThisProcess(Collector):
    """This process's default registry, as one collector of a scrape's registry."""

    def collect(self):
        return REGISTRY.collect()


def scrape_registry() -> CollectorRegistry:
    """A registry for one scrape: every process's recorded series, and the gauges read now."""
    from operations.collectors import OperationsCollector

    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(OperationsCollector())
    return registry
