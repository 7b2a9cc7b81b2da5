"""Settings shared by every environment; everything that varies comes from the environment.

Variables are read from the process environment and, if present, from a `.env` file at the
project root (the README's start command writes one with a random secret key).
"""

from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from email.utils import formataddr
from importlib import import_module
from pathlib import Path
from typing import Any

import environ
from celery.schedules import crontab
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"  # runtime files of the embedded default (SQLite, broker folders)

env = environ.Env()
env.read_env(env.str("DJANGO_ENV_FILE", default=str(BASE_DIR / ".env")), overwrite=False)

# --- Core ------------------------------------------------------------------------------------

DEBUG = env.bool("DJANGO_DEBUG", default=False)
INSECURE_DEFAULT_SECRET_KEY = "insecure-development-key-change-me"  # noqa: S105
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default=INSECURE_DEFAULT_SECRET_KEY)
if not DEBUG and SECRET_KEY in ("", INSECURE_DEFAULT_SECRET_KEY):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is missing or is the insecure default; set it (DJANGO_DEBUG is off)."
    )
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# Public base address used in links we hand out (QR images, boleto pages, e-mails).
PUBLIC_BASE_URL = env.str("PUBLIC_BASE_URL", default="http://localhost:8000").rstrip("/")
# Where every error body's `doc_url` points: the error reference this service serves
# (api/error_docs.py), one page per code.
ERROR_DOCS_URL = env.str("ERROR_DOCS_URL", default=f"{PUBLIC_BASE_URL}/api/v1/docs/errors")

# Storage is UTC (USE_TZ). People see São Paulo time: the panel, e-mails and payment pages
# render in TIME_ZONE; the API always writes UTC with a trailing Z (core.timestamps.iso_utc) and
# core.middleware.LocaleMiddleware activates UTC and English for it.
USE_TZ = True
TIME_ZONE = "America/Sao_Paulo"
# Calendar days (date filters, daily limits, boleto due dates) are counted in this zone.
BUSINESS_TIME_ZONE = "America/Sao_Paulo"

# Portuguese first, English on request (the panel's language switch, or Accept-Language).
USE_I18N = True
LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", "Português (Brasil)"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our date/time formats (seconds and the zone shown; see config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
# The API speaks the spec's English whatever the client's Accept-Language.
API_LANGUAGE = "en"
API_PATH_PREFIX = "/api/"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "agencies.User"
APPEND_SLASH = False  # the spec's URLs have no trailing slash

INSTALLED_APPS = [
    # The Django admin with the panel's site: roles that fail closed, the home page, the dashboard.
    "dashboard.apps.DashboardAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "djmoney",
    "django_celery_beat",
    "django_guid",
    "auditlog",
    "csp",  # the panel's Content-Security-Policy (below)
    "panel.apps.LoginProtectionConfig",  # django-axes, named for the panel
    "core",
    "panel",  # the panel's kit: its site, admin mixins, forms and template filters
    "agencies",
    "wallet",
    "flights",
    "bookings",
    "webhooks",
    "api",  # the API's plumbing: keys, errors, limits, idempotency, schema (docs/architecture.md)
    "dashboard",  # the panel's pages that read every app: the home page, a team's overview
    "operations",  # what an operator watches: /metrics and its series (docs/operations.md)
]

MIDDLEWARE = [
    # Outermost: a request's time counts every other middleware (docs/operations.md).
    "operations.middleware.request_metrics_middleware",
    "django_guid.middleware.guid_middleware",
    # Every /api/ request, with its id and its time (docs/request-log.md).
    "agencies.request_log.ApiRequestLogMiddleware",
    "api.middleware.no_store_api_middleware",
    "api.middleware.ApiRequestMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # api.middleware.*: the panel's own middleware, which API requests go straight past.
    "api.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "core.middleware.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "api.middleware.AuthenticationMiddleware",
    "api.middleware.AuditlogMiddleware",  # panel changes carry who made them
    "api.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "api.middleware.CSPMiddleware",  # django-csp's, for the panel
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires: answers lockouts
]

# The panel's Content-Security-Policy (django-csp): its pages and the admin's load scripts,
# styles, images and fonts from this site only, post forms only here, and cannot be framed. No
# inline script anywhere; an inline <style> needs the request's nonce. The API's answers (JSON,
# the schema's viewer, the payment pages) are outside it.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/api/"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", NONCE],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# django-axes first: it refuses a locked-out user or address before a password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

STATIC_URL = "static/"
STATIC_ROOT: Path | None = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# --- Database --------------------------------------------------------------------------------

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web, worker, beat) share the file: wait for locks instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's backend whose health check polls the socket before sending SELECT 1.
        DATABASES["default"]["ENGINE"] = "core.postgresql"

