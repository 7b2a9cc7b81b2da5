"""Inbound payment notifications, verified at the source.

A notification (already authenticated by the provider's token) is only a claim. The payment it
names is read back from the provider, and we act on the provider's answer alone:

- a payment claim credits the recharge only when the provider says the payment is received or
  confirmed, for exactly the recharge amount, with our recharge id as its external reference and
  the recharge's own payment id; what is credited is the recharge amount, never a number from
  the notification;
- a failure claim marks a pending recharge failed only when the provider says the payment was
  deleted, refunded or charged back (a completed recharge is never failed);
- a reversal claim (refunded, partially refunded, charged back) of a recharge already credited
  takes back what the provider says was refunded or charged back and was not taken back yet
  (wallet.services.reversals: a debit, the rest as the wallet's debt; support alerted); a
  payment claim of a credited recharge whose chargeback the provider no longer reports gives
  it back (the reversal cancelled, credited back once); of a recharge not credited, a reversal
  claim is a failure claim;
- anything else credits nothing: the notification is stored as rejected with its reason, and
  support is alerted by e-mail once.

Each provider event id is applied once (a unique constraint). A provider that cannot answer the
read back raises ProviderError before anything is stored, so the event id stays unapplied and the
provider's own retry brings it back.

Transfer events (withdrawals) the same way: applied once per event id, the transfer read back and
followed (wallet.services.withdrawals); a transfer the provider does not know, or that no
withdrawal of ours made, is rejected and support alerted."""

import logging
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction

from core.exceptions import Conflict
from core.money import fmt
from wallet.models import ProviderNotification, Recharge, Withdrawal
from wallet.providers import Notification, PaymentProvider, ProviderPayment, get_provider
from wallet.services.recharges import recharge_complete, recharge_fail, recharge_payer_record
from wallet.services.reversals import recharge_reversals_reconcile
from wallet.services.withdrawals import withdrawal_apply_transfer
from wallet.tasks import send_notification_alert as send_notification_alert_task

logger = logging.getLogger(__name__)
State = ProviderNotification.State
Reason = ProviderNotification.Reason
DUPLICATE = "duplicate"


class NotificationNotRejected(Conflict):
    code = "notification_not_rejected"
    message = "Only a rejected notification can be verified again"


@dataclass(frozen=True)
class Verdict:
    state: str
    reason: str = ""
    detail: str = ""


def _plain(value: Decimal) -> str:
    """A Decimal as support reads it: 1000000, not 1E+6 (and 100.001 kept as is)."""
    return format(value, "f")


def _rejected(reason: str, detail: str) -> Verdict:
    return Verdict(state=State.REJECTED, reason=reason, detail=detail[:255])


def notification_verdict(
    *, notification: Notification, recharge: Recharge | None, payment: ProviderPayment | None
) -> Verdict:
    """What to do with a notification, given what the provider said about its payment (None:
    the provider does not know it). Pure: reads nothing, writes nothing."""
    if notification.outcome == "ignored":
        return Verdict(state=State.IGNORED)  # informational: changes nothing, alerts nobody
    charge_id = notification.provider_charge_id
    if payment is None:
        return _rejected(Reason.PAYMENT_NOT_FOUND, f"The provider has no payment {charge_id}.")
    if payment.id != charge_id:
        return _rejected(
            Reason.PAYMENT_MISMATCH,
            f"Asked for payment {charge_id}, the provider answered with {payment.id}.",
        )
    if recharge is None:
        return _rejected(
            Reason.UNKNOWN_PAYMENT,
            f"No recharge has payment {charge_id} "
            f"(its external reference is {payment.external_reference or 'empty'}).",
        )
    if payment.external_reference != recharge.id:
        return _rejected(
            Reason.FOREIGN_REFERENCE,
            f"Payment {charge_id} is for {payment.external_reference or 'no reference'}, "
            f"not for recharge {recharge.id}.",
        )
    if notification.outcome == "paid":
        if payment.state != "paid":
            return _rejected(
                Reason.NOT_RECEIVED,
                f"{notification.event_type}, but the provider says the payment is "
                f"{payment.status}{' (deleted)' if payment.state == 'deleted' else ''}.",
            )
        if payment.value != recharge.amount:
            return _rejected(
                Reason.AMOUNT_MISMATCH,
                f"The provider says the payment is {_plain(payment.value)}; "
                f"the recharge is {fmt(recharge.amount)}.",
            )
        return Verdict(state=State.PAID)
    completed = recharge.status == Recharge.Status.COMPLETED
    if notification.outcome == "reversed" and completed:
        # Money back to the payer after the credit: whatever the provider now says was refunded
        # or charged back is taken back, once (decided under the recharge's lock). A partial
        # refund leaves the payment received.
        if payment.value != recharge.amount:
            return _rejected(
                Reason.AMOUNT_MISMATCH,
                f"The provider says the payment is {_plain(payment.value)}; "
                f"the recharge credited {fmt(recharge.amount)}.",
            )
        return Verdict(state=State.REVERSED)
    # A failure claim, or a reversal claim of a recharge not credited.
    if payment.state not in ("deleted", "reversed"):
        return _rejected(
            Reason.NOT_FAILED,
            f"{notification.event_type}, but the provider says the payment is {payment.status}.",
        )
    if completed:
        if payment.state == "reversed":
            return Verdict(state=State.REVERSED)  # refunded or charged back: as above
        return Verdict(state=State.IGNORED, detail="The recharge is completed; kept as is.")
    return Verdict(state=State.FAILED)


