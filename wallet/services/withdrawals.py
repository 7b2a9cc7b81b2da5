"""Withdrawals: money sent from a team's wallet to its own bank account, as a PIX transfer to the
team's payout key (docs/withdrawals.md).

- Creating one checks the amount (the minimum, the day's limit), the team's CNPJ or CPF and its
  payout key, then writes the withdrawal `pending` and debits the wallet in one transaction
  (reference type `withdrawal`; the debit never overdraws: wallet.services.ledger).
- Then the provider is asked for the transfer, outside any lock, with the withdrawal's id as its
  external reference. A refusal fails the withdrawal (credited back); an answer that never came
  back leaves it pending with `submitted_at` set: the transfer may exist.
- The status follows the provider's, read back (never taken from a notification): `completed`
  when the transfer is done; `failed` or `cancelled` credits the amount back, once (the ledger's
  unique reference). A final status never changes again.
- Whoever holds the key, as the provider reports it, must have the team's own CNPJ or CPF: a
  transfer to anyone else is cancelled at the provider while it is still open, and the
  withdrawal fails (credited back) when the provider confirms it.
- A request whose answer was lost is never simply sent again: the transfer is looked up by the
  withdrawal's id first, and sent again only when the provider has none and the request is older
  than WITHDRAWAL_RESEND_AFTER (it provably never reached the provider). One request at a time:
  sending is claimed under the row's lock by a compare-and-set on `submitted_at`.

Lock order everywhere: the team row (creation only), the withdrawal row, then the wallet row
(inside wallet_debit and wallet_credit). No lock is held across a call to the provider."""

import logging
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from stdnum.br import cnpj, cpf

from agencies.models import Team
from core.exceptions import Conflict, InvalidRequest, NotFound, UnprocessableEntity
from core.money import fmt
from wallet.models import PayoutKey, Transaction, Withdrawal
from wallet.payloads import withdrawal_object
from wallet.providers import (
    ProviderError,
    ProviderTransfer,
    TransferRefused,
    get_provider,
    provider_for,
)
from wallet.services.ledger import wallet_credit, wallet_debit
from wallet.services.recharges import business_day_start
from wallet.tasks import send_withdrawal_email
from webhooks.models import EventType
from webhooks.services import event_record

logger = logging.getLogger(__name__)
Status = Withdrawal.Status
FailureCode = Withdrawal.FailureCode
COUNTS_TOWARDS_DAILY_LIMIT = (Status.PENDING, Status.COMPLETED)
# A masked document must show at least this many of its digits to be told apart.
MIN_VISIBLE_DIGITS = 6
MASK_CHARACTERS = "*•xX"


class WithdrawalBelowMinimum(InvalidRequest):
    """Withdrawal below WALLET_WITHDRAWAL_MIN_AMOUNT (10.00 unless configured)."""

    code = "withdrawal_below_minimum"
    message = "Minimum withdrawal is R$ {minimum}"


class WithdrawalDailyLimitExceeded(UnprocessableEntity):
    """The team's withdrawals of the São Paulo day (pending and completed) would pass
    WALLET_WITHDRAWAL_DAILY_LIMIT (50,000.00 unless configured); `details` says how much."""

    code = "withdrawal_daily_limit_exceeded"
    message = "Daily withdrawal limit exceeded"


class PayoutKeyRequired(UnprocessableEntity):
    """The team has no payout PIX key: an agency user registers it in the panel."""

    code = "payout_key_required"
    message = "No payout PIX key registered: register one in the panel"


class TaxIdRequired(UnprocessableEntity):
    """The team has no valid CNPJ or CPF: the key's holder could not be checked against it."""

    code = "tax_id_required"
    message = "The team's CNPJ or CPF is required: add it in the panel"


class WithdrawalNotFound(NotFound):
    """Invalid withdrawal id, or one of another team or mode."""

    code = "withdrawal_not_found"
    message = "Withdrawal not found"


class WithdrawalNotPending(Conflict):
    """Panel: checking again a withdrawal whose status is already final."""

    code = "withdrawal_not_pending"
    message = "Only a pending withdrawal can be checked again"


def money_text(amount: Decimal) -> str:
    """An amount in an API message: 10.00, 50,000.00 (the API speaks English)."""
    return f"{amount:,.2f}"


def digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def valid_tax_id(text: str) -> bool:
    """A CNPJ or CPF with valid check digits, formatted or not."""
    number = digits(text)
    if len(number) == 11:
        return cpf.is_valid(number)
    return len(number) == 14 and cnpj.is_valid(number)