# DATABASE_POOLER=pgbouncer: DATABASE_URL is a PgBouncer in transaction pooling mode, where a
# client has a server connection only for one transaction at a time (docs/pgbouncer.md). So
# nothing may outlive a transaction on the server: no server-side cursors (Django declares them
# WITH HOLD and fetches in later transactions) and no prepared statements (psycopg prepares a
# query on its fifth execution; Django already turns that off, this keeps it off). Migrations
# and the test database's CREATE/DROP go straight to PostgreSQL: DATABASE_DIRECT_URL.
DATABASE_POOLER = env.str("DATABASE_POOLER", default="")
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured(f"DATABASE_POOLER is empty or pgbouncer, not {DATABASE_POOLER!r}")
DATABASE_DIRECT_URL = env.str("DATABASE_DIRECT_URL", default="")
if DATABASE_POOLER and DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
elif DATABASES["default"]["ENGINE"] == "core.postgresql":
    # Straight to PostgreSQL, a connection is one client's: the statements run through
    # `connection.prepared_cursor()` are prepared after their fifth run (psycopg's default).
    # Django's own cursors bind parameters on the client and never prepare, whatever this says.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)

# --- Redis: Celery broker, cache, rate limits ------------------------------------------------

REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        # Django's RedisCache with one client per process and one-round-trip counters.
        "default": {"BACKEND": "core.cache.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    # Embedded default: a cache every local process shares, with nothing to install.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }

# --- Celery ----------------------------------------------------------------------------------
# With REDIS_URL, Redis is the broker. Without it, the embedded default uses kombu's filesystem
# transport: messages are files under var/celery, so `celery -A config worker -B` runs with no
# broker server at all. Results are not stored; tasks record their outcome in the database.

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
else:
    _celery_dir = VAR_DIR / "celery"
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_dir / "queue"),
        "data_folder_out": str(_celery_dir / "queue"),
        "processed_folder": str(_celery_dir / "processed"),
        # kombu's exchange tables; its default is ./control, relative to the working directory.
        "control_folder": str(_celery_dir / "control"),
        "store_processed": False,
    }
