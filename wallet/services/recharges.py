"""Recharges: create a PIX or boleto charge, then complete, cancel, fail or expire it.

Lock order everywhere: the recharge row, then the wallet row (inside wallet_credit). No lock is
held across a call to a payment provider."""

import hashlib
import logging
from datetime import datetime, time, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from agencies.models import Team
from api.idempotency import (
    IdempotencyKeyInFlight,
    StoredResponse,
    idempotency_claim,
    idempotency_complete,
    idempotency_release,
)
from core.exceptions import Conflict, InvalidRequest, NotFound, UnprocessableEntity
from core.money import fmt
from core.timestamps import business_date, business_day_bounds
from wallet import boleto
from wallet.models import PaymentMethod, Recharge, Transaction
from wallet.payloads import recharge_object
from wallet.providers import ProviderError, ProviderPayment, provider_for
from wallet.services.ledger import wallet_credit
from webhooks.models import EventType
from webhooks.services import event_record

MIN_AMOUNT = Decimal("100.00")
MAX_AMOUNT = Decimal("50000.00")
DAILY_LIMIT = Decimal("100000.00")
PIX_VALIDITY = timedelta(minutes=30)
BOLETO_VALIDITY_BUSINESS_DAYS = 3
logger = logging.getLogger(__name__)
COUNTS_TOWARDS_DAILY_LIMIT = (Recharge.Status.PENDING, Recharge.Status.COMPLETED)


class AmountBelowMinimum(InvalidRequest):
    code = "amount_below_minimum"
    message = "Minimum amount is R$ 100.00"


class AmountAboveMaximum(InvalidRequest):
    code = "amount_above_maximum"
    message = "Maximum amount is R$ 50,000.00 per recharge"


class InvalidPaymentMethod(InvalidRequest):
    code = "invalid_payment_method"
    message = "Invalid payment method"


class DailyLimitExceeded(UnprocessableEntity):
    code = "daily_limit_exceeded"
    message = "Daily limit exceeded"


class RechargeNotFound(NotFound):
    code = "recharge_not_found"
    message = "Recharge not found"


class RechargeNotPending(Conflict):
    code = "recharge_not_pending"
    message = "Only a pending recharge can be cancelled"


def business_day_start(moment: datetime) -> datetime:
    """Midnight, in America/Sao_Paulo, of the calendar day `moment` falls on."""
    return business_day_bounds(business_date(moment))[0]


def recharge_create(
    *, team: Team, live_mode: bool, amount: Decimal, payment_method: str
) -> Recharge:
    if payment_method not in PaymentMethod.values:
        raise InvalidPaymentMethod()
    if amount < MIN_AMOUNT:
        raise AmountBelowMinimum()
    if amount > MAX_AMOUNT:
        raise AmountAboveMaximum()
    now = timezone.now()
    due_date, expires_at = _deadline(payment_method, now)
    provider = provider_for(live_mode=live_mode)

    with transaction.atomic():
        # One recharge at a time per team, so that two concurrent ones cannot both fit the limit.
        Team.objects.select_for_update().get(pk=team.pk)
        used = Recharge.objects.filter(
            team=team,
            live_mode=live_mode,
            status__in=COUNTS_TOWARDS_DAILY_LIMIT,
            created_at__gte=business_day_start(now),
        ).aggregate(total=Sum("amount"))["total"] or Decimal("0")
        if used + amount > DAILY_LIMIT:
            raise DailyLimitExceeded(
                details={"used_today": fmt(used), "daily_limit": fmt(DAILY_LIMIT)}
            )
        recharge = Recharge.objects.create(
            team=team,
            live_mode=live_mode,
            amount=amount,
            payment_method=payment_method,
            provider=provider.name,
            boleto_due_date=due_date,
            expires_at=expires_at,
            created_at=now,
        )

    try:
        charge = provider.create_charge(recharge, due_date=due_date)
    except ProviderError as exc:
        recharge_fail(recharge=recharge, reason=exc.message)
        raise

    with transaction.atomic():
        recharge = Recharge.objects.select_for_update().get(pk=recharge.pk)
        recharge.provider_charge_id = charge.provider_charge_id
        recharge.pix_copy_paste = charge.pix_copy_paste
        recharge.boleto_barcode = charge.boleto_barcode
        recharge.boleto_linha_digitavel = charge.boleto_linha_digitavel
        recharge.save()
        event_record(
            team=team,
            live_mode=live_mode,
            type=EventType.WALLET_RECHARGE_PENDING,
            data_object=recharge_object(recharge, with_payment=True),
        )
    return recharge


