"""Reversals of recharges after they were credited: refunds (whole or partial, a PIX returned
through MED included) and chargebacks, read back from the provider (docs/reversals.md).

`recharge_reversals_reconcile` brings a credited recharge in line with what the provider says of
its payment now. Under the recharge's row lock it compares what the provider reports taken back
(`reversal_target`) with what the recharge's reversals in force already took:

- more: one new `Reversal` for the difference: the wallet is debited what its balance covers
  (`reference_type` `reversal`), the rest is the wallet's debt, and the wallet is restricted
  until credits pay it (wallet/services/ledger.py);
- less, because a chargeback was decided in the agency's favour and its money came back: the
  chargeback's reversals are cancelled, each once: what it still owed is forgiven, what it took
  is credited back;
- the same: nothing (a second notification of the same refund, a refund not yet done).

So the same refund, however often it is notified, is debited once; several partial refunds of
one recharge are several reversals, numbered, each for what the refunds add up to beyond the
ones before. Lock order: the recharge row, the wallet row, then reversal rows, as everywhere."""

import logging
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from core.exceptions import Conflict
from core.money import fmt, q
from wallet.models import Recharge, Reversal, Transaction, Wallet
from wallet.payloads import reversal_object
from wallet.providers import ProviderPayment, get_provider
from wallet.services.ledger import wallet_credit, wallet_debit
from wallet.tasks import send_reversal_alert as send_reversal_alert_task
from webhooks.models import EventType
from webhooks.services import event_record

logger = logging.getLogger(__name__)
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Target:
    """What the provider says was taken back from a recharge's payment, and why."""

    amount: Decimal
    reason: str


@dataclass(frozen=True)
class Reconciled:
    """What reconciling did: the reversal written, the ones cancelled, or neither; `mismatch`
    when the provider reports less taken back than we did and no chargeback explains it."""

    created: Reversal | None = None
    cancelled: tuple[Reversal, ...] = ()
    mismatch: str = ""


def reversal_target(*, recharge: Recharge, payment: ProviderPayment) -> Target:
    """A chargeback in force takes the whole payment; otherwise the refunds done. Never more
    than the recharge credited."""
    if payment.charged_back:
        return Target(amount=recharge.amount, reason=Reversal.Reason.CHARGEBACK)
    return Target(amount=min(q(payment.refunded), recharge.amount), reason=Reversal.Reason.REFUND)


def recharge_reversals_reconcile(
    *, recharge: Recharge, payment: ProviderPayment, event_type: str = ""
) -> Reconciled:
    """Reverse what the provider (read back: `payment`) now says was taken back from a completed
    recharge and was not reversed yet, or cancel the chargebacks it no longer reports. One
    transaction; callers verify that `payment` is the recharge's own first."""
    with transaction.atomic():
        recharge = Recharge.objects.select_for_update(of=("self",)).get(pk=recharge.pk)
        if recharge.status != Recharge.Status.COMPLETED or not recharge.live_mode:
            return Reconciled()  # nothing was credited: nothing to take back
        in_force = list(
            recharge.reversals.filter(status=Reversal.Status.APPLIED).order_by("number")
        )
        taken = sum((r.amount for r in in_force), ZERO)
        target = reversal_target(recharge=recharge, payment=payment)
        if target.amount > taken:
            reversal = _reverse(
                recharge=recharge,
                amount=target.amount - taken,
                reason=target.reason,
                payment=payment,
                event_type=event_type,
            )
            return Reconciled(created=reversal)
        if target.amount == taken:
            return Reconciled()
        # Less than we took: only a chargeback that no longer stands gives money back.
        cancelled = []
        if not payment.charged_back:
            for reversal in reversed(in_force):
                if reversal.reason == Reversal.Reason.CHARGEBACK and (
                    taken - reversal.amount >= target.amount
                ):
                    cancelled.append(_cancel(reversal, payment=payment))
                    taken -= reversal.amount
        if taken != target.amount:
            return Reconciled(
                cancelled=tuple(cancelled),
                mismatch=(
                    f"The provider reports {fmt(target.amount)} taken back "
                    f"({payment.status}; {payment.reversal_detail or 'no refunds'}); "
                    f"{fmt(taken)} is reversed."
                ),
            )
        return Reconciled(cancelled=tuple(cancelled))