CELERY_TASK_IGNORE_RESULT = True
# Separate queues, so that one kind of work never waits behind another: a slow agency receiver
# fills `webhooks`, never the queue of another team's ticketing. Without `-Q`, a worker (and
# `celery -A config worker -B`, what bin/serve and small installs run) consumes all of them;
# production runs one worker pool per queue (README, "Running in production").
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_QUEUES = [
    Queue(name, Exchange(name), routing_key=name)
    for name in ("default", "webhooks", "bookings", "emails")
]
# Exact names win over patterns; patterns are tried in this order. Patterns, so that a new task
# follows its module or its name: every task of bookings.tasks, and every e-mail task (`email`
# in its name, or `send_…_alert`: the webhook deactivation alert, the support alerts).
CELERY_TASK_ROUTES = {
    # The sweep only queues deliveries: it must run on time even when `webhooks` is long.
    "webhooks.tasks.sweep_deliveries": {"queue": "default"},
    "*email*": {"queue": "emails"},
    "*.send_*_alert": {"queue": "emails"},
    "webhooks.tasks.*": {"queue": "webhooks"},
    "bookings.tasks.*": {"queue": "bookings"},
}
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a killed worker's task is redelivered, not lost
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes every database connection around every task unless this is set:
# a new PostgreSQL connection per task, the largest per-task cost of a webhook delivery
# (docs/performance.md, "Webhook deliveries"). Set, the fixup closes them every this many tasks
# only, and config/celery_app.py applies Django's own rule around each task instead (as around a
# web request): a connection is closed when broken, older than CONN_MAX_AGE, or left in a
# transaction.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# How often bookings with an unknown supplier outcome are checked, and how long an order must
# stay absent at the supplier before the booking is failed and refunded.
SUPPLIER_RECONCILE_INTERVAL_SECONDS = env.int("SUPPLIER_RECONCILE_INTERVAL_SECONDS", default=30)
SUPPLIER_UNKNOWN_GRACE_SECONDS = env.int("SUPPLIER_UNKNOWN_GRACE_SECONDS", default=600)
# How often ticketed bookings not yet departed are checked for airline-initiated changes
# (docs/after-sale.md); Duffel's webhook makes a booking's check at once.
AIRLINE_CHANGES_CHECK_INTERVAL_SECONDS = env.int(
    "AIRLINE_CHANGES_CHECK_INTERVAL_SECONDS", default=3600
)
# The secret of the webhook registered at Duffel (its events' X-Duffel-Signature); empty: the
# webhook endpoint refuses every event (503, so that Duffel sends it again).
DUFFEL_WEBHOOK_SECRET = env.str("DUFFEL_WEBHOOK_SECRET", default="")
# How often withdrawals whose transfer is still open are read back from the payment provider.
WITHDRAWAL_CHECK_INTERVAL_SECONDS = env.int("WITHDRAWAL_CHECK_INTERVAL_SECONDS", default=60)
CELERY_BEAT_SCHEDULE = {
    "expire-recharges": {"task": "wallet.tasks.expire_recharges", "schedule": 60.0},
    # Support alerts of rejected payment notifications whose message was lost.
    "requeue-notification-alerts": {
        "task": "wallet.tasks.requeue_notification_alerts",
        "schedule": 60.0,
    },
    "expire-holds": {"task": "bookings.tasks.expire_holds", "schedule": 60.0},
    "payment-reminders": {"task": "bookings.tasks.send_payment_reminders", "schedule": 300.0},
    "issue-stuck-confirmed": {"task": "bookings.tasks.issue_stuck_confirmed", "schedule": 300.0},
    # Bookings whose supplier answer was uncertain: ask the supplier what happened.
    "reconcile-supplier-outcomes": {
        "task": "bookings.tasks.reconcile_supplier_outcomes",
        "schedule": float(SUPPLIER_RECONCILE_INTERVAL_SECONDS),
    },
    # Withdrawals whose transfer is still open: read back from the provider (a lost answer is
    # looked up by the withdrawal's id before anything is sent again).
    "check-withdrawals": {
        "task": "wallet.tasks.check_withdrawals",
        "schedule": float(WITHDRAWAL_CHECK_INTERVAL_SECONDS),
    },
    "check-airline-changes": {
        "task": "bookings.tasks.check_airline_changes",
        "schedule": float(AIRLINE_CHANGES_CHECK_INTERVAL_SECONDS),
    },
    # Webhook deliveries that are due (retries) or were lost (broker message, killed worker).
    "sweep-webhook-deliveries": {"task": "webhooks.tasks.sweep_deliveries", "schedule": 15.0},
    # Rolled webhook secrets whose overlap ended (signing already ignores them): not kept.
    "drop-expired-webhook-secrets": {
        "task": "webhooks.tasks.drop_expired_previous_secrets",
        "schedule": crontab(minute=29),
    },
    # Stored searches, an hour after their offers expire (flights/tasks.py).
    "purge-expired-offers": {"task": "flights.tasks.purge_expired_offers", "schedule": 300.0},
    "purge-idempotency-keys": {
        "task": "core.tasks.purge_idempotency_keys",  # api/tasks.py, under its registered name
        "schedule": crontab(minute=17),
    },
    # Every live wallet against its ledger (`manage.py check_ledger`): the run is recorded (the
    # metrics' time since the last clean one) and support is alerted of problems.
    "check-ledger": {
        "task": "wallet.tasks.check_ledger",
        "schedule": crontab(minute=41),  # hourly; it reads every live ledger row
    },
    "purge-api-request-log": {
        "task": "agencies.tasks.purge_api_request_log",
        "schedule": crontab(hour=4, minute=47),  # daily, at a quiet hour (UTC)
    },
    "erase-expired-passenger-data": {
        "task": "bookings.tasks.erase_expired_passenger_data",
        "schedule": crontab(hour=4, minute=23),  # daily, at a quiet hour (UTC)
    },
}
# Passengers' personal data (names, contacts, birth dates, identity documents) is erased this
# many days after the booking's travel ended; amounts, references and the ledger stay.
PASSENGER_DATA_RETENTION_DAYS = env.int("PASSENGER_DATA_RETENTION_DAYS", default=180)

# --- REST framework and OpenAPI --------------------------------------------------------------

