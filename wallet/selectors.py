import functools
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import (
    DecimalField,
    Expression,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils.module_loading import import_string

from agencies.models import Team
from core.money import fmt
from core.sql import CompiledQuery
from core.timestamps import business_date, business_day_bounds, iso_utc
from wallet.models import TEST_MODE_BALANCE, Recharge, Transaction, Wallet, Withdrawal
from wallet.services import RechargeNotFound, WalletRestricted, WithdrawalNotFound

ZERO = Decimal("0.00")


@functools.cache
def _pending_holds_of() -> Callable[..., Expression]:
    """The BRL cost of a team's pending holds (DESIGN.md "Money"), as an expression of an outer
    query: bookings build on the wallet, so it is named by a setting, not imported."""
    return import_string(settings.WALLET_PENDING_HOLDS_SUBQUERY)


def balance_query_live_mode(team_id: str) -> QuerySet:
    return (
        Wallet.objects.filter(team_id=team_id)
        .annotate(pending=_pending_holds_of()("team_id", live_mode=True))
        .values_list("balance", "last_transaction_at", "debt", "pending")
    )


def balance_query_test_mode(team_id: str) -> QuerySet:
    last_test_movement = (
        Transaction.objects.filter(team_id=OuterRef("pk"), live_mode=False)
        .order_by()
        .values("team_id")
        .annotate(last=Max("created_at"))
        .values("last")
    )
    return (
        Team.objects.filter(pk=team_id)
        .annotate(
            last=Subquery(last_test_movement),
            pending=_pending_holds_of()("pk", live_mode=False),
        )
        .values_list("last", "pending")
    )


# Every API request of a balance runs one of these: compiled once (core/sql.py).
_LIVE_BALANCE = CompiledQuery(balance_query_live_mode, "team_id")
_TEST_BALANCE = CompiledQuery(balance_query_test_mode, "team_id")


def wallet_balance(*, team: Team, live_mode: bool) -> dict:
    """One query: the balance (live) or the last test movement, and the pending holds."""
    if live_mode:
        balance, last_movement, debt, pending = _LIVE_BALANCE.one(team_id=team.pk)
    else:
        balance, debt = TEST_MODE_BALANCE, ZERO
        last_movement, pending = _TEST_BALANCE.one(team_id=team.pk)
    return {
        "balance": fmt(balance),
        "currency": "BRL",
        "available_credit": fmt(max(balance - pending, ZERO)),
        "pending_amount": fmt(pending),
        "last_transaction_at": iso_utc(last_movement),
        "debt_amount": fmt(debt),
        "restricted": debt > 0,
    }


def wallet_restricted(*, team: Team, live_mode: bool) -> bool:
    """Whether the team's wallet in this mode is restricted: in debt after a recharge was
    reversed (docs/reversals.md). A restricted wallet makes no new booking, confirms no hold,
    pays no change or extras and withdraws nothing until credits pay its debt. The test-mode
    wallet never is."""
    return live_mode and Wallet.objects.filter(team=team, debt__gt=0).exists()


def wallet_ensure_unrestricted(*, team: Team, live_mode: bool) -> None:
    """Raise WalletRestricted (422 `wallet_restricted`) if `wallet_restricted`. A check before
    the work starts (a hold debits nothing, a confirm asks the supplier first); a debit on a
    wallet in debt is refused as WalletRestricted anyway, under the wallet's row lock."""
    if wallet_restricted(team=team, live_mode=live_mode):
        raise WalletRestricted()


def transaction_list(
    *,
    team: Team,
    live_mode: bool,
    type: str | None = None,
    start_date: date | None = None,
    end_date: date | None = None,
) -> QuerySet:
    """Newest first. Dates are calendar days in America/Sao_Paulo, both inclusive."""
    queryset = Transaction.objects.filter(team=team, live_mode=live_mode)
    if type:
        queryset = queryset.filter(type=type)
    if start_date:
        queryset = queryset.filter(created_at__gte=business_day_bounds(start_date)[0])
    if end_date:
        queryset = queryset.filter(created_at__lt=business_day_bounds(end_date)[1])
    return queryset.order_by("-created_at", "-id")


def transaction_summary(
    queryset: QuerySet, *, start_date: date | None, end_date: date | None
) -> dict:
    """Totals over the whole filtered set (not one page). The period is the requested one, or,
    where a bound was not given, the day of the first or last transaction in the set."""
    zero = Value(ZERO, output_field=DecimalField(max_digits=14, decimal_places=2))
    totals = queryset.order_by().aggregate(
        credits=Coalesce(Sum("amount", filter=Q(type=Transaction.Type.CREDIT)), zero),
        debits=Coalesce(Sum("amount", filter=Q(type=Transaction.Type.DEBIT)), zero),
        first=Min("created_at"),
        last=Max("created_at"),
    )

    def local_day(moment: datetime | None) -> date | None:
        return business_date(moment) if moment else None

    period_start = start_date or local_day(totals["first"])
    period_end = end_date or local_day(totals["last"])
    return {
        "total_credits": fmt(totals["credits"]),
        "total_debits": fmt(totals["debits"]),
        "period_start": period_start.isoformat() if period_start else None,
        "period_end": period_end.isoformat() if period_end else None,
    }


def recharge_get(*, team: Team, live_mode: bool, recharge_id: str) -> Recharge:
    """A recharge of this team and mode; any other id (another team's too) is not found."""
    recharge = Recharge.objects.filter(team=team, live_mode=live_mode, pk=recharge_id).first()
    if recharge is None:
        raise RechargeNotFound()
    return recharge


def withdrawal_get(*, team: Team, live_mode: bool, withdrawal_id: str) -> Withdrawal:
    """A withdrawal of this team and mode; any other id (another team's too) is not found."""
    withdrawal = Withdrawal.objects.filter(team=team, live_mode=live_mode, pk=withdrawal_id).first()
    if withdrawal is None:
        raise WithdrawalNotFound()
    return withdrawal


def withdrawal_list(*, team: Team, live_mode: bool, statuses: list[str] | None = None) -> QuerySet:
    """Newest first."""
    queryset = Withdrawal.objects.filter(team=team, live_mode=live_mode)
    if statuses:
        queryset = queryset.filter(status__in=statuses)
    return queryset.order_by("-created_at", "-id")


def wallet_balance_snapshot(obj: Any) -> dict:  # any model with live_mode and team_id
    """The live balance (and debt) of `obj`'s team, for an audit entry's old → new values (a
    test-mode object never moves it)."""
    if not obj.live_mode:
        return {}
    found = Wallet.objects.filter(team_id=obj.team_id).values_list("balance", "debt").first()
    balance, debt = found or (None, None)
    return {"wallet balance": balance, "wallet debt": debt}
