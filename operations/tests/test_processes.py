"""What only separate processes show: prometheus_client's multiprocess mode (one process's
requests in another's scrape, as gunicorn's workers and Celery's pool processes are), and the
JSON log lines LOG_FORMAT=json asks for. Each runs `python -c` with the test settings (SQLite
in memory: nothing here needs a table)."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from operations.tests.scrape import TOKEN

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = """
import django
django.setup()
from django.test.utils import setup_test_environment
setup_test_environment()
from django.test import Client
"""


def run(code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        **env,
    }
    return subprocess.run(  # noqa: S603 - a fixed argument list
        [sys.executable, "-c", PRELUDE + code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_a_scrape_adds_up_every_process_of_the_multiprocess_directory(tmp_path):
    shared = {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "METRICS_TOKEN": TOKEN}
    for _ in range(2):  # two processes, as two gunicorn workers
        run("assert Client().get('/api/v1/nowhere').status_code == 404", **shared)
    scraped = run(
        f"print(Client().get('/metrics', HTTP_AUTHORIZATION='Bearer {TOKEN}').content.decode())",
        **shared,
    ).stdout
    from prometheus_client.parser import text_string_to_metric_families

    counts = {
        tuple(sorted(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(scraped)
        for sample in family.samples
        if sample.name == "agency_http_request_duration_seconds_count"
    }
    assert counts[(("method", "GET"), ("route", "api-not-found"), ("status", "404"))] == 2
    assert list(tmp_path.glob("histogram_*.db"))  # each process's own file


def test_json_logs_carry_the_request_id():
    request_id = uuid.uuid4().hex
    result = run(
        f"Client().get('/api/v1/nowhere', HTTP_X_REQUEST_ID='{request_id}')", LOG_FORMAT="json"
    )
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    [logged] = [line for line in lines if line.get("request_id") == request_id]
    assert logged["message"] == "Not Found: /api/v1/nowhere"
    assert logged["level"] == "WARNING" and logged["logger"] == "django.request"
    assert "time" in logged


def test_text_logs_stay_lines_for_people():
    request_id = uuid.uuid4().hex
    result = run(f"Client().get('/api/v1/nowhere', HTTP_X_REQUEST_ID='{request_id}')")
    assert f"WARNING [{request_id}] django.request: Not Found: /api/v1/nowhere" in result.stderr
