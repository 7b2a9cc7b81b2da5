from celery import shared_task


@shared_task
def expire_recharges() -> int:
    from wallet.services import recharges_expire_due

    return recharges_expire_due()


# A mail server's temporary refusal is retried here; a lost message, by the sweep below.
@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def send_notification_alert(notification_id: int) -> bool:
    """E-mail support about a rejected payment notification (once: the row's alert_sent_at)."""
    from wallet.emails import notification_alert_send

    return notification_alert_send(notification_id=notification_id)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def send_reversal_alert(reversal_id: str) -> bool:
    """E-mail support about a reversal of a recharge (once: the row's alert_sent_at)."""
    from wallet.emails import reversal_alert_send

    return reversal_alert_send(reversal_id=reversal_id)


@shared_task(ignore_result=True)
def requeue_notification_alerts() -> int:
    """Support's alerts (rejected notifications, reversals) whose message was lost."""
    from wallet.emails import notification_alerts_requeue, reversal_alerts_requeue

    return notification_alerts_requeue() + reversal_alerts_requeue()


@shared_task(ignore_result=True)
def check_ledger() -> bool:
    """`manage.py check_ledger`, periodic (beat): records the run, alerts support on problems."""
    from wallet.services import ledger_check_run

    return ledger_check_run().consistent


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def send_ledger_alert(check_id: int) -> bool:
    """E-mail support the problems a ledger check found (once: the row's alert_sent_at)."""
    from wallet.emails import ledger_alert_send

    return ledger_alert_send(check_id=check_id)


@shared_task(ignore_result=True)
def check_withdrawals() -> int:
    """Withdrawals whose transfer is still open, read back from the provider (beat); and the
    e-mails of settled ones whose message was lost, queued again."""
    from wallet.emails import withdrawal_emails_requeue
    from wallet.services import withdrawals_check_open

    withdrawal_emails_requeue()
    return withdrawals_check_open()


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def send_withdrawal_email(withdrawal_id: str) -> bool:
    """E-mail the team how its withdrawal ended (once: the row's email_sent_at)."""
    from wallet.emails import withdrawal_email_send

    return withdrawal_email_send(withdrawal_id=withdrawal_id)