def _deadline(payment_method: str, now: datetime) -> tuple:
    """(boleto due date, expiry): PIX 30 minutes; boleto the end of its due date, 3 business
    days ahead, in America/Sao_Paulo."""
    if payment_method == PaymentMethod.PIX:
        return None, now + PIX_VALIDITY
    today = business_day_start(now)
    due = boleto.business_days_after(today.date(), BOLETO_VALIDITY_BUSINESS_DAYS)
    return due, datetime.combine(due + timedelta(days=1), time.min, tzinfo=today.tzinfo)


def recharge_complete(*, recharge: Recharge, paid_at: datetime | None = None) -> Recharge:
    """Credit a paid recharge exactly once, for its own amount (callers verify the payment
    first: wallet.services.notifications reads it back from the provider). A payment is real
    money: it is credited whatever state the recharge is in (pending, and also expired,
    cancelled or failed)."""
    with transaction.atomic():
        recharge = Recharge.objects.select_for_update().get(pk=recharge.pk)
        if recharge.status == Recharge.Status.COMPLETED:
            return recharge  # a repeated notification, a retry, the loser of a race
        previous_status = recharge.status
        paid_amount = recharge.amount
        txn = wallet_credit(
            team=recharge.team,
            live_mode=recharge.live_mode,
            amount=paid_amount,
            reference_type=Transaction.ReferenceType.RECHARGE,
            reference_id=recharge.id,
            description=f"Recharge {recharge.id} by {recharge.get_payment_method_display()}",
            payment_method=recharge.payment_method,
        )
        recharge.status = Recharge.Status.COMPLETED
        recharge.paid_at = paid_at or timezone.now()
        recharge.paid_amount = paid_amount
        recharge.transaction = txn
        recharge.save()
        event_record(
            team=recharge.team,
            live_mode=recharge.live_mode,
            type=EventType.WALLET_RECHARGE_COMPLETED,
            data_object=recharge_object(recharge),
            previous_attributes={
                "status": previous_status,
                "paid_at": None,
                "transaction_id": None,
            },
        )
    return recharge


def recharge_payer_record(*, recharge: Recharge, payment: ProviderPayment) -> Recharge:
    """Keep who paid, as the provider reported it when the payment was read back (callers pass
    that answer, never a notification's body). What the provider does not say leaves the
    recharge's value as it is: a later read back without the payer erases nothing."""
    found = {
        "payer_name": payment.payer_name,
        "payer_tax_id": payment.payer_tax_id,
        "pix_end_to_end_id": payment.end_to_end_id,
    }
    with transaction.atomic():
        recharge = Recharge.objects.select_for_update().get(pk=recharge.pk)
        changed = [n for n, value in found.items() if value and getattr(recharge, n) != value]
        for name in changed:
            setattr(recharge, name, found[name])
        if changed:
            recharge.save(update_fields=[*changed, "updated_at"])
    return recharge


def recharge_create_once(
    *, team: Team, live_mode: bool, amount: Decimal, payment_method: str, key: str
) -> tuple[Recharge | None, bool]:
    """recharge_create for a form that may be sent twice (a double click, a reload): `key` is
    the form's own token, claimed as an idempotency key of the team and mode (api.idempotency,
    the API's mechanism), so one token creates at most one recharge. Returns (the recharge,
    True) when this call created it, (the recharge the first call created, False) when it was
    created already, and (None, False) while the first call is still running. An error leaves
    the token unclaimed: the form can be sent again, corrected."""
    fingerprint = hashlib.sha256(f"{amount:.2f} {payment_method}".encode()).hexdigest()
    try:
        outcome = idempotency_claim(
            team=team, live_mode=live_mode, key=f"panel-recharge:{key}", fingerprint=fingerprint
        )
    except IdempotencyKeyInFlight:
        return None, False
    if isinstance(outcome, StoredResponse):
        recharge_id = (outcome.body or {}).get("id")
        return Recharge.objects.get(pk=recharge_id, team=team, live_mode=live_mode), False
    try:
        recharge = recharge_create(
            team=team, live_mode=live_mode, amount=amount, payment_method=payment_method
        )
    except BaseException:
        idempotency_release(claim=outcome)
        raise
    idempotency_complete(claim=outcome, status=201, body={"id": recharge.id})
    return recharge, True


