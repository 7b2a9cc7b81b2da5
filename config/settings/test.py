"""Test settings: SQLite in memory by default; PostgreSQL and Redis when DATABASE_URL/REDIS_URL
are set (CI sets both)."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production")

from .base import *

if not env.str("DATABASE_URL", default=""):
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}

if not REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Tasks run inline when queued; the tests that exercise a real worker switch this off.
CELERY_TASK_ALWAYS_EAGER = True

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
PUBLIC_BASE_URL = "http://testserver"
ERROR_DOCS_URL = f"{PUBLIC_BASE_URL}/api/v1/docs/errors"
LOGGING["root"]["level"] = "WARNING"
STATIC_ROOT = None  # static files come from the finders; nothing is collected in tests
WHITENOISE_USE_FINDERS = True

# Every error answer's (code, status, message) must be in the error catalogue
# (core/exceptions.py): an uncatalogued one fails the test that provoked it.
ERROR_CATALOGUE_STRICT = True

# No flusher thread: a test writes the request log's buffer itself (request_log_flush), in its
# own transaction (docs/request-log.md).
API_REQUEST_LOG_FLUSH_SECONDS = 0
