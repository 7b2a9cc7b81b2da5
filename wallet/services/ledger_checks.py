"""The periodic ledger check: run `ledger_problems`, record the run (a `LedgerCheck` row), and
alert support when it finds something, once per broken wallet (the same wallets found again an
hour later are not news, whatever their figures say by then; another wallet is). The e-mail is
sent by a task after the commit (`wallet.tasks.send_ledger_alert`), which stamps
`alert_sent_at` under the row's lock."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from wallet.ledger_check import ledger_problems
from wallet.models import LedgerCheck, Wallet
from wallet.tasks import send_ledger_alert as send_ledger_alert_task

# Runs are kept this long; the last clean one is kept whatever its age, so that the time since it
# stays known however long the ledger stays broken.
LEDGER_CHECK_RETENTION = timedelta(days=30)


def ledger_check_run(*, now: datetime | None = None) -> LedgerCheck:
    """Check every live wallet against its ledger and record the run. Queues support's alert
    when a wallet disagrees that the previous run found consistent."""
    now = now or timezone.now()
    wallets = Wallet.objects.count()
    problems = ledger_problems()
    text = "\n".join(f"wallet of {p.team_id}: {p.message}" for p in problems)
    teams = sorted({p.team_id for p in problems})
    with transaction.atomic():
        previous = LedgerCheck.objects.order_by("-checked_at", "-pk").first()
        check = LedgerCheck.objects.create(
            checked_at=now, consistent=not problems, wallets=wallets, problems=text, teams=teams
        )
        news = set(teams) - set(previous.teams if previous is not None else [])
        if news:
            send_ledger_alert_task.delay_on_commit(check.pk)  # type: ignore[attr-defined]  # DjangoTask
        _forget_old_checks(now=now)
    return check


def _forget_old_checks(*, now: datetime) -> None:
    last_clean = (
        LedgerCheck.objects.filter(consistent=True).order_by("-checked_at").values("pk").first()
    )
    old = LedgerCheck.objects.filter(checked_at__lt=now - LEDGER_CHECK_RETENTION)
    if last_clean is not None:
        old = old.exclude(pk=last_clean["pk"])
    old.delete()


def last_clean_ledger_check() -> datetime | None:
    """When the ledger was last found clean (None: never)."""
    return (
        LedgerCheck.objects.filter(consistent=True)
        .order_by("-checked_at")
        .values_list("checked_at", flat=True)
        .first()
    )
