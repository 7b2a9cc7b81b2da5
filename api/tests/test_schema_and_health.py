"""The schema and docs are served and generate cleanly; /health checks the database, the cache
and the broker."""

import threading

import pytest
from celery import current_app
from django.core.management import call_command


def test_schema_generates_without_warnings(tmp_path):
    # --fail-on-warn turns any drf-spectacular warning into a non-zero exit.
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(tmp_path / "s.yml"))
    schema = (tmp_path / "s.yml").read_text()
    assert "bearerAuth" in schema or "paths: {}" in schema


@pytest.mark.django_db
def test_schema_and_docs_are_served(anon_client):
    schema = anon_client.get("/api/v1/schema", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert schema.json()["info"]["title"] == "Agency back office API"
    docs = anon_client.get("/api/v1/docs")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content and b"/api/v1/schema" in docs.content


@pytest.mark.django_db
def test_health_checks_the_database_and_cache(anon_client, settings):
    body = anon_client.get("/health").json()
    assert body["checks"]["database"] == "ok" and body["checks"]["cache"] == "ok"
    assert body["status"] == "ok"
    assert ("broker" in body["checks"]) == bool(settings.REDIS_URL)


@pytest.mark.django_db
def test_health_reports_an_unreachable_broker(anon_client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    settings.CELERY_BROKER_URL = settings.REDIS_URL
    from config.celery_app import app

    app.conf.broker_url = settings.REDIS_URL
    try:
        response = anon_client.get("/health")
    finally:
        app.conf.broker_url = None
        app.config_from_object("django.conf:settings", namespace="CELERY")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"] == "unavailable"


def test_the_broker_probe_uses_the_project_celery_app_in_any_thread():
    """The health check finds the Celery app as celery's `current_app` (api/apis.py does not
    import config): config/__init__.py loads config/celery_app.py with Django, and Celery's Django
    fixup makes that app the default of every thread, not only of the one that loaded it."""
    from config.celery_app import app

    seen = []
    thread = threading.Thread(target=lambda: seen.append(current_app._get_current_object()))
    thread.start()
    thread.join(timeout=10)
    assert seen == [app]
    assert current_app._get_current_object() is app