# Rate limits (api/throttling.py): N/second, N/minute, N/hour or N/day.
API_RATE_LIMIT = env.str("API_RATE_LIMIT", default="600/minute")  # per team and mode
API_SEARCH_RATE_LIMIT = env.str("API_SEARCH_RATE_LIMIT", default="60/minute")  # flight searches
# `POST /webhooks/:id/test` sends a real request to the receiver: per webhook.
API_WEBHOOK_TEST_RATE_LIMIT = env.str("API_WEBHOOK_TEST_RATE_LIMIT", default="5/minute")
# Requests waiting on a flight supplier at once, per team and mode (api/concurrency.py); 0: off.
API_SUPPLIER_CONCURRENCY = env.int("API_SUPPLIER_CONCURRENCY", default=16)
# Requests with no key, or an unknown or revoked one, per client address.
API_ANONYMOUS_RATE_LIMIT = env.str("API_ANONYMOUS_RATE_LIMIT", default="60/minute")
# Input limits (docs/decisions.md): a body over this is 413 before it is read (the largest real
# one, a booking of 9 passengers with documents, loyalty accounts and full metadata, is ~60 KB);
# JSON nested deeper than this is 400 (a real body nests 5 levels).
API_MAX_BODY_BYTES = 1024 * 1024
API_MAX_JSON_DEPTH = 16
# The payment pages (PIX QR image, boleto page and PDF) are opened without an API key, by the
# token in their links: limited per client address and per recharge.
PAYMENT_PAGES_RATE_LIMIT_PER_ADDRESS = env.str(
    "PAYMENT_PAGES_RATE_LIMIT_PER_ADDRESS", default="60/minute"
)
# Requests turned away as not found (an unknown id, a wrong token), per client address.
PAYMENT_PAGES_FAILURE_LIMIT_PER_ADDRESS = env.str(
    "PAYMENT_PAGES_FAILURE_LIMIT_PER_ADDRESS", default="10/minute"
)
# Only requests allowed to open the recharge count here: wrong tokens cannot use it up.
PAYMENT_PAGES_RATE_LIMIT_PER_RECHARGE = env.str(
    "PAYMENT_PAGES_RATE_LIMIT_PER_RECHARGE", default="30/minute"
)
# How long a recharge's payment pages stay open after it was paid or expired (a payer reloading
# the page sees it, not an error). A cancelled or failed recharge's pages close at once.
PAYMENT_PAGES_OPEN_AFTER_CLOSE = timedelta(hours=1)
IDEMPOTENCY_KEY_TTL = timedelta(hours=24)
# A claim older than this is from a request that died mid-flight; a retry may take it over.
# Longer than any live request can run (a Duffel order may take 130 s; gunicorn --timeout 150),
# so that a retry never runs beside a first request still waiting on the supplier.
IDEMPOTENCY_IN_FLIGHT_TIMEOUT = timedelta(
    seconds=env.int("IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS", default=180)
)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["agencies.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.ApiRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.ApiJSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.renderers.ApiContentNegotiation",
    "DEFAULT_PARSER_CLASSES": ["api.parsers.ApiJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.api_exception_handler",
    "UNAUTHENTICATED_USER": None,
    "COERCE_DECIMAL_TO_STRING": True,
}


def choice_values(path: str) -> Callable[[], list[str]]:
    """The values of the TextChoices at `path` (`app.models:Model.Status`), read when
    drf-spectacular needs them (the apps are loaded by then; settings cannot import them)."""

    def values() -> list[str]:
        module, _, attributes = path.partition(":")
        found: Any = import_module(module)
        for attribute in attributes.split("."):
            found = getattr(found, attribute)
        return list(found.values)

    return values


SPECTACULAR_SETTINGS = {
    "TITLE": "Agency back office API",
    "DESCRIPTION": (
        "Prepaid BRL wallet, flight search, bookings and signed webhooks for travel agencies. "
        "Authenticate with `Authorization: Bearer sk_test_…` (sandbox) or `sk_live_…`."
    ),
    # `info.version` is the latest dated API version, written by api.versions'
    # document_api_versions (a hook: settings do not import the apps).
    "VERSION": "",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # Paths are relative to the server URL, so a client's base URL is `<host>/api/v1`.
    "SCHEMA_PATH_PREFIX_TRIM": True,
    "SERVERS": [{"url": "/api/v1", "description": "This service (prefix with its host)"}],
    # Choice sets shared by several fields get one name each in the schema (the values of
    # each set's TextChoices, read when the schema is made).
    "ENUM_NAME_OVERRIDES": {
        "TransactionTypeEnum": choice_values("wallet.models:Transaction.Type"),
        "PassengerTypeEnum": choice_values("flights.models:PassengerType"),
        "LocationTypeEnum": choice_values("flights.models:LocationType"),
        "BaggageTypeEnum": choice_values("flights.models:BaggageType"),
        "TripTypeEnum": choice_values("flights.models:TripType"),
        "CabinClassEnum": choice_values("flights.models:CabinClass"),
        "RechargeStatusEnum": choice_values("wallet.models:Recharge.Status"),
        "PaymentMethodEnum": choice_values("wallet.models:PaymentMethod"),
        "ReferenceTypeEnum": choice_values("wallet.models:Transaction.ReferenceType"),
        "BookingTypeEnum": choice_values("bookings.models:Booking.Type"),
        "BookingStatusEnum": choice_values("bookings.models:Booking.Status"),
        "IdentityDocumentInputTypeEnum": choice_values(
            "bookings.models:BookingPassenger.DocumentType"
        ),
        "EventTypeEnum": "webhooks.apis.EVENT_CHOICES",
        "ServiceTypeEnum": "flights.services_extras.SERVICE_TYPES",
        "BalancePaymentInputTypeEnum": choice_values("bookings.inputs:PaymentType"),
        "RefundToEnum": "flights.suppliers.base.REFUND_TO",
        "ChangeOfferRefundToEnum": "flights.suppliers.order_changes.CHANGE_REFUND_TO",
    },
    # The schema and the docs are public; every API operation requires a key.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.document_common_errors",
        "api.schema.describe_operations",
        "api.schema.document_webhook_payloads",
        "api.error_catalogue.document_error_codes",
        "api.schema.declare_headers_and_bodies",
        "api.versions.document_api_versions",  # last: every response, the catalogue's too
    ],
}