def holder_is_team(reported: str, team_tax_id: str) -> bool | None:
    """Whether the document the provider reports for the key's holder is the team's own: None
    when the provider reports none (not yet resolved). A masked document (`***.143.689-**`)
    matches when it has the team's document's length and every digit it shows is the team's,
    in its place, and it shows at least MIN_VISIBLE_DIGITS of them."""
    shown = [c for c in reported if c.isdigit() or c in MASK_CHARACTERS]
    if not shown:
        return None
    own = digits(team_tax_id)
    if len(shown) != len(own) or len(own) not in (11, 14):
        return False
    visible = [(a, b) for a, b in zip(shown, own, strict=True) if a.isdigit()]
    return len(visible) >= MIN_VISIBLE_DIGITS and all(a == b for a, b in visible)


def daily_used(*, team: Team, live_mode: bool, now: datetime) -> Decimal:
    return Withdrawal.objects.filter(
        team=team,
        live_mode=live_mode,
        status__in=COUNTS_TOWARDS_DAILY_LIMIT,
        created_at__gte=business_day_start(now),
    ).aggregate(total=Sum("amount"))["total"] or Decimal("0")


# --- Creating and sending --------------------------------------------------------------------


def withdrawal_create(*, team: Team, live_mode: bool, amount: Decimal) -> Withdrawal:
    """A pending withdrawal with the wallet debited, then its transfer requested. Raises (nothing
    written) WithdrawalBelowMinimum, TaxIdRequired, PayoutKeyRequired,
    WithdrawalDailyLimitExceeded or InsufficientBalance. The provider's failure to answer is
    not an error here: the withdrawal stays pending and the periodic check settles it."""
    minimum = settings.WALLET_WITHDRAWAL_MIN_AMOUNT
    if amount < minimum or amount <= 0:
        raise WithdrawalBelowMinimum(f"Minimum withdrawal is R$ {money_text(minimum)}")
    if not valid_tax_id(team.tax_id):
        raise TaxIdRequired()
    key = PayoutKey.objects.filter(team=team).first()
    if key is None:
        raise PayoutKeyRequired()
    provider = provider_for(live_mode=live_mode)
    now = timezone.now()
    limit = settings.WALLET_WITHDRAWAL_DAILY_LIMIT
    with transaction.atomic():
        # One withdrawal at a time per team, so that two cannot both fit under the day's limit.
        Team.objects.select_for_update().get(pk=team.pk)
        used = daily_used(team=team, live_mode=live_mode, now=now)
        if used + amount > limit:
            raise WithdrawalDailyLimitExceeded(
                details={"used_today": fmt(used), "daily_limit": fmt(limit)}
            )
        withdrawal = Withdrawal(
            team=team,
            live_mode=live_mode,
            amount=amount,
            pix_key_type=key.key_type,
            pix_key=key.key,
            provider=provider.name,
            created_at=now,
        )
        withdrawal.debit_transaction = wallet_debit(
            team=team,
            live_mode=live_mode,
            amount=amount,
            reference_type=Transaction.ReferenceType.WITHDRAWAL,
            reference_id=withdrawal.id,
            description=f"Withdrawal {withdrawal.id} to PIX key {key.key}",
        )
        withdrawal.save(force_insert=True)
        event_record(
            team=team,
            live_mode=live_mode,
            type=EventType.WALLET_WITHDRAWAL_CREATED,
            data_object=withdrawal_object(withdrawal),
        )
    return withdrawal_submit(withdrawal=withdrawal)


def _claim_submission(withdrawal: Withdrawal, *, seen: datetime | None) -> Withdrawal | None:
    """Claim the right to send the transfer request: only while the withdrawal is pending with
    no transfer, and only if nobody sent one since `seen` (the `submitted_at` its caller saw)."""
    with transaction.atomic():
        row = Withdrawal.objects.select_for_update().get(pk=withdrawal.pk)
        if row.status != Status.PENDING or row.provider_transfer_id or row.submitted_at != seen:
            return None
        row.submitted_at = timezone.now()
        row.submit_attempts += 1
        row.save(update_fields=["submitted_at", "submit_attempts", "updated_at"])
    return row


def withdrawal_submit(*, withdrawal: Withdrawal, seen: datetime | None = None) -> Withdrawal:
    """Send the transfer request, if this caller wins the claim (see `_claim_submission`)."""
    claimed = _claim_submission(withdrawal, seen=seen)
    if claimed is None:
        return Withdrawal.objects.get(pk=withdrawal.pk)
    provider = get_provider(claimed.provider)
    try:
        transfer = provider.create_transfer(claimed)
    except TransferRefused as exc:
        logger.warning("Transfer of %s refused by %s: %s", claimed.id, provider.name, exc.reason)
        return _settle(
            claimed,
            status=Status.FAILED,
            code=FailureCode.REFUSED,
            reason=exc.reason,
        )
    except ProviderError as exc:
        # Timeout, 5xx, an unreadable answer: the transfer may exist. It is looked up by our id
        # before anything is sent again (withdrawal_check).
        logger.warning(
            "Transfer request of %s to %s has no answer (%s); looked up later",
            claimed.id,
            provider.name,
            exc.details,
        )
        return Withdrawal.objects.get(pk=claimed.pk)
    return withdrawal_apply_transfer(withdrawal=claimed, transfer=transfer)