def notification_receive(
    *, provider: PaymentProvider, notification: Notification, payload: dict
) -> tuple[str, ProviderNotification | None]:
    """Verify a notification against the provider and apply it once. Returns the result ("paid",
    "failed", "ignored", "rejected" or "duplicate") and the stored row (None for a duplicate).
    Raises ProviderError, storing nothing, when the provider cannot be read back."""
    already = ProviderNotification.objects.filter(
        provider=provider.name, event_id=notification.event_id
    )
    if already.exists():
        return DUPLICATE, None  # applied before: no need to ask the provider again
    recharge = Recharge.objects.filter(
        provider=provider.name, provider_charge_id=notification.provider_charge_id
    ).first()
    payment = provider.fetch_payment(notification.provider_charge_id)  # no lock held here
    verdict = notification_verdict(notification=notification, recharge=recharge, payment=payment)
    try:
        with transaction.atomic():
            verdict = _apply(verdict, notification=notification, recharge=recharge, payment=payment)
            row = ProviderNotification.objects.create(
                provider=provider.name,
                event_id=notification.event_id,
                event_type=notification.event_type,
                payment_id=notification.provider_charge_id,
                recharge=recharge,
                payload=payload,
                state=verdict.state,
                reason=verdict.reason,
                detail=verdict.detail,
                provider_status=payment.status if payment else "",
                provider_value=_plain(payment.value)[:40] if payment else "",
                provider_reference=payment.external_reference[:100] if payment else "",
            )
            if verdict.state == State.REJECTED:
                send_notification_alert_task.delay_on_commit(row.pk)  # type: ignore[attr-defined]  # DjangoTask
    except IntegrityError:
        return DUPLICATE, None  # a concurrent copy of this event id was applied first
    if verdict.state == State.REJECTED:
        logger.warning(
            "Rejected %s notification %s (%s) for payment %s: %s. %s",
            provider.name,
            notification.event_id,
            notification.event_type,
            notification.provider_charge_id,
            verdict.reason,
            verdict.detail,
        )
    return verdict.state, row


def _apply(
    verdict: Verdict,
    *,
    notification: Notification,
    recharge: Recharge | None,
    payment: ProviderPayment | None,
) -> Verdict:
    """Do what the verdict says, inside the caller's transaction, and return the verdict as it
    turned out: a reversal decided under the recharge's lock may find nothing new to take back
    (ignored), give a chargeback back (reinstated) or not add up (rejected)."""
    if verdict.state not in (State.PAID, State.FAILED, State.REVERSED):
        return verdict
    assert recharge is not None and payment is not None  # such a verdict has both
    if verdict.state == State.FAILED:
        recharge_fail(recharge=recharge, reason=notification.event_type)
        return verdict
    if verdict.state == State.PAID:
        # The recharge amount, credited once; then, as for any event of a credited payment,
        # what the provider says went back since (a refund whose own event was lost, a
        # chargeback given back) is reconciled.
        recharge_complete(recharge=recharge)
        recharge_payer_record(recharge=recharge, payment=payment)  # who paid, read back
    outcome = recharge_reversals_reconcile(
        recharge=recharge, payment=payment, event_type=notification.event_type
    )
    if outcome.mismatch:
        return _rejected(Reason.REVERSAL_MISMATCH, outcome.mismatch)
    if outcome.created is not None:
        reversal = outcome.created
        return Verdict(
            state=State.REVERSED,
            detail=(
                f"{reversal.id}: {fmt(reversal.amount)} {reversal.reason} "
                f"({payment.status}); {fmt(reversal.debited_amount)} debited, "
                f"{fmt(reversal.debt_created)} debt."
            )[:255],
        )
    if outcome.cancelled:
        return Verdict(
            state=State.REINSTATED,
            detail=(
                "Chargeback no longer in force: "
                + ", ".join(f"{r.id} cancelled" for r in outcome.cancelled)
                + "."
            )[:255],
        )
    if verdict.state == State.PAID:
        return verdict
    return Verdict(
        state=State.IGNORED,
        detail=(
            f"Nothing new to take back ({payment.status}"
            + (f"; {payment.reversal_detail}" if payment.reversal_detail else "")
            + "): reversed already, or not done yet."
        )[:255],
    )