def recharge_cancel(*, recharge: Recharge) -> Recharge:
    """Cancel a pending recharge, then withdraw its charge at the provider (best effort, outside
    any lock). Should the payer pay anyway, the payment is still credited (recharge_complete),
    so a charge the provider refuses to withdraw loses no money."""
    with transaction.atomic():
        recharge = Recharge.objects.select_for_update().get(pk=recharge.pk)
        if recharge.status != Recharge.Status.PENDING:
            raise RechargeNotPending(details={"status": recharge.status})
        recharge.status = Recharge.Status.CANCELLED
        recharge.save()
    try:
        provider_for(live_mode=recharge.live_mode).cancel_charge(recharge)
    except ProviderError as exc:
        logger.warning("Could not withdraw %s at %s: %s", recharge.id, recharge.provider, exc)
    return recharge


def recharge_fail(*, recharge: Recharge, reason: str) -> Recharge:
    """A failure reported by the provider (or its refusal to create the charge)."""
    with transaction.atomic():
        recharge = Recharge.objects.select_for_update().get(pk=recharge.pk)
        if recharge.status == Recharge.Status.PENDING:
            recharge.status = Recharge.Status.FAILED
            recharge.failure_reason = reason[:255]
            recharge.save()
    return recharge


def recharge_expire(*, recharge: Recharge, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    with transaction.atomic():
        recharge = Recharge.objects.select_for_update().get(pk=recharge.pk)
        if recharge.status != Recharge.Status.PENDING:
            return False
        assert recharge.expires_at is not None  # every pending recharge has its deadline
        if recharge.expires_at > now:
            return False
        recharge.status = Recharge.Status.EXPIRED
        recharge.save()
        event_record(
            team=recharge.team,
            live_mode=recharge.live_mode,
            type=EventType.WALLET_RECHARGE_EXPIRED,
            data_object=recharge_object(recharge),
            previous_attributes={"status": Recharge.Status.PENDING},
        )
    return True


# --- Wire shapes and links -------------------------------------------------------------------


def recharges_expire_due(*, now: datetime | None = None) -> int:
    """Expire pending PIX and boleto recharges past their deadline (each in its own
    transaction, under its row lock; a payment that wins the race is kept)."""
    now = now or timezone.now()
    due = Recharge.objects.filter(status=Recharge.Status.PENDING, expires_at__lte=now)
    return sum(recharge_expire(recharge=r, now=now) for r in due.iterator())


def payment_pages_open(recharge: Recharge, *, now: datetime | None = None) -> bool:
    """Whether the recharge's payment pages (QR image, boleto) are served, to a token or to the
    owner's key: while it can be paid, and for PAYMENT_PAGES_OPEN_AFTER_CLOSE after it was paid
    or expired (a payer reloading the page sees it once more). Never once it is cancelled or
    failed: a withdrawn charge is not shown to be paid."""
    now = now or timezone.now()
    margin = settings.PAYMENT_PAGES_OPEN_AFTER_CLOSE
    if recharge.status == Recharge.Status.PENDING:
        # Past its expiry and not yet swept by the expiry job: as good as expired.
        return recharge.expires_at is None or now < recharge.expires_at + margin
    if recharge.status == Recharge.Status.COMPLETED:
        return recharge.paid_at is not None and now < recharge.paid_at + margin
    if recharge.status == Recharge.Status.EXPIRED:
        return recharge.expires_at is not None and now < recharge.expires_at + margin
    return False
