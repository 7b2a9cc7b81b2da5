"""Support's alerts. A rejected payment notification: the rejected ProviderNotification row is
written in the transaction that rejects it (so the alert is never lost); a Celery task sends
the e-mail and stamps `alert_sent_at` under the row's lock (so it is sent once); a periodic
sweep queues again any alert whose message was lost. A ledger check that found problems
(`ledger_alert_send`) the same way: its LedgerCheck row first, then the e-mail once; and a
reversal of a recharge (`reversal_alert_send`): its Reversal row, then the e-mail once.

And the team's e-mail when a withdrawal ends (completed, or failed and credited back): queued by
the transaction that settles it, sent once (`withdrawal_email_send`, the row's email_sent_at)."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from core.emails import email_message
from core.i18n import sao_paulo_time_for_people
from core.money import money_display
from wallet.models import LedgerCheck, ProviderNotification, Reversal, Withdrawal

# How long the alert queued at a rejection has to arrive before the sweep queues it again.
ALERT_GRACE = timedelta(minutes=2)


def support_recipients() -> list[str]:
    """SUPPORT_ALERT_EMAILS; without it, the e-mail addresses of the active support staff
    (superusers and staff members without a team: the people who see every team)."""
    if settings.SUPPORT_ALERT_EMAILS:
        return list(settings.SUPPORT_ALERT_EMAILS)
    support = get_user_model().objects.filter(
        Q(is_superuser=True) | Q(is_staff=True, team__isnull=True), is_active=True
    )
    return sorted({user.email for user in support if user.email})


def notification_alert_send(*, notification_id: int) -> bool:
    """E-mail support about a rejected notification, once. Returns whether it was sent now."""
    with transaction.atomic():
        row = (
            ProviderNotification.objects.select_for_update(of=("self",))
            .select_related("recharge__team")
            .filter(pk=notification_id, state=ProviderNotification.State.REJECTED)
            .first()
        )
        if row is None or row.alert_sent_at is not None:
            return False
        recipients = support_recipients()
        if recipients:
            # Support's alert: Portuguese (the people's language), from the service itself.
            email_message(
                template="payment_notification_rejected",
                subject=lambda: (
                    gettext("Payment notification rejected: %(reason)s (%(payment)s)")
                    % {
                        "reason": row.get_reason_display(),
                        "payment": f"{row.provider.capitalize()} {row.payment_id or row.event_id}",
                    }
                ),
                context=lambda: {
                    "notification": row,
                    "received_at": sao_paulo_time_for_people(row.received_at),
                    "recharge": row.recharge,
                    "panel_url": settings.PUBLIC_BASE_URL.rstrip("/")
                    + reverse("admin:wallet_providernotification_change", args=[row.pk]),
                },
                to=recipients,
            ).send()
        # Stamped even with nobody to write to: the row stays visible in the panel, and the
        # sweep does not retry forever. alert_sent_to says who was told (empty: nobody).
        row.alert_sent_at = timezone.now()
        row.alert_sent_to = ", ".join(recipients)[:500]
        row.save(update_fields=["alert_sent_at", "alert_sent_to"])
    return True


def notification_alerts_requeue(*, now=None) -> int:
    """Queue again the alerts of rejected notifications not yet sent: the broker was down at
    the rejection, or the mail server refused. Returns how many were queued."""
    from wallet.tasks import send_notification_alert

    now = now or timezone.now()
    waiting = list(
        ProviderNotification.objects.filter(
            state=ProviderNotification.State.REJECTED,
            alert_sent_at__isnull=True,
            received_at__lte=now - ALERT_GRACE,
        ).values_list("pk", flat=True)
    )
    for notification_id in waiting:
        send_notification_alert.delay(notification_id)
    return len(waiting)


def ledger_alert_send(*, check_id: int) -> bool:
    """E-mail support the problems a ledger check found, once. Returns whether it was sent now."""
    with transaction.atomic():
        check = (
            LedgerCheck.objects.select_for_update()
            .filter(pk=check_id, consistent=False, alert_sent_at__isnull=True)
            .first()
        )
        if check is None:
            return False
        recipients = support_recipients()
        if recipients:
            email_message(
                template="ledger_problems",
                subject=lambda: (
                    gettext("Ledger check: %(count)d problem(s) found")
                    % {"count": len(check.problems.splitlines())}
                ),
                context=lambda: {
                    "check": check,
                    "checked_at": sao_paulo_time_for_people(check.checked_at),
                    "problems": check.problems.splitlines(),
                },
                to=recipients,
            ).send()
        check.alert_sent_at = timezone.now()
        check.alert_sent_to = ", ".join(recipients)[:500]
        check.save(update_fields=["alert_sent_at", "alert_sent_to"])
    return True


def reversal_alert_send(*, reversal_id: str) -> bool:
    """E-mail support about a reversal of a recharge (what was debited, the debt, the wallet
    restricted), once. Returns whether it was sent now."""
    with transaction.atomic():
        reversal = (
            Reversal.objects.select_for_update(of=("self",))
            .select_related("recharge", "team__wallet", "transaction")
            .filter(pk=reversal_id, alert_sent_at__isnull=True)
            .first()
        )
        if reversal is None:
            return False
        recipients = support_recipients()
        if recipients:
            email_message(
                template="reversal_alert",
                subject=lambda: (
                    gettext("Recharge reversed after credit: %(reason)s, %(team)s (%(recharge)s)")
                    % {
                        "reason": reversal.get_reason_display(),
                        "team": reversal.team.name,
                        "recharge": reversal.recharge_id,
                    }
                ),
                context=lambda: {
                    "reversal": reversal,
                    "recharge": reversal.recharge,
                    "paid": sao_paulo_time_for_people(reversal.recharge.paid_at)
                    if reversal.recharge.paid_at
                    else "",
                    "wallet": reversal.team.wallet,
                    "panel_url": settings.PUBLIC_BASE_URL.rstrip("/")
                    + reverse("admin:wallet_reversal_change", args=[reversal.pk]),
                },
                to=recipients,
            ).send()
        reversal.alert_sent_at = timezone.now()
        reversal.alert_sent_to = ", ".join(recipients)[:500]
        reversal.save(update_fields=["alert_sent_at", "alert_sent_to"])
    return True


def reversal_alerts_requeue(*, now=None) -> int:
    """Queue again the alerts of reversals not yet sent. Returns how many were queued."""
    from wallet.tasks import send_reversal_alert

    now = now or timezone.now()
    waiting = list(
        Reversal.objects.filter(
            alert_sent_at__isnull=True, created_at__lte=now - ALERT_GRACE
        ).values_list("pk", flat=True)
    )
    for reversal_id in waiting:
        send_reversal_alert.delay(reversal_id)
    return len(waiting)


# --- Withdrawals: the team is told how each one ended ---------------------------------------


def withdrawal_recipients(withdrawal: Withdrawal) -> list[str]:
    """The team's notification address; without one, its active users."""
    team = withdrawal.team
    if team.notification_email:
        return [team.notification_email]
    return sorted({u.email for u in team.users.filter(is_active=True) if u.email})