# --- Request ids (django-guid) ---------------------------------------------------------------

DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-Id",
    "RETURN_HEADER": True,
    "EXPOSE_HEADER": True,
    "VALIDATE_GUID": True,
    "UUID_LENGTH": 32,
    "INTEGRATIONS": [],
}

# LOG_FORMAT=json: one JSON object a line (python-json-logger), for a log collector; anything
# else, the line below for people (docs/operations.md, "Logs").
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "django_guid.log_filters.CorrelationId"}},
    "formatters": {
        "default": {
            "format": "%(asctime)s %(levelname)s [%(correlation_id)s] %(name)s: %(message)s",
        },
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(correlation_id)s",
            "rename_fields": {
                "asctime": "time",
                "levelname": "level",
                "name": "logger",
                "correlation_id": "request_id",
            },
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "default",
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django_guid": {"level": "WARNING"},
        "django.server": {"level": "INFO"},
    },
}

# Celery's worker replaces the root logger's handlers with its own line format unless told not
# to: with JSON logs, the worker logs through the handler above like every other process.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"

# --- The API request log (docs/request-log.md) -------------------------------------------------
# Every /api/ request is a row (method, path, status, duration, request id, key, error code; no
# bodies, no query strings), kept this many days, purged daily.
API_REQUEST_LOG_ENABLED = env.bool("API_REQUEST_LOG_ENABLED", default=True)
API_REQUEST_LOG_DAYS = env.int("API_REQUEST_LOG_DAYS", default=30)
# Each process buffers its rows and a thread of it writes them in one INSERT at least this
# often (seconds), or as soon as a batch is waiting; at most MAX_BUFFERED rows wait (the oldest
# are dropped while the database is away).
API_REQUEST_LOG_FLUSH_SECONDS = env.float("API_REQUEST_LOG_FLUSH_SECONDS", default=1.0)
API_REQUEST_LOG_BATCH = env.int("API_REQUEST_LOG_BATCH", default=500)
API_REQUEST_LOG_MAX_BUFFERED = env.int("API_REQUEST_LOG_MAX_BUFFERED", default=20_000)

# --- Metrics (docs/operations.md) ------------------------------------------------------------
# GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it answers 404.
# PROMETHEUS_MULTIPROC_DIR (read by prometheus_client itself) switches on its multiprocess
# mode: gunicorn's and Celery's processes on one host share that directory.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# --- E-mail ----------------------------------------------------------------------------------

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
# The service's name as people read it in their mail client's From (Portuguese: the people
# are Brazilian agencies); quoted and RFC 2047-encoded where it is used (formataddr).
EMAIL_SENDER_NAME = env.str("EMAIL_SENDER_NAME", default="Painel da Agência")
DEFAULT_FROM_EMAIL = env.str(
    "DEFAULT_FROM_EMAIL", default=formataddr((EMAIL_SENDER_NAME, "no-reply@localhost"))
)
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The address the e-mails to travellers and agencies come from (core/emails.py): a traveller's
# is sent as `"<agency's name>" <SERVICE_EMAIL_ADDRESS>` with Reply-To the agency's notification
# address; the service's own to an agency (webhook alerts, withdrawals, the agency's copy of a
# booking e-mail, invitations) as `"<EMAIL_SENDER_NAME>" <SERVICE_EMAIL_ADDRESS>`, with Reply-To
# SUPPORT_EMAIL_ADDRESS. A mailbox of the service's own domain (SPF/DKIM).
SERVICE_EMAIL_ADDRESS = env.str("SERVICE_EMAIL_ADDRESS", default="reservas@localhost")
SUPPORT_EMAIL_ADDRESS = env.str("SUPPORT_EMAIL_ADDRESS", default="suporte@localhost")

# --- Money -----------------------------------------------------------------------------------

CURRENCIES = (
    "BRL",
    "USD",
    "EUR",
    "ARS",
    "CLP",
    "COP",
    "PEN",
    "UYU",
    "PYG",
    "BOB",
    "MXN",
    "CAD",
    "GBP",
    "CHF",
)
DEFAULT_CURRENCY = "BRL"

# --- Security (switched by the environment, same code everywhere) ---------------------------
# Off by default here (local runs on plain HTTP); production.py calls this again with
# secure_by_default=True, so production is secure unless the environment opts out.