def _reverse(
    *,
    recharge: Recharge,
    amount: Decimal,
    reason: str,
    payment: ProviderPayment,
    event_type: str,
) -> Reversal:
    """Debit what the balance covers, record the rest as debt (under the wallet's row lock),
    emit `wallet.reversal` and queue support's alert."""
    wallet = Wallet.objects.select_for_update(of=("self",)).get(team_id=recharge.team_id)
    debited = min(amount, wallet.balance)
    number = (recharge.reversals.order_by("-number").values_list("number", flat=True).first()) or 0
    reversal = Reversal(
        team_id=recharge.team_id,
        live_mode=True,
        recharge=recharge,
        number=number + 1,
        reason=reason,
        amount=amount,
        debited_amount=debited,
        debt_created=amount - debited,
        debt_outstanding=amount - debited,
        provider_status=payment.status[:40],
        detail=payment.reversal_detail[:255],
        event_type=event_type[:60],
        created_at=timezone.now(),
    )
    if debited > 0:
        reversal.transaction = wallet_debit(
            team=recharge.team,
            live_mode=True,
            amount=debited,
            reference_type=Transaction.ReferenceType.REVERSAL,
            reference_id=reversal.id,
            description=f"{reason.capitalize()} of recharge {recharge.id}",  # not translated
        )
    if reversal.debt_created > 0:
        # Under the row lock taken above: the balance is 0.00 now (it covered what it could).
        wallet.debt += reversal.debt_created
        Wallet.objects.filter(pk=wallet.pk).update(debt=wallet.debt)
    reversal.save(force_insert=True)
    event_record(
        team=recharge.team,
        live_mode=True,
        type=EventType.WALLET_REVERSAL,
        data_object=reversal_object(reversal, debt_amount=wallet.debt),
    )
    send_reversal_alert_task.delay_on_commit(reversal.pk)  # type: ignore[attr-defined]  # DjangoTask
    logger.warning(
        "Recharge %s of %s: %s of %s reversed (%s): %s debited, %s debt",
        recharge.id,
        recharge.team_id,
        reason,
        fmt(amount),
        payment.status,
        fmt(debited),
        fmt(reversal.debt_created),
    )
    return reversal


def _cancel(reversal: Reversal, *, payment: ProviderPayment) -> Reversal:
    """A chargeback decided in the agency's favour, its money back with us: what the reversal
    still owed is forgiven, what it took (debited then, paid from credits since) is credited back
    once (the credit pays any other debt first). Emits `wallet.reversal`, cancelled."""
    wallet = Wallet.objects.select_for_update(of=("self",)).get(team_id=reversal.team_id)
    owed = reversal.debt_outstanding
    # Cancelled, and owing nothing, before the credit back: that credit pays the other
    # reversals' debt (never this one's).
    reversal.debt_outstanding = ZERO
    reversal.status = Reversal.Status.CANCELLED
    reversal.cancelled_at = timezone.now()
    reversal.provider_status = payment.status[:40]
    reversal.save(update_fields=["debt_outstanding", "status", "cancelled_at", "provider_status"])
    if owed > 0:
        wallet.debt -= owed
        Wallet.objects.filter(pk=wallet.pk).update(debt=wallet.debt)
    taken = reversal.amount - owed
    if taken > 0:
        reversal.credit_transaction = wallet_credit(
            team=reversal.recharge.team,
            live_mode=True,
            amount=taken,
            reference_type=Transaction.ReferenceType.REVERSAL,
            reference_id=reversal.id,
            description=f"Chargeback of recharge {reversal.recharge_id} reversed",
        )
        reversal.save(update_fields=["credit_transaction"])
    event_record(
        team=reversal.recharge.team,
        live_mode=True,
        type=EventType.WALLET_REVERSAL,
        data_object=reversal_object(reversal, debt_amount=_debt_of(reversal.team_id)),
        previous_attributes={"status": Reversal.Status.APPLIED},
    )
    logger.warning(
        "Chargeback reversal %s of %s cancelled: %s forgiven, %s credited back",
        reversal.id,
        reversal.recharge_id,
        fmt(owed),
        fmt(taken),
    )
    return reversal


class ReversalCheckRefused(Conflict):
    code = "reversal_check_refused"
    message = "The provider's answer about this payment cannot be trusted or acted on"


def recharge_reversals_check(*, recharge: Recharge) -> Reconciled:
    """Support's "check refunds and chargebacks with the provider" for a credited recharge (a
    notification that never came): the payment is read back, checked to be this recharge's
    (id, external reference, value), and reconciled as a notification would be. Raises
    ReversalCheckRefused (nothing changed) when it is not, ProviderError when the provider
    cannot be read."""
    if recharge.status != Recharge.Status.COMPLETED or not recharge.provider_charge_id:
        raise ReversalCheckRefused("Only a credited recharge can be checked for reversals")
    payment = get_provider(recharge.provider).fetch_payment(recharge.provider_charge_id)
    if (
        payment is None
        or payment.id != recharge.provider_charge_id
        or payment.external_reference != recharge.id
        or payment.value != recharge.amount
    ):
        raise ReversalCheckRefused(
            details={"payment": recharge.provider_charge_id, "found": payment is not None}
        )
    outcome = recharge_reversals_reconcile(recharge=recharge, payment=payment)
    if outcome.mismatch:
        raise ReversalCheckRefused(outcome.mismatch)
    return outcome


def _debt_of(team_id: str) -> Decimal:
    return Wallet.objects.filter(team_id=team_id).values_list("debt", flat=True).get()
