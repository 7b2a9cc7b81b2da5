"""Project-level contracts: settings refuse an insecure start, the schema and docs, health,
ids, and domain events."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import transaction

from core.ids import new_id
from webhooks.models import Event
from webhooks.services import event_record

ROOT = Path(__file__).resolve().parents[2]


def start_django(env_overrides: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_ENV_FILE": "/nonexistent/.env",
            **env_overrides,
        }
    )
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd="/",
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("secret", [None, "", "insecure-development-key-change-me"])
def test_refuses_to_start_with_debug_off_and_no_real_secret(secret, tmp_path):
    overrides = {"DJANGO_DEBUG": "false"}
    if secret is not None:
        overrides["DJANGO_SECRET_KEY"] = secret
    result = start_django(overrides)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is missing or is the insecure default" in result.stderr


def test_starts_with_a_real_secret():
    result = start_django({"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50})
    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout


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


def test_ids_are_ulids_as_python_ulid_encodes_them():
    from ulid import ULID

    from core.ids import ulid_text

    for _ in range(200):
        reference = ULID()
        assert ulid_text(int(reference)) == str(reference).lower()
    stamp = ULID.from_str(new_id("evt")[4:].upper()).milliseconds
    assert abs(stamp - time.time() * 1000) < 5000


def test_ids_are_prefixed_url_safe_unique_and_time_sortable():
    first = new_id("txn")
    time.sleep(0.002)
    later = [new_id("txn") for _ in range(1000)]
    assert first.startswith("txn_") and len(first) == 30
    assert re.fullmatch(r"txn_[0-9a-z]{26}", first)
    assert len(set(later)) == 1000
    assert all(first < other for other in later)
    with pytest.raises(ValueError):
        from core.ids import PrefixedIdField

        PrefixedIdField(prefix="nope")


def test_sibling_ids_share_the_time_of_their_id_and_are_ulids():
    from ulid import ULID

    from core.ids import id_time_part, sibling_id

    search = new_id("orq")
    offers = [sibling_id("off", of=search) for _ in range(500)]
    assert len(set(offers)) == 500
    for offer in offers:
        assert re.fullmatch(r"off_[0-9a-hjkmnp-tv-z]{26}", offer)
        assert id_time_part(offer) == id_time_part(search) == search[4:14]
        assert ULID.from_str(offer[4:].upper()).milliseconds == (
            ULID.from_str(search[4:].upper()).milliseconds
        )
    # Given random bits: the same id each time (how a booking re-derives segment ids).
    assert sibling_id("seg", of=search, random_bits=2**80 - 1) == f"seg_{search[4:14]}" + "z" * 16
    assert sibling_id("seg", of=search, random_bits=0) == f"seg_{search[4:14]}" + "0" * 16


@pytest.mark.django_db(transaction=True)
def test_event_record_refuses_to_run_outside_a_transaction(team):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        event_record(team=team, live_mode=True, type="booking.created", data_object={})
    assert not Event.objects.filter(type="booking.created").exists()


@pytest.mark.django_db
def test_event_record_writes_in_the_callers_transaction(team):
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        event_record(team=team, live_mode=True, type="booking.created", data_object={"a": 1})
        1 / 0  # noqa: B018 - the change fails after the event was written
    assert not Event.objects.filter(type="booking.created").exists()
    with transaction.atomic():
        event = event_record(
            team=team,
            live_mode=False,
            type="booking.updated",
            data_object={"id": "ord_1"},
            previous_attributes={"status": "pending"},
        )
    stored = Event.objects.get(pk=event.pk)
    assert stored.id.startswith("evt_") and stored.api_version == "2026-11-22"
    assert stored.previous_attributes == {"status": "pending"} and stored.live_mode is False


@pytest.mark.django_db
def test_event_record_rejects_unknown_types(team):
    with pytest.raises(ValueError), transaction.atomic():
        event_record(team=team, live_mode=True, type="booking.exploded", data_object={})