def security_settings(*, secure_by_default: bool) -> dict:
    behind_tls_proxy = env.bool("DJANGO_BEHIND_TLS_PROXY", default=secure_by_default)
    secure_cookies = env.bool("DJANGO_SECURE_COOKIES", default=secure_by_default)
    hsts_seconds = env.int(
        "DJANGO_SECURE_HSTS_SECONDS", default=365 * 24 * 3600 if secure_by_default else 0
    )
    return {
        # The proxy terminates TLS: trust its X-Forwarded-Proto, and its X-Forwarded-For for
        # the client's address that rate limits count (core.http.client_address).
        "BEHIND_TLS_PROXY": behind_tls_proxy,
        "SECURE_PROXY_SSL_HEADER": (
            ("HTTP_X_FORWARDED_PROTO", "https") if behind_tls_proxy else None
        ),
        "SESSION_COOKIE_SECURE": secure_cookies,
        "CSRF_COOKIE_SECURE": secure_cookies,
        "SECURE_SSL_REDIRECT": env.bool("DJANGO_SECURE_SSL_REDIRECT", default=secure_by_default),
        "SECURE_HSTS_SECONDS": hsts_seconds,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": env.bool(
            "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=hsts_seconds > 0
        ),
        # Preloading is a commitment made by submitting the domain to the browsers' list: the
        # operator opts in (production silences the check that asks for it).
        "SECURE_HSTS_PRELOAD": env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=False),
    }


vars().update(security_settings(secure_by_default=False))
# A load balancer's health check speaks plain HTTP to the server, not through the TLS proxy.
SECURE_REDIRECT_EXEMPT = [r"^health$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- Encryption at rest (integration tokens, webhook secrets) -------------------------------
# Fernet keys are derived from SECRET_KEY (and SECRET_KEY_FALLBACKS while rotating) and this salt.
SALT_KEY = env.list("FIELD_ENCRYPTION_SALT", default=["agency-backoffice-fields"])
SECRET_KEY_FALLBACKS = env.list("DJANGO_SECRET_KEY_FALLBACKS", default=[])

# --- Webhooks ---------------------------------------------------------------------------------
# The API version events' data is written in (an event's `api_version`); each delivery renders
# it in its endpoint's version, the events API in the request's (api/versions.py).
WEBHOOK_API_VERSION = "2026-11-22"
# Events are kept (and readable through the events API, recoverable to a webhook) this long.
EVENTS_RETENTION_DAYS = env.int("EVENTS_RETENTION_DAYS", default=30)
WEBHOOK_TIMEOUT_SECONDS = 5  # the spec's response time, for connecting and for the answer
# Networks exempt from the SSRF rules (e.g. "127.0.0.0/8" for a receiver on this machine during
# development). Empty in production: private, loopback and link-local addresses are refused.
WEBHOOKS_ALLOWED_NETWORKS = env.list("WEBHOOKS_ALLOWED_NETWORKS", default=[])
# Delay before attempt n+1 after attempt n failed (the spec: now, 5 min, 30 min, 2 h, 12 h, 24 h).
WEBHOOK_RETRY_DELAYS = [
    timedelta(0),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=12),
    timedelta(hours=24),
]
WEBHOOK_FAILURES_BEFORE_DEACTIVATION = 6  # consecutive failed attempts to one endpoint
# How long a worker holds a delivery it is sending: longer than any attempt can take, so a live
# attempt is never taken over; a killed worker's delivery is sent again once it runs out.
WEBHOOK_ATTEMPT_LEASE_SECONDS = env.int("WEBHOOK_ATTEMPT_LEASE_SECONDS", default=60)
# Attempts sent at once to one endpoint: a slow receiver holds at most this many workers; its
# other deliveries wait, due, until an attempt of its own finishes (or the sweep finds a slot).
WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT = env.int(
    "WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_ENDPOINT", default=2
)
# Attempts sent at once to all the endpoints of one team (both modes; 0: no cap of its own), so
# that a team with many slow endpoints never fills the delivery threads: twice the endpoint cap,
# so a team's live and test endpoint each get their full share, and a team holds at most 4 of a
# small install's 16 delivery threads (docs/decisions.md, "Webhooks").
WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM = env.int(
    "WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_TEAM", default=4
)
# Each worker process sends deliveries on up to this many threads of its own (started when
# needed), so that waiting on a slow receiver holds a thread, not the process: the process is
# free for bookings and e-mails at once. 0: each batch is sent in the task itself, holding the
# process (webhooks/services/pool.py).
WEBHOOK_DELIVERY_THREADS = env.int("WEBHOOK_DELIVERY_THREADS", default=8)
# How long a worker process that is stopping waits for its threads' attempts to end; a batch
# takes no new delivery once the stop began. What is left is sent again after its lease.
WEBHOOK_DELIVERY_SHUTDOWN_SECONDS = env.int("WEBHOOK_DELIVERY_SHUTDOWN_SECONDS", default=15)
# A worker sends an endpoint's due deliveries in batches (one task, one claim): at most this many
# per batch, and it takes no new one after this many seconds, so that one endpoint's backlog
# never holds a worker for long (webhooks/services/deliveries.py). A batch counts as one attempt
# in flight against the cap above: it sends one delivery at a time.
WEBHOOK_BATCH_SIZE = env.int("WEBHOOK_BATCH_SIZE", default=20)
WEBHOOK_BATCH_SECONDS = env.int("WEBHOOK_BATCH_SECONDS", default=30)

