"""The periodic ledger check (`wallet.tasks.check_ledger`, from beat): each run is recorded,
the last clean one is what the metrics report, and support hears of problems once."""

from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.conf import settings
from django.core import mail

from config.celery_app import app
from tests.kit.clock import NOW
from tests.kit.factories import fund
from wallet.models import LedgerCheck, Wallet
from wallet.services import last_clean_ledger_check
from wallet.services.ledger_checks import LEDGER_CHECK_RETENTION
from wallet.tasks import check_ledger

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("frozen_time", "support_alerts"),
]


def run_check(django_capture_on_commit_callbacks) -> bool:
    with django_capture_on_commit_callbacks(execute=True):
        return check_ledger.delay().get()


def test_beat_runs_the_check_hourly():
    entry = settings.CELERY_BEAT_SCHEDULE["check-ledger"]
    assert entry["task"] == "wallet.tasks.check_ledger" and entry["task"] in app.tasks
    assert entry["schedule"].minute == {41} and len(entry["schedule"].hour) == 24


def test_a_clean_run_records_its_time(team, other_team, django_capture_on_commit_callbacks):
    fund(team, "500.00")
    assert last_clean_ledger_check() is None
    assert run_check(django_capture_on_commit_callbacks) is True
    check = LedgerCheck.objects.get()
    assert check.consistent and check.wallets == 2 and check.problems == ""
    assert last_clean_ledger_check() == NOW
    assert mail.outbox == []


def test_a_corrupted_ledger_alerts_support_once(
    team, other_team, support_alerts, django_capture_on_commit_callbacks
):
    fund(team, "500.00")
    run_check(django_capture_on_commit_callbacks)  # clean, at NOW
    Wallet.objects.filter(team=team).update(balance=Decimal("400.00"))  # bypass the ledger
    for minutes in (60, 120):  # found twice, by two hourly runs
        with time_machine.travel(NOW + timedelta(minutes=minutes), tick=False):
            assert run_check(django_capture_on_commit_callbacks) is False
            fund(team, "100.00", reference_id=f"rch_{minutes}")  # the figures move on
    [alert] = mail.outbox
    assert alert.to == [support_alerts]
    assert "1 problem" in alert.subject
    assert f"wallet of {team.id}: balance 400.00 != credits - debits 500" in alert.body
    assert other_team.id not in alert.body
    # When, as every e-mail writes an instant: São Paulo time, labelled once, Brasília's.
    assert "A verificação do razão de 22 de novembro de 2026, 13:00 (horário de Brasília)" in (
        alert.body
    )
    assert alert.body.count("(horário de Brasília)") == 1 and "-03" not in alert.body
    first, second = LedgerCheck.objects.filter(consistent=False).order_by("checked_at")
    assert first.alert_sent_at is not None and first.alert_sent_to == support_alerts
    assert first.problems != second.problems and first.teams == second.teams == [team.id]
    assert second.alert_sent_at is None  # the same wallet: no news
    assert last_clean_ledger_check() == NOW  # the clean run before the corruption


def test_new_problems_alert_again(team, other_team, django_capture_on_commit_callbacks):
    fund(team, "500.00")
    fund(other_team, "300.00", reference_id="rch_other")
    Wallet.objects.filter(team=team).update(balance=Decimal("400.00"))
    run_check(django_capture_on_commit_callbacks)
    Wallet.objects.filter(team=other_team).update(balance=Decimal("1.00"))
    with time_machine.travel(NOW + timedelta(hours=1), tick=False):
        run_check(django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2
    assert other_team.id in mail.outbox[1].body


def test_old_runs_are_forgotten_but_the_last_clean_one(team, django_capture_on_commit_callbacks):
    fund(team, "500.00")
    run_check(django_capture_on_commit_callbacks)  # clean, at NOW
    Wallet.objects.filter(team=team).update(balance=Decimal("400.00"))
    with time_machine.travel(NOW + timedelta(hours=1), tick=False):
        run_check(django_capture_on_commit_callbacks)
    later = NOW + LEDGER_CHECK_RETENTION + timedelta(hours=2)
    with time_machine.travel(later, tick=False):
        run_check(django_capture_on_commit_callbacks)
    assert [(c.checked_at, c.consistent) for c in LedgerCheck.objects.order_by("checked_at")] == [
        (NOW, True),  # kept: the last clean run
        (later, False),
    ]
