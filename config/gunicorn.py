"""gunicorn settings (`gunicorn -c python:config.gunicorn config.wsgi …`), used by bin/serve, the
production command in the README and the test stack.

gunicorn's default access log line prints the request line with its query string ("%(r)s") and
the Referer ("%(f)s"): the payment pages' links carry their token in the query string, so a log
reader could open a payer's boleto. This format logs the path without the query string, and the
request id to find the request in the application's log."""

accesslog = "-"  # stdout; the process manager keeps it
access_log_format = (
    '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms "%(a)s" %({x-request-id}o)s'
)


def child_exit(server, worker):
    """A worker gone: prometheus_client's multiprocess mode drops its live gauges' files
    (docs/operations.md)."""
    import os

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