# --- Panel: audit trail, login lockout, invitations ---------------------------------------------
# django-auditlog: every change of these models, in the panel or not, is an audit entry (who,
# when, old and new values). Secrets and counters that change on every request are left out.
AUDITLOG_LOGENTRY_MODEL = "core.AuditEntry"
# auditlog's migrations create its own log table even when it is swapped for ours; with no
# migrations the app makes no table at all (its only model is swapped), and none is left over
# to block a flush.
MIGRATION_MODULES = {"auditlog": None}
AUDITLOG_INCLUDE_TRACKING_MODELS = (
    {"model": "agencies.team"},
    {
        "model": "agencies.user",
        "exclude_fields": ["password", "last_login"],
        "m2m_fields": {"groups"},
    },
    {"model": "agencies.apikey", "exclude_fields": ["secret_hash", "last_used_at"]},
    {"model": "agencies.client"},
    {"model": "agencies.integration", "exclude_fields": ["access_token"]},
    {"model": "agencies.invitation"},
    {"model": "wallet.wallet"},
    {"model": "wallet.recharge", "exclude_fields": ["updated_at"]},
    {"model": "wallet.payoutkey", "exclude_fields": ["updated_at"]},
    {"model": "wallet.withdrawal", "exclude_fields": ["updated_at", "checked_at"]},
    {
        "model": "bookings.booking",
        # The itinerary and airline are fixed at creation and large; the booking keeps them.
        "exclude_fields": ["updated_at", "synced_at", "reminder_sent_at", "owner", "slices"],
    },
    {
        "model": "webhooks.webhookendpoint",
        "exclude_fields": [
            "secret",
            "previous_secret",
            "updated_at",
            "last_triggered_at",
            "alert_sent_at",
            "consecutive_failures",  # every delivery moves these; deactivation is `active`
            "total_deliveries",
            "failed_deliveries",
        ],
    },
    {
        "model": "django_celery_beat.periodictask",
        "exclude_fields": ["last_run_at", "total_run_count", "date_changed"],
    },
)
AUDITLOG_DISABLE_REMOTE_ADDR = False