def withdrawal_email_message(*, withdrawal: Withdrawal, to: list[str]):
    """The e-mail of a completed, failed or cancelled withdrawal, built and not sent, in the
    team's language (core.emails)."""
    completed = withdrawal.status == Withdrawal.Status.COMPLETED

    def subject() -> str:
        amount = money_display(withdrawal.amount)
        if completed:
            return gettext("Withdrawal of %(amount)s completed") % {"amount": amount}
        return gettext("Withdrawal of %(amount)s failed: credited back") % {"amount": amount}

    return email_message(
        template="withdrawal",
        subject=subject,
        context=lambda: {
            "withdrawal": withdrawal,
            "completed": completed,
            "amount": money_display(withdrawal.amount),
            "key": f"{withdrawal.get_pix_key_type_display()} {withdrawal.pix_key}",
            "when": sao_paulo_time_for_people(
                (withdrawal.completed_at if completed else withdrawal.failed_at)
                or withdrawal.updated_at
            ),
            "panel_url": settings.PUBLIC_BASE_URL.rstrip("/")
            + reverse("admin:wallet_withdrawal_change", args=[withdrawal.pk]),
        },
        to=to,
        team=withdrawal.team,
        test_mode=not withdrawal.live_mode,
        from_service=True,  # the service tells the agency: replies go to support
    )


def withdrawal_email_send(*, withdrawal_id: str) -> bool:
    """E-mail the team how its withdrawal ended, once (the row's email_sent_at). Returns
    whether it was sent now."""
    with transaction.atomic():
        withdrawal = (
            Withdrawal.objects.select_for_update(of=("self",))
            .select_related("team")
            .filter(pk=withdrawal_id)
            .first()
        )
        if withdrawal is None or not withdrawal.is_final or withdrawal.email_sent_at:
            return False
        recipients = withdrawal_recipients(withdrawal)
        if recipients:
            withdrawal_email_message(withdrawal=withdrawal, to=recipients).send()
        withdrawal.email_sent_at = timezone.now()
        withdrawal.save(update_fields=["email_sent_at"])
    return True


def withdrawal_emails_requeue(*, now=None) -> int:
    """Queue again the e-mails of withdrawals settled in the last day but not yet sent: the
    broker was down when they were settled, or the mail server refused. Returns how many."""
    from wallet.tasks import send_withdrawal_email

    now = now or timezone.now()
    settled = Q(completed_at__range=(now - timedelta(days=1), now - ALERT_GRACE)) | Q(
        failed_at__range=(now - timedelta(days=1), now - ALERT_GRACE)
    )
    waiting = list(
        Withdrawal.objects.filter(settled, email_sent_at__isnull=True).values_list("pk", flat=True)
    )
    for withdrawal_id in waiting:
        send_withdrawal_email.delay(withdrawal_id)
    return len(waiting)