def notification_verify_again(*, notification: ProviderNotification) -> ProviderNotification:
    """Support's "verify again with the provider" for a rejected notification: the payment is
    read back once more and the same verification decides, so a payment the provider now shows
    as received, for the recharge amount, for this recharge, is credited (once, like any
    other). Anything still wrong stays rejected with the new reason (no second alert).
    Raises ProviderError (nothing changed) when the provider cannot be read back."""
    if notification.state != State.REJECTED:
        raise NotificationNotRejected(details={"state": notification.state})
    provider = get_provider(notification.provider)
    claim = Notification(
        event_id=notification.event_id,
        event_type=notification.event_type,
        provider_charge_id=notification.payment_id,
        outcome=provider.claim_of(notification.event_type),
    )
    recharge = Recharge.objects.filter(
        provider=provider.name, provider_charge_id=notification.payment_id
    ).first()
    payment = provider.fetch_payment(notification.payment_id)  # no lock held here
    verdict = notification_verdict(notification=claim, recharge=recharge, payment=payment)
    with transaction.atomic():
        row = ProviderNotification.objects.select_for_update().get(pk=notification.pk)
        if row.state != State.REJECTED:
            raise NotificationNotRejected(details={"state": row.state})  # someone was quicker
        row.recharge = recharge
        row.provider_status = payment.status if payment else ""
        row.provider_value = _plain(payment.value)[:40] if payment else ""
        row.provider_reference = payment.external_reference[:100] if payment else ""
        verdict = _apply(verdict, notification=claim, recharge=recharge, payment=payment)
        row.state, row.reason = verdict.state, verdict.reason
        row.detail = verdict.detail or "Verified again with the provider."
        row.save()
    return row


def transfer_notification_receive(
    *, provider: PaymentProvider, notification: Notification, payload: dict
) -> tuple[str, ProviderNotification | None]:
    """A transfer event: recorded once per event id, the transfer read back (ProviderError,
    nothing stored, when it cannot be), and the withdrawal it belongs to follows it. Returns
    ("transfer" or "rejected", row), or ("duplicate", None)."""
    already = ProviderNotification.objects.filter(
        provider=provider.name, event_id=notification.event_id
    )
    if already.exists():
        return DUPLICATE, None
    transfer_id = notification.provider_charge_id
    transfer = provider.fetch_transfer(transfer_id)  # no lock held here
    withdrawal = None
    if transfer is not None:
        # Ours by its id; or, when the answer to its creation was lost, by our id in its
        # external reference (the withdrawal then learns its transfer id).
        withdrawal = (
            Withdrawal.objects.filter(provider=provider.name, provider_transfer_id=transfer.id)
            .order_by()
            .first()
        ) or (
            Withdrawal.objects.filter(
                provider=provider.name, pk=transfer.external_reference, provider_transfer_id=""
            ).first()
            if transfer.external_reference
            else None
        )
    if transfer is None:
        verdict = _rejected(
            Reason.TRANSFER_NOT_FOUND, f"The provider has no transfer {transfer_id}."
        )
    elif transfer.id != transfer_id:
        verdict = _rejected(
            Reason.PAYMENT_MISMATCH,
            f"Asked for transfer {transfer_id}, the provider answered with {transfer.id}.",
        )
    elif withdrawal is None:
        verdict = _rejected(
            Reason.UNKNOWN_TRANSFER,
            f"No withdrawal has transfer {transfer_id} "
            f"(its external reference is {transfer.external_reference or 'empty'}).",
        )
    else:
        verdict = Verdict(state=State.TRANSFER)
    try:
        with transaction.atomic():
            row = ProviderNotification.objects.create(
                provider=provider.name,
                event_id=notification.event_id,
                event_type=notification.event_type,
                payment_id=transfer_id,
                withdrawal=withdrawal,
                payload=payload,
                state=verdict.state,
                reason=verdict.reason,
                detail=verdict.detail,
                provider_status=transfer.status[:40] if transfer else "",
                provider_value=_plain(transfer.value)[:40] if transfer else "",
                provider_reference=transfer.external_reference[:100] if transfer else "",
            )
            if verdict.state == State.REJECTED:
                send_notification_alert_task.delay_on_commit(row.pk)  # type: ignore[attr-defined]  # DjangoTask
    except IntegrityError:
        return DUPLICATE, None  # a concurrent copy of this event id was recorded first
    if withdrawal is not None and transfer is not None:
        # After the event's row is committed: a crash here leaves the withdrawal pending, and
        # the periodic check reads the same transfer back.
        withdrawal_apply_transfer(withdrawal=withdrawal, transfer=transfer)
    else:
        logger.warning(
            "Rejected %s transfer notification %s (%s) for transfer %s: %s. %s",
            provider.name,
            notification.event_id,
            notification.event_type,
            transfer_id,
            verdict.reason,
            verdict.detail,
        )
    return verdict.state, row