# --- Reading the transfer back ---------------------------------------------------------------


def withdrawal_check(*, withdrawal: Withdrawal) -> Withdrawal:
    """Read the transfer back and follow it (the periodic check, support's "check again").
    Without a transfer id: never sent (sent now), or its answer was lost (looked up by our id;
    sent again only when the provider has none and the request is older than
    WITHDRAWAL_RESEND_AFTER). Raises ProviderError when the provider cannot be read."""
    provider = get_provider(withdrawal.provider)
    if withdrawal.provider_transfer_id:
        transfer = provider.fetch_transfer(withdrawal.provider_transfer_id)
        if transfer is None:
            logger.error(
                "%s says it has no transfer %s (withdrawal %s): left pending for support",
                provider.name,
                withdrawal.provider_transfer_id,
                withdrawal.id,
            )
            Withdrawal.objects.filter(pk=withdrawal.pk).update(checked_at=timezone.now())
            return Withdrawal.objects.get(pk=withdrawal.pk)
        return withdrawal_apply_transfer(withdrawal=withdrawal, transfer=transfer)
    if withdrawal.submitted_at is None:
        return withdrawal_submit(withdrawal=withdrawal)  # the request was never made
    found = provider.find_transfer(withdrawal)
    if found is not None:
        return withdrawal_apply_transfer(withdrawal=withdrawal, transfer=found)
    if withdrawal.submitted_at > timezone.now() - settings.WITHDRAWAL_RESEND_AFTER:
        return withdrawal  # the request may still be in flight: looked up again later
    logger.warning(
        "%s has no transfer for %s, requested at %s: requesting it again",
        provider.name,
        withdrawal.id,
        withdrawal.submitted_at,
    )
    return withdrawal_submit(withdrawal=withdrawal, seen=withdrawal.submitted_at)


def withdrawal_check_again(*, withdrawal: Withdrawal) -> Withdrawal:
    """Support's action on a stuck withdrawal: the same check, refused once it is final."""
    if withdrawal.is_final:
        raise WithdrawalNotPending(details={"status": withdrawal.status})
    return withdrawal_check(withdrawal=withdrawal)


def withdrawals_check_open(*, limit: int = 200) -> int:
    """The periodic check (beat): every pending withdrawal, oldest first, each on its own (a
    provider that cannot answer leaves it for the next run). Returns how many were checked."""
    checked = 0
    for withdrawal in Withdrawal.objects.filter(status=Status.PENDING).order_by("created_at")[
        :limit
    ]:
        try:
            withdrawal_check(withdrawal=withdrawal)
        except ProviderError as exc:
            logger.warning("Could not check withdrawal %s: %s", withdrawal.id, exc.details)
        checked += 1
    return checked