# django-axes: after AXES_FAILURE_LIMIT wrong passwords, the user name and (separately) the
# address are locked out for the cool-off, except on the user's own known browser; a success
# clears only that user's failures (panel/lockout.py); support unlocks in the panel
# (Axes > Access attempts).
AXES_FAILURE_LIMIT = env.int("PANEL_LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("PANEL_LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = "panel.lockout.lockout_parameters"
AXES_RESET_ON_SUCCESS = False  # panel.lockout clears the user's own failures instead
AXES_LOCKOUT_TEMPLATE = "admin/locked_out.html"
AXES_USERNAME_FORM_FIELD = "username"
# The same client address as the API's rate limits (DJANGO_BEHIND_TLS_PROXY decides whether
# X-Forwarded-For is trusted), so a client cannot pick its own address by sending the header.
AXES_CLIENT_IP_CALLABLE = "panel.sites.login_client_address"

PANEL_INVITATION_VALIDITY = timedelta(hours=env.int("PANEL_INVITATION_VALIDITY_HOURS", default=72))
PASSWORD_RESET_TIMEOUT = 60 * 60 * 3  # a reset link works for 3 hours, once
# "Forgot password" requests per client address, and e-mails per target address.
PANEL_PASSWORD_RESET_LIMIT_PER_ADDRESS = env.str(
    "PANEL_PASSWORD_RESET_LIMIT_PER_ADDRESS", default="10/hour"
)
PANEL_PASSWORD_RESET_LIMIT_PER_EMAIL = env.str(
    "PANEL_PASSWORD_RESET_LIMIT_PER_EMAIL", default="3/hour"
)

# --- Payments (wallet recharges) -----------------------------------------------------------------
PAYMENT_PROVIDER = env.str("PAYMENT_PROVIDER", default="sandbox")  # live mode: sandbox | asaas
ASAAS_API_KEY = env.str("ASAAS_API_KEY", default="")
ASAAS_BASE_URL = env.str("ASAAS_BASE_URL", default="https://api-sandbox.asaas.com/v3")
ASAAS_WEBHOOK_TOKEN = env.str("ASAAS_WEBHOOK_TOKEN", default="")
# Who is e-mailed when a payment notification is rejected (comma-separated). Empty: the active
# support staff of the panel (superusers, and staff members without a team).
SUPPORT_ALERT_EMAILS = [
    address.strip() for address in env.list("SUPPORT_ALERT_EMAILS", default=[]) if address.strip()
]
# The receiver of sandbox PIX charges (a random EVP key: no real account behind it).
PIX_RECEIVER_KEY = env.str("PIX_RECEIVER_KEY", default="7d9f0335-8dcc-4054-9bf9-0dbd61d36906")
PIX_RECEIVER_NAME = env.str("PIX_RECEIVER_NAME", default="AGENCY BACKOFFICE")
PIX_RECEIVER_CITY = env.str("PIX_RECEIVER_CITY", default="SAO PAULO")
BOLETO_BENEFICIARY_NAME = env.str("BOLETO_BENEFICIARY_NAME", default="Agency Back Office Ltda")
BOLETO_BENEFICIARY_DOCUMENT = env.str("BOLETO_BENEFICIARY_DOCUMENT", default="00.000.000/0001-91")
# Withdrawals to the team's own account (docs/withdrawals.md): the smallest one, and how much a
# team may withdraw per São Paulo calendar day and mode (pending and completed ones count).
WALLET_WITHDRAWAL_MIN_AMOUNT = Decimal(env.str("WALLET_WITHDRAWAL_MIN_AMOUNT", default="10.00"))
WALLET_WITHDRAWAL_DAILY_LIMIT = Decimal(
    env.str("WALLET_WITHDRAWAL_DAILY_LIMIT", default="50000.00")
)
# A transfer request whose answer was lost is sent again only after this long, and only if the
# provider still has no transfer with the withdrawal's id (longer than any request can last).
WITHDRAWAL_RESEND_AFTER = timedelta(minutes=env.int("WITHDRAWAL_RESEND_AFTER_MINUTES", default=5))
# The wallet's pending amount (what the team's pending holds will cost) is the bookings' to
# tell, and bookings sit above the wallet (the layers in pyproject.toml): the wallet finds it by
# this name, once per process (wallet/selectors.py). It is `f(team_ref, *, live_mode)`, an
# expression of that amount in an outer query whose field `team_ref` is the team's id, so that
# a balance stays one query.
WALLET_PENDING_HOLDS_SUBQUERY = "bookings.selectors.pending_holds_total_of"
# Likewise the booking behind a ledger movement (its locator, lead passenger and route, on the
# wallet statement): `f(*, team, live_mode, reference_ids) -> {reference_id: MovementBooking}`,
# one query for a page of movements (wallet/display.py).
WALLET_LEDGER_BOOKINGS = "bookings.display.ledger_bookings"

# --- Flights -------------------------------------------------------------------------------------
FX_PROVIDER = env.str("FX_PROVIDER", default="static")  # static | ptax (Banco Central PTAX)
# BRL per unit; the fallback of PTAX too. Override as JSON: FX_STATIC_RATES='{"USD": "5.50"}'.
FX_STATIC_RATES = env.json(
    "FX_STATIC_RATES",
    default={
        "USD": "5.3500",
        "EUR": "6.2000",
        "GBP": "7.1000",
        "CHF": "6.6000",
        "CAD": "3.8500",
        "ARS": "0.0055",
        "CLP": "0.0057",
        "COP": "0.0013",
        "PEN": "1.4200",
        "UYU": "0.1300",
        "PYG": "0.00071",
        "BOB": "0.7700",
        "MXN": "0.2900",
    },
)


def fx_margin_percent(text: str) -> Decimal:
    """FX_MARGIN_PERCENT read strictly: 0 to 20 (agencies.pricing.FX_MARGIN_MAX_PERCENT), at
    most 2 decimals, e.g. "2.5"."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or not 0 <= value <= 20 or value != value.quantize(Decimal("0.01")):
        raise ImproperlyConfigured(
            f"FX_MARGIN_PERCENT is a percentage from 0 to 20 with at most 2 decimals, not {text!r}"
        )
    return value.quantize(Decimal("0.01"))


# The cost of foreign exchange (bank spread, IOF) on a fare in another currency than BRL: its
# exchange_rate_used is the reference rate above × (1 + FX_MARGIN_PERCENT / 100). A team may
# have its own in the panel's pricing (docs/decisions.md "Exchange rates").
FX_MARGIN_PERCENT = fx_margin_percent(env.str("FX_MARGIN_PERCENT", default="0"))
DUFFEL_BASE_URL = env.str("DUFFEL_BASE_URL", default="https://api.duffel.com")
# Live mode without a connected supplier refuses to search or book (supplier_not_connected):
# real wallet money must not buy sandbox tickets. Demos and staging may allow the sandbox in
# live mode explicitly; DJANGO_DEBUG never implies it.
FLIGHTS_LIVE_SANDBOX = env.bool("FLIGHTS_LIVE_SANDBOX", default=False)
