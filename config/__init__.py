# Load the Celery app with Django so that `@shared_task` and `delay_on_commit` use it.
from .celery_app import app as celery_app

__all__ = ("celery_app",)