def withdrawal_apply_transfer(*, withdrawal: Withdrawal, transfer: ProviderTransfer) -> Withdrawal:
    """Follow the transfer as the provider reports it (a read back, or its creation's answer)."""
    if transfer.external_reference and transfer.external_reference != withdrawal.id:
        logger.error(
            "Transfer %s is for %s, not for withdrawal %s: not applied",
            transfer.id,
            transfer.external_reference,
            withdrawal.id,
        )
        return withdrawal
    team_tax_id = Team.objects.values_list("tax_id", flat=True).get(pk=withdrawal.team_id)
    holder_ok = holder_is_team(transfer.holder_tax_id, team_tax_id)
    with transaction.atomic():
        row = Withdrawal.objects.select_for_update().get(pk=withdrawal.pk)
        if row.provider_transfer_id and row.provider_transfer_id != transfer.id:
            logger.error(
                "Withdrawal %s has transfer %s; %s is another: not applied",
                row.id,
                row.provider_transfer_id,
                transfer.id,
            )
            return row
        row.provider_transfer_id = transfer.id
        row.provider_status = transfer.status[:40]
        row.holder_name = transfer.holder_name or row.holder_name
        row.holder_tax_id = transfer.holder_tax_id or row.holder_tax_id
        row.checked_at = timezone.now()
        row.save()
        if row.is_final:
            if transfer.state != _STATE_OF[row.status]:
                logger.warning(
                    "Withdrawal %s is %s; its transfer %s now says %s: kept as is",
                    row.id,
                    row.status,
                    transfer.id,
                    transfer.status,
                )
            return row
        if transfer.value != row.amount and transfer.state in ("done", "open"):
            logger.error(
                "Transfer %s is for %s, withdrawal %s for %s: left pending for support",
                transfer.id,
                transfer.value,
                row.id,
                row.amount,
            )
            return row
        if transfer.state == "done":
            if holder_ok is not True:
                logger.error(
                    "Transfer %s of withdrawal %s was done to %s (%s), not the team's document",
                    transfer.id,
                    row.id,
                    transfer.holder_name,
                    transfer.holder_tax_id,
                )
            return _complete(row)
        if transfer.state in ("failed", "cancelled"):
            if row.refused_at is not None:
                return _settle(
                    row,
                    status=Status.FAILED,
                    code=FailureCode.HOLDER_MISMATCH,
                    reason=row.failure_reason,
                )
            if transfer.state == "failed":
                return _settle(
                    row,
                    status=Status.FAILED,
                    code=FailureCode.TRANSFER_FAILED,
                    reason=transfer.fail_reason,
                )
            return _settle(
                row,
                status=Status.CANCELLED,
                code=FailureCode.TRANSFER_CANCELLED,
                reason=transfer.fail_reason,
            )
        refuse = holder_ok is False
        if refuse and row.refused_at is None:
            row.refused_at = timezone.now()
            row.failure_reason = (
                f"The PIX key's holder ({transfer.holder_name or 'unnamed'}, "
                f"{transfer.holder_tax_id}) is not the team's CNPJ or CPF"
            )[:255]
        row.save()
    if refuse:
        return _refuse(row, transfer)
    return row


_STATE_OF: dict[str, str] = {
    Status.COMPLETED: "done",
    Status.FAILED: "failed",
    Status.CANCELLED: "cancelled",
}


def _refuse(withdrawal: Withdrawal, transfer: ProviderTransfer) -> Withdrawal:
    """Cancel at the provider a transfer to a key the team does not hold, then follow the
    provider's answer (cancelled: credited back). A provider that cannot cancel now is asked
    again at the next check, while the transfer is open."""
    provider = get_provider(withdrawal.provider)
    logger.warning(
        "Withdrawal %s: key held by %s (%s), not the team: cancelling transfer %s",
        withdrawal.id,
        transfer.holder_name,
        transfer.holder_tax_id,
        transfer.id,
    )
    try:
        provider.cancel_transfer(transfer.id)
        after = provider.fetch_transfer(transfer.id)
    except ProviderError as exc:
        logger.warning("Could not cancel transfer %s: %s", transfer.id, exc.details)
        return withdrawal
    if after is None or after.state == "open":
        return withdrawal
    return withdrawal_apply_transfer(withdrawal=withdrawal, transfer=after)


def _complete(row: Withdrawal) -> Withdrawal:
    """Inside the caller's transaction, under the row's lock."""
    row.status = Status.COMPLETED
    row.completed_at = timezone.now()
    row.save()
    event_record(
        team=row.team,
        live_mode=row.live_mode,
        type=EventType.WALLET_WITHDRAWAL_COMPLETED,
        data_object=withdrawal_object(row),
        previous_attributes={"status": Status.PENDING, "completed_at": None},
    )
    send_withdrawal_email.delay_on_commit(row.pk)  # type: ignore[attr-defined]  # DjangoTask
    return row


def _settle(row: Withdrawal, *, status: str, code: str, reason: str) -> Withdrawal:
    """Fail or cancel a pending withdrawal and credit its amount back, once (the ledger's unique
    reference: a second credit of this withdrawal cannot be written)."""
    with transaction.atomic():
        row = Withdrawal.objects.select_for_update().get(pk=row.pk)
        if row.is_final:
            return row
        row.refund_transaction = wallet_credit(
            team=row.team,
            live_mode=row.live_mode,
            amount=row.amount,
            reference_type=Transaction.ReferenceType.WITHDRAWAL,
            reference_id=row.id,
            description=f"Withdrawal {row.id} {status}: credited back",
        )
        row.status = status
        row.failure_code = code
        row.failure_reason = reason[:255]
        row.failed_at = timezone.now()
        row.save()
        event_record(
            team=row.team,
            live_mode=row.live_mode,
            type=EventType.WALLET_WITHDRAWAL_FAILED,
            data_object=withdrawal_object(row),
            previous_attributes={
                "status": Status.PENDING,
                "failed_at": None,
                "refund_transaction_id": None,
                "failure_code": None,
                "failure_reason": None,
            },
        )
        send_withdrawal_email.delay_on_commit(row.pk)  # type: ignore[attr-defined]  # DjangoTask
    return row
