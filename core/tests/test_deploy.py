"""Production settings are secure unless the environment opts out, `check --deploy` is clean
with them, and gunicorn's access log (config/gunicorn.py) never prints a query string."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from django.test import Client

from tests.kit.stack import PLAIN_HTTP_ENV, free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
SECRET = "deploy-tests-only-" + "k7Qz" * 10


def production_env(**overrides) -> dict:
    """The environment of a production process: nothing of ours inherited, no .env file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_ENV_FILE": "/nonexistent/.env",
            "DJANGO_SECRET_KEY": SECRET,
            "DJANGO_ALLOWED_HOSTS": "agency.example,127.0.0.1",
            "PYTHONPATH": str(ROOT),
            **overrides,
        }
    )
    return env


def production_settings(**overrides) -> dict:
    names = [
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_PROXY_SSL_HEADER",
        "BEHIND_TLS_PROXY",
    ]
    code = (
        "import django, json; django.setup(); from django.conf import settings;"
        f"print(json.dumps({{n: getattr(settings, n) for n in {names!r}}}))"
    )
    result = subprocess.run(  # noqa: S603 - fixed argument list
        [sys.executable, "-c", code],
        cwd="/",
        env=production_env(**overrides),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def check_deploy(**overrides) -> subprocess.CompletedProcess:
    return subprocess.run(  # noqa: S603 - fixed argument list
        [sys.executable, str(ROOT / "manage.py"), "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(**overrides),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_is_secure_without_any_setting():
    assert production_settings() == {
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "BEHIND_TLS_PROXY": True,
    }


def test_the_environment_opts_out_explicitly():
    assert production_settings(**PLAIN_HTTP_ENV) == {
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_PROXY_SSL_HEADER": None,
        "BEHIND_TLS_PROXY": False,
    }


def test_check_deploy_is_clean_with_production_settings():
    result = check_deploy()
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_of_each_opt_out():
    result = check_deploy(**PLAIN_HTTP_ENV)
    assert result.returncode != 0
    for warning in ("W004", "W008", "W012", "W016"):
        assert f"security.{warning}" in result.stderr


def test_the_access_log_prints_paths_without_query_strings_or_referers(tmp_path):
    port = free_port()
    server = subprocess.Popen(  # noqa: S603 - fixed argument list
        [
            *(sys.executable, "-m", "gunicorn", "-c", "python:config.gunicorn", "config.wsgi"),
            *(f"--bind=127.0.0.1:{port}", "--workers=1"),
        ],
        cwd=ROOT,
        env=production_env(**PLAIN_HTTP_ENV),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def answered():
            try:
                return requests.get(f"{base}/api/v1/ping", timeout=2).status_code == 404
            except requests.RequestException:  # not listening yet, or the worker still booting
                return False

        assert wait_until(answered, timeout=60), "gunicorn did not start"
        # A path that reaches no database (this process has none): the log line is the point.
        response = requests.get(
            f"{base}/api/v1/elsewhere/rch_01/pdf?token=secret-in-the-query",
            headers={"Referer": f"{base}/api/v1/boleto/rch_01?token=secret-in-the-referer"},
            timeout=10,
        )
        request_id = response.headers["X-Request-Id"]
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    log = output.decode()
    (line,) = [line for line in log.splitlines() if '"GET /api/v1/elsewhere/' in line]
    assert "Not Found: /api/v1/elsewhere/rch_01/pdf\n" in log  # Django's own warning
    assert '"GET /api/v1/elsewhere/rch_01/pdf HTTP/1.1" 404' in line and request_id in line
    assert "secret-in" not in log and "token=" not in log


@pytest.mark.django_db
def test_the_https_redirect_spares_the_load_balancers_health_check(settings):
    settings.SECURE_SSL_REDIRECT = True
    client = Client()
    assert client.get("/health").status_code == 200
    redirected = client.get("/api/v1/wallet/balance")
    assert redirected.status_code == 301
    assert redirected["Location"] == "https://testserver/api/v1/wallet/balance"
