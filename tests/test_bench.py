"""bin/bench from a fresh clone: the benches must not rely on anything git does not carry
(bench/results/ is git-ignored, so a fresh clone does not have it)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
ON_POSTGRESQL = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def admin_url() -> str:
    """The server the benches create their scratch databases on: PostgreSQL itself, also when
    the suite runs through PgBouncer (DATABASE_DIRECT_URL), as the benches measure it."""
    if settings.DATABASE_DIRECT_URL:
        return urlunsplit(urlsplit(settings.DATABASE_DIRECT_URL)._replace(path="/postgres"))
    database = settings.DATABASES["default"]
    return f"postgres://{database['USER']}@{database['HOST']}:{database['PORT'] or 5432}/postgres"


def fresh_checkout(destination: Path) -> Path:
    """The files git tracks, as `git clone` would lay them out (untracked files left behind)."""
    tracked = subprocess.run(  # noqa: S603 - fixed argument list
        [shutil.which("git") or "git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, tracked):
        source = ROOT / name.decode()
        if source.is_file():
            target = destination / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


@pytest.mark.skipif(not ON_POSTGRESQL, reason="the benches need PostgreSQL (DATABASE_URL)")
@pytest.mark.timeout(180)
def test_wallet_bench_runs_in_a_fresh_checkout_without_bench_results(tmp_path):
    checkout = fresh_checkout(tmp_path / "clone")
    assert not (checkout / "bench" / "results").exists()
    env = {**os.environ, "DATABASE_URL": admin_url()}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [
            sys.executable,
            "bench/wallet_debits.py",
            "--runners",
            "threads",
            "--workers",
            "1",
            "--seconds",
            "1",
        ],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert (checkout / "bench" / "results" / "wallet_debits.md").is_file()


@pytest.mark.skipif(not ON_POSTGRESQL, reason="the benches need PostgreSQL (DATABASE_URL)")
@pytest.mark.timeout(240)
@pytest.mark.parametrize(
    "bench, arguments",
    [
        ("search", ["--requests", "2"]),
        ("bookings", ["--bookings", "2", "--threads", "1"]),
    ],
)
def test_django_benches_run_on_production_settings(tmp_path, bench, arguments):
    """They use Django's test client on the production settings: an HTTPS redirect or a missing
    setting shows up here, not in the middle of bin/bench."""
    checkout = fresh_checkout(tmp_path / "clone")
    env = {**os.environ, "DATABASE_URL": admin_url()}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(  # noqa: S603 - fixed argument list
        [sys.executable, f"bench/{bench}.py", *arguments],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=230,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert (checkout / "bench" / "results" / f"{bench}.md").is_file()
