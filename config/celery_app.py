import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("config")
# Every CELERY_* Django setting configures the app (CELERY_BROKER_URL -> broker_url, ...).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(sender=None, **kwargs) -> None:
    """Around each task, what Django does around each web request: close a database
    connection that is broken, older than CONN_MAX_AGE or left in a transaction; keep the
    others (CELERY_DB_REUSE_MAX keeps Celery's fixup from closing every one). Not for eager
    tasks: they run inside their caller's transaction."""
    if sender is None or getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
