"""The panel's home page (the admin index) and a team's overview page: the figures and lists
they show (docs/panel-home.md). Reads only, each query bounded: lists are sliced, figures are
aggregates, so the page costs the same number of queries for a team with ten bookings or ten
million.

An agency user sees their own team; support sees every team, what needs attention first, and a
page per team. Both see live data unless they ask for test data (`?mode=test`)."""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db.models import Count, DecimalField, F, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce, Greatest
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from agencies.models import ApiKey, Integration, Team
from bookings.display import cancellation_note_for_people, failure_reason_for_people
from bookings.itinerary import erased
from bookings.models import Booking, BookingAirlineChange, BookingCancellation, BookingPassenger
from core.timestamps import business_date, business_day_bounds
from panel.roles import Area, may_change, may_view
from wallet.models import (
    TEST_MODE_BALANCE,
    ProviderNotification,
    Recharge,
    Reversal,
    Transaction,
    Wallet,
    Withdrawal,
)
from wallet.selectors import wallet_restricted
from webhooks.models import Event, EventType, WebhookEndpoint

ZERO = Decimal("0.00")
LIST_LIMIT = 8  # rows of each list on the page; each list links to all of them
ATTENTION_LOOKBACK = timedelta(days=7)  # support's lists of recent problems
WITHDRAWAL_STUCK_AFTER = timedelta(minutes=30)  # a PIX transfer still open this long is stuck

EVENT_LABELS = {
    EventType.BOOKING_CREATED: _("Booking created"),
    EventType.BOOKING_CONFIRMED: _("Booking confirmed"),
    EventType.BOOKING_TICKETED: _("Booking ticketed"),
    EventType.BOOKING_CANCELLED: _("Booking cancelled"),
    EventType.BOOKING_EXPIRED: _("Booking expired"),
    EventType.BOOKING_FAILED: _("Booking failed"),
    EventType.BOOKING_UPDATED: _("Booking updated"),
    EventType.BOOKING_AIRLINE_CHANGE_DETECTED: _("Airline changed the flights"),
    EventType.WALLET_CREDIT: _("Wallet credited"),
    EventType.WALLET_DEBIT: _("Wallet debited"),
    EventType.WALLET_RECHARGE_PENDING: _("Recharge created"),
    EventType.WALLET_RECHARGE_COMPLETED: _("Recharge paid"),
    EventType.WALLET_RECHARGE_EXPIRED: _("Recharge expired"),
    EventType.WALLET_LOW_BALANCE: _("Low balance"),
    EventType.WALLET_REVERSAL: _("Recharge reversed"),
    EventType.WALLET_WITHDRAWAL_CREATED: _("Withdrawal requested"),
    EventType.WALLET_WITHDRAWAL_COMPLETED: _("Withdrawal completed"),
    EventType.WALLET_WITHDRAWAL_FAILED: _("Withdrawal failed"),
    EventType.INTEGRATION_CONNECTED: _("Supplier connected"),
    EventType.INTEGRATION_DISCONNECTED: _("Supplier disconnected"),
    EventType.API_KEY_CREATED: _("API key created"),
    EventType.API_KEY_REVOKED: _("API key revoked"),
}


def _zero():
    return Value(ZERO, output_field=DecimalField(max_digits=14, decimal_places=2))


def _changelist(app_model: str, **filters) -> str:
    url = reverse(f"admin:{app_model}_changelist")
    return f"{url}?{urlencode(filters)}" if filters else url


def _change(app_model: str, pk) -> str:
    return reverse(f"admin:{app_model}_change", args=[pk])


# --- Periods: São Paulo days and months -------------------------------------------------------


@dataclass(frozen=True)
class Periods:
    today: date
    day_start: datetime
    day_end: datetime
    month_start: datetime
    month_end: datetime


def periods(now: datetime | None = None) -> Periods:
    """Today and this month in America/Sao_Paulo, as [start, end) instants."""
    today = business_date(now or timezone.now())
    first = today.replace(day=1)
    next_first = (first + timedelta(days=32)).replace(day=1)
    day_start, day_end = business_day_bounds(today)
    return Periods(
        today=today,
        day_start=day_start,
        day_end=day_end,
        month_start=business_day_bounds(first)[0],
        month_end=business_day_bounds(next_first)[0],
    )


# --- Figures (one team, or every team when `team` is None) ------------------------------------


def _scoped(queryset, team, field: str = "team"):
    return queryset if team is None else queryset.filter(**{field: team})


def wallet_figures(*, team: Team | None, live_mode: bool) -> dict:
    """Balance, pending holds (the BRL cost of pending hold bookings) and available credit
    (balance minus holds, never below zero), as the API's `GET /wallet/balance` says. Across
    teams, the sums of each team's figures. Test mode has no wallet: a constant balance for one
    team, and no sum across teams (it would mean nothing)."""
    holds = _scoped(
        Booking.objects.filter(
            live_mode=live_mode, status=Booking.Status.PENDING, type=Booking.Type.HOLD
        ),
        team,
    )
    if not live_mode:
        pending = holds.aggregate(total=Coalesce(Sum("base_cost_brl"), _zero()))["total"]
        if team is None:
            return {"balance": None, "available": None, "holds": pending, "debt": ZERO}
        return {
            "balance": TEST_MODE_BALANCE,
            "available": max(TEST_MODE_BALANCE - pending, ZERO),
            "holds": pending,
            "debt": ZERO,
        }
    team_holds = (
        holds.filter(team=OuterRef("team"))
        .order_by()
        .values("team")
        .annotate(total=Sum("base_cost_brl"))
        .values("total")
    )
    wallets = _scoped(Wallet.objects.all(), team).annotate(
        held=Coalesce(Subquery(team_holds), _zero())
    )
    totals = wallets.aggregate(
        total_balance=Coalesce(Sum("balance"), _zero()),
        total_holds=Coalesce(Sum("held"), _zero()),
        total_available=Coalesce(Sum(Greatest(F("balance") - F("held"), _zero())), _zero()),
        total_debt=Coalesce(Sum("debt"), _zero()),
        in_debt=Count("pk", filter=Q(debt__gt=0)),
    )
    return {
        "balance": totals["total_balance"],
        "available": totals["total_available"],
        "holds": totals["total_holds"],
        # Left by recharges reversed after their credit (docs/reversals.md): a wallet in debt
        # is restricted. Across teams, the sum and how many wallets.
        "debt": totals["total_debt"],
        "wallets_in_debt": totals["in_debt"],
        "reversals_url": _changelist("wallet_reversal", **_team_search(team)),
    }


def recharge_figures(*, team: Team | None, live_mode: bool) -> dict:
    pending = _scoped(
        Recharge.objects.filter(live_mode=live_mode, status=Recharge.Status.PENDING), team
    )
    totals = pending.aggregate(count=Count("pk"), amount=Coalesce(Sum("amount"), _zero()))
    totals["url"] = _changelist(
        "wallet_recharge", status__exact="pending", mode=_mode(live_mode), **_team_filter(team)
    )
    return totals


def activity_figures(*, team: Team | None, live_mode: bool, when: Periods) -> dict:
    """Bookings made today and this month (São Paulo), and what they cost the wallet: the
    ledger's booking and change debits, and the refunds (of bookings and changes) credited
    back, in the same periods."""
    bookings = _scoped(
        Booking.objects.filter(
            live_mode=live_mode, created_at__gte=when.month_start, created_at__lt=when.month_end
        ),
        team,
    ).aggregate(
        month=Count("pk"),
        today=Count("pk", filter=Q(created_at__gte=when.day_start, created_at__lt=when.day_end)),
    )
    today = Q(created_at__gte=when.day_start, created_at__lt=when.day_end)
    # A change of a booking's flights costs (or gives back) what its ledger rows say.
    change = Transaction.ReferenceType.BOOKING_CHANGE
    spent = Q(
        type=Transaction.Type.DEBIT,
        reference_type__in=[
            Transaction.ReferenceType.BOOKING,
            Transaction.ReferenceType.BOOKING_SERVICES,  # extras bought after the sale
            change,
        ],
    )
    refunded = Q(
        type=Transaction.Type.CREDIT,
        reference_type__in=[Transaction.ReferenceType.REFUND, change],
    )
    ledger = _scoped(
        Transaction.objects.filter(
            live_mode=live_mode, created_at__gte=when.month_start, created_at__lt=when.month_end
        ),
        team,
    ).aggregate(
        spend_month=Coalesce(Sum("amount", filter=spent), _zero()),
        spend_today=Coalesce(Sum("amount", filter=spent & today), _zero()),
        refunds_month=Coalesce(Sum("amount", filter=refunded), _zero()),
        refunds_today=Coalesce(Sum("amount", filter=refunded & today), _zero()),
    )
    return {
        "bookings_today": bookings["today"],
        "bookings_month": bookings["month"],
        **ledger,
        # What bookings cost the wallet, net of what came back (a failed booking costs nothing).
        "net_spend_today": ledger["spend_today"] - ledger["refunds_today"],
        "net_spend_month": ledger["spend_month"] - ledger["refunds_month"],
        "bookings_url": _changelist(
            "bookings_booking", mode=_mode(live_mode), **_team_filter(team)
        ),
        "ledger_url": _changelist(
            "wallet_transaction", mode=_mode(live_mode), **_team_filter(team)
        ),
    }


def webhook_figures(*, team: Team | None, live_mode: bool) -> dict:
    """Webhooks disabled, and active ones whose latest attempts failed (they are retried, and
    disabled after enough consecutive failures): counts and the first few of each."""
    endpoints = _scoped(WebhookEndpoint.objects.filter(live_mode=live_mode), team)
    failing = Q(active=True, consecutive_failures__gt=0)
    counts = endpoints.aggregate(
        total=Count("pk"),
        failing=Count("pk", filter=failing),
        disabled=Count("pk", filter=Q(active=False)),
    )
    rows = list(
        endpoints.filter(failing | Q(active=False))
        .select_related("team")
        .order_by("active", "-consecutive_failures", "-updated_at")[:LIST_LIMIT]
    )
    for endpoint in rows:
        endpoint.admin_url = _change("webhooks_webhookendpoint", endpoint.pk)
    return {
        **counts,
        "rows": rows,
        "url": _changelist("webhooks_webhookendpoint", mode=_mode(live_mode), **_team_filter(team)),
    }


def key_figures(*, team: Team | None, live_mode: bool) -> dict:
    """Active keys of the mode (the latest used first), and how many were revoked lately."""
    keys = _scoped(ApiKey.objects.filter(live_mode=live_mode), team)
    counts = keys.aggregate(
        active=Count("pk", filter=Q(revoked_at__isnull=True)),
        revoked_lately=Count("pk", filter=Q(revoked_at__gte=timezone.now() - ATTENTION_LOOKBACK)),
    )
    rows = list(
        keys.filter(revoked_at__isnull=True)
        .select_related("team")
        .order_by(F("last_used_at").desc(nulls_last=True), "-created_at")[:LIST_LIMIT]
    )
    for key in rows:
        key.admin_url = _change("agencies_apikey", key.pk)
    return {
        **counts,
        "rows": rows,
        "url": _changelist("agencies_apikey", mode=_mode(live_mode), **_team_filter(team)),
    }


def recent_events(*, team: Team | None, live_mode: bool) -> dict:
    """The latest domain events of the mode: what happened, newest first."""
    events = _scoped(Event.objects.filter(live_mode=live_mode), team).exclude(
        type=EventType.WEBHOOK_TEST
    )
    rows = list(events.select_related("team").order_by("-created_at", "-id")[:LIST_LIMIT])
    for event in rows:
        event.label = EVENT_LABELS.get(event.type, event.type)
        data = event.data_object if isinstance(event.data_object, dict) else {}
        event.object_id = data.get("id", "")
        # A booking's event names it by its `ord_` id, a wallet movement for a booking by its
        # reference: people know the booking by its locator and its passenger.
        event.booking_id = next(
            (v for v in (data.get("id"), data.get("reference_id")) if _is_booking_id(v)), ""
        )
        event.admin_url = _change("webhooks_event", event.pk)
    # One query for the bookings the rows name (whatever the number of rows), not one a row.
    named = {
        b.pk: b
        for b in with_lead_passenger(
            Booking.objects.filter(
                live_mode=live_mode, pk__in={e.booking_id for e in rows if e.booking_id}
            )
        )
    }
    for event in rows:
        booking = named.get(event.booking_id)
        event.booking = booking
        event.booking_name = booking_name(booking) if booking else ""
        event.booking_url = _change("bookings_booking", booking.pk) if booking else ""
    return {
        "rows": rows,
        "url": _changelist("webhooks_event", mode=_mode(live_mode), **_team_filter(team)),
    }


def _is_booking_id(value) -> bool:
    return isinstance(value, str) and value.startswith("ord_")


def with_lead_passenger(bookings: QuerySet[Booking]) -> QuerySet[Booking]:
    """The bookings with their lead passenger's (the first's) names as two columns of the same
    query: a list of them costs one query, not one a row."""
    lead = BookingPassenger.objects.filter(booking=OuterRef("pk")).order_by("position")
    return bookings.annotate(
        lead_given_name=Subquery(lead.values("given_name")[:1]),
        lead_family_name=Subquery(lead.values("family_name")[:1]),
    )


def lead_passenger_name(booking: Booking) -> str:
    """The lead passenger's name (from `with_lead_passenger`), "[erased]" once the retention
    job erased it, "" when the booking has none."""
    given = getattr(booking, "lead_given_name", None) or ""
    family = getattr(booking, "lead_family_name", None) or ""
    if booking.personal_data_erased_at is not None or erased(given):
        return gettext("[erased]")
    return f"{given} {family}".strip()


def booking_name(booking: Booking) -> str:
    """How people know a booking: its locator and its lead passenger ("ABC123 · Bruno
    Carvalho"); its `ord_` id only while the airline has given no locator."""
    return " · ".join(
        part
        for part in (booking.booking_reference or booking.id, lead_passenger_name(booking))
        if part
    )


# --- The agency's to-do: what is waiting for the agency to act ---------------------------------

FAILED_LOOKBACK = timedelta(days=7)  # failed bookings stay on the to-do this long


def countdown_for_people(deadline: datetime | None, now: datetime) -> str:
    """What is left before a deadline, in words ("due in 3 h 20 min"), or "overdue". Counted
    here, on the server, at the time the page is made (the deadline itself is shown in São
    Paulo time beside it)."""
    if deadline is None:
        return ""
    left = deadline - now
    if left <= timedelta(0):
        return gettext("overdue")
    minutes = int(left.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return gettext("due in %(days)d d %(hours)d h") % {"days": days, "hours": hours}
    if hours:
        return gettext("due in %(hours)d h %(minutes)02d min") % {
            "hours": hours,
            "minutes": minutes,
        }
    return gettext("due in %(minutes)d min") % {"minutes": max(minutes, 1)}


def _todo_list(queryset: QuerySet[Booking], row) -> dict:
    """The first rows of a to-do list, named by locator and passenger, and how many there are
    (counted only when the slice is full)."""
    rows = [row(b) for b in with_lead_passenger(queryset)[:LIST_LIMIT]]
    for item, booking in rows:
        item.update(
            label=booking.booking_reference or booking.id,
            passenger=lead_passenger_name(booking),
            booking_id=booking.id,
            url=_change("bookings_booking", booking.pk),
        )
    count = len(rows) if len(rows) < LIST_LIMIT else queryset.order_by().count()
    return {"rows": [item for item, _booking in rows], "count": count}


def team_todo(
    *, team: Team, live_mode: bool, wallet: dict, recharges: dict, now: datetime | None = None
) -> dict:
    """What waits for the agency: holds to pay before their deadline (and whether the balance
    pays them), bookings failed in the last 7 days, and airline changes to answer. `wallet`
    and `recharges` are the page's figures (`wallet_figures`, `recharge_figures`).

    A hold's confirmation debits the balance (not the available credit, which already has the
    holds taken off), so each hold and their sum are compared with the balance. A restricted
    wallet (in debt after a reversed recharge, docs/reversals.md) confirms nothing whatever its
    balance. In test mode each confirmation is checked against the sandbox's constant balance
    on its own: nothing adds up, and no recharge is asked for."""
    now = now or timezone.now()
    mode = _mode(live_mode)
    restricted = wallet_restricted(team=team, live_mode=live_mode)
    balance = wallet["balance"] if wallet["balance"] is not None else ZERO
    holds_base = Booking.objects.filter(
        team=team, live_mode=live_mode, type=Booking.Type.HOLD, status=Booking.Status.PENDING
    )
    holds = _todo_list(
        holds_base.order_by(F("payment_required_by").asc(nulls_last=True), "created_at"),
        lambda b: (
            {
                "amount": b.base_cost_brl,
                "deadline": b.payment_required_by,
                "countdown": countdown_for_people(b.payment_required_by, now),
                "overdue": b.payment_required_by is not None and b.payment_required_by <= now,
                "covered": not restricted and b.base_cost_brl <= balance,
            },
            b,
        ),
    )
    total = wallet["holds"]  # the same sum as the holds card
    short = max(total - balance, ZERO) if live_mode else ZERO
    # In test mode each confirmation is checked against the sandbox's balance on its own.
    pays_all = total <= balance if live_mode else all(row["covered"] for row in holds["rows"])
    holds.update(
        total=total,
        covered=not restricted and pays_all,
        short=short,
        url=_changelist(
            "bookings_booking",
            status__exact="pending",
            type__exact="hold",
            mode=mode,
            **_team_filter(team),
        ),
    )
    failed = _todo_list(
        Booking.objects.filter(
            team=team,
            live_mode=live_mode,
            status=Booking.Status.FAILED,
            updated_at__gte=now - FAILED_LOOKBACK,
        ).order_by("-updated_at", "-id"),
        lambda b: (
            {
                "reason": failure_reason_for_people(b.failure_reason),
                "amount": b.base_cost_brl,
                "at": b.updated_at,
            },
            b,
        ),
    )
    failed["url"] = _changelist(
        "bookings_booking", status__exact="failed", mode=mode, **_team_filter(team)
    )
    changes = _todo_list(
        unanswered_change_bookings(live_mode=live_mode, now=now)
        .filter(team=team)
        .order_by("departing_at", "id"),
        lambda b: ({"departing_at": b.departing_at}, b),
    )
    changes["url"] = _changelist(
        "bookings_booking", attention="yes", mode=mode, **_team_filter(team)
    )
    # Asked for when the balance does not pay the holds, or is empty: the prompt links the
    # panel's new recharge form, the API's documentation, and the recharges already awaiting
    # payment.
    prompt = live_mode and (balance <= ZERO or short > ZERO)
    return {
        "restricted": restricted,
        "balance": balance,
        "holds": holds,
        "failed": failed,
        "changes": changes,
        "recharge_prompt": prompt,
        "recharge_docs_url": reverse("docs"),
        "recharge_add_url": reverse("admin:wallet_recharge_add"),
        "pending_recharges": recharges,
        "count": holds["count"] + failed["count"] + changes["count"],
    }


def team_home(*, team: Team, live_mode: bool, now: datetime | None = None) -> dict:
    """Everything an agency user's home page shows, for their team only."""
    when = periods(now)
    wallet = wallet_figures(team=team, live_mode=live_mode)
    recharges = recharge_figures(team=team, live_mode=live_mode)
    return {
        "when": when,
        "todo": team_todo(
            team=team, live_mode=live_mode, wallet=wallet, recharges=recharges, now=now
        ),
        "wallet": wallet,
        "recharges": recharges,
        "activity": activity_figures(team=team, live_mode=live_mode, when=when),
        "webhooks": webhook_figures(team=team, live_mode=live_mode),
        "keys": key_figures(team=team, live_mode=live_mode),
        "events": recent_events(team=team, live_mode=live_mode),
    }


# --- Support: every team, and what needs attention first ---------------------------------------


def unknown_outcome_bookings(*, live_mode: bool) -> QuerySet[Booking]:
    """Bookings whose supplier outcome is unknown, until it is resolved."""
    return Booking.objects.filter(live_mode=live_mode, outcome_unknown_since__isnull=False)


def unknown_cancellations(*, live_mode: bool) -> QuerySet[BookingCancellation]:
    """Cancellations whose confirmation's answer was lost, until the reconcile job settles
    them (confirmed and credited once, or expired)."""
    return BookingCancellation.objects.filter(
        booking__live_mode=live_mode, status=BookingCancellation.Status.UNKNOWN
    )


def unanswered_change_bookings(*, live_mode: bool, now: datetime) -> QuerySet[Booking]:
    """Ticketed bookings not yet departed whose airline changed the flights, unanswered."""
    return Booking.objects.filter(
        live_mode=live_mode,
        status=Booking.Status.TICKETED,
        departing_at__gt=now,
        pk__in=BookingAirlineChange.objects.filter(action_taken="").values("booking_id"),
    )


def failed_bookings(*, live_mode: bool, since: datetime) -> QuerySet[Booking]:
    return Booking.objects.filter(
        live_mode=live_mode, status=Booking.Status.FAILED, updated_at__gte=since
    )


def disabled_webhooks(*, live_mode: bool) -> QuerySet[WebhookEndpoint]:
    """Endpoints disabled after consecutive failures, for as long as they stay disabled,
    however long ago that was (an endpoint its team paused is not one)."""
    return WebhookEndpoint.objects.filter(
        live_mode=live_mode, active=False, deactivated_at__isnull=False
    )


def attention(*, live_mode: bool, now: datetime | None = None) -> list[dict]:
    """Support's worklist, each list with its count and first rows, most urgent first:
    bookings whose supplier outcome is unknown (until resolved), cancellations whose
    confirmation's answer was lost (until settled), wallets in debt (live, until paid),
    withdrawals pending for more than 30 minutes (until settled), and over the last 7 days,
    recharges reversed after their credit (live), recharges paid after they expired, payment
    notifications rejected, bookings failed and webhooks disabled after consecutive failures.
    Payment notifications have no mode: they are listed in both."""
    now = now or timezone.now()
    since = now - ATTENTION_LOOKBACK
    mode = _mode(live_mode)
    lists = []

    unknown = unknown_outcome_bookings(live_mode=live_mode)
    lists.append(
        _attention_list(
            key="unknown_outcome",
            title=_("Bookings with an unknown supplier outcome"),
            queryset=unknown.select_related("team").order_by("outcome_unknown_since"),
            url=_changelist("bookings_booking", attention="yes", mode=mode),
            row=lambda b: {
                "label": b.booking_reference or b.id,
                "detail": b.outcome_note or b.get_status_display(),
                "at": b.outcome_unknown_since,
                "team": b.team,
                "url": _change("bookings_booking", b.pk),
                "status": (b.status, b.get_status_display()),
            },
        )
    )
    cancelling = unknown_cancellations(live_mode=live_mode)
    lists.append(
        _attention_list(
            key="unknown_cancellations",
            title=_("Cancellations with an unknown supplier outcome"),
            queryset=cancelling.select_related("booking__team").order_by("created_at"),
            url=_changelist("bookings_booking", attention="yes", mode=mode),
            row=lambda c: {
                "label": c.booking.booking_reference or c.booking_id,
                "detail": cancellation_note_for_people(c.outcome_note),
                "amount": c.wallet_credit_amount,  # the quote's credit, not credited yet
                "at": c.confirming_since or c.created_at,
                "team": c.booking.team,
                "url": _change("bookings_booking", c.booking_id),
                "status": ("pending", _("Supplier outcome unknown")),
            },
        )
    )
    changed = unanswered_change_bookings(live_mode=live_mode, now=now)
    lists.append(
        _attention_list(
            key="airline_changes",
            title=_("Bookings whose airline changed the flights, unanswered"),
            queryset=changed.select_related("team").order_by("departing_at"),
            url=_changelist("bookings_booking", attention="yes", mode=mode),
            row=lambda b: {
                "label": b.booking_reference or b.id,
                "detail": _("Accept the new times or cancel"),
                "at": b.departing_at,
                "team": b.team,
                "url": _change("bookings_booking", b.pk),
                "status": (b.status, b.get_status_display()),
            },
        )
    )
    late = Recharge.objects.filter(
        live_mode=live_mode,
        status=Recharge.Status.COMPLETED,
        paid_at__gt=F("expires_at"),
        paid_at__gte=since,
    )
    lists.append(
        _attention_list(
            key="late_recharges",
            title=_("Recharges paid after they expired"),
            queryset=late.select_related("team").order_by("-paid_at"),
            url=_changelist("wallet_recharge", status__exact="completed", mode=mode),
            row=lambda r: {
                "label": r.id,
                "detail": r.get_payment_method_display(),
                "amount": r.amount,
                "at": r.paid_at,
                "team": r.team,
                "url": _change("wallet_recharge", r.pk),
                "status": (r.status, r.get_status_display()),
            },
        )
    )
    if live_mode:  # reversals and debts are of live wallets only
        in_debt = Wallet.objects.filter(debt__gt=0)
        lists.append(
            _attention_list(
                key="wallets_in_debt",
                title=_("Wallets in debt (restricted)"),
                queryset=in_debt.select_related("team").order_by("-debt"),
                url=_changelist("wallet_wallet", in_debt="yes"),
                row=lambda w: {
                    "label": w.team.name,
                    "detail": _("Reversed recharges not covered by the balance"),
                    "amount": w.debt,
                    "at": w.last_transaction_at,
                    "team": w.team,
                    "url": _change("wallet_wallet", w.pk),
                    "status": ("failed", _("Restricted")),
                },
            )
        )
        reversed_lately = Reversal.objects.filter(live_mode=True, created_at__gte=since)
        lists.append(
            _attention_list(
                key="reversals",
                title=_("Recharges refunded or charged back after the credit"),
                queryset=reversed_lately.select_related("team").order_by("-created_at"),
                url=_changelist("wallet_reversal", mode=mode),
                row=lambda r: {
                    "label": r.recharge_id,
                    "detail": r.get_reason_display(),
                    "amount": r.amount,
                    "at": r.created_at,
                    "team": r.team,
                    "url": _change("wallet_reversal", r.pk),
                    "status": ("failed", _("Reversed")),
                },
            )
        )
    rejected = ProviderNotification.objects.filter(
        state=ProviderNotification.State.REJECTED, received_at__gte=since
    )
    lists.append(
        _attention_list(
            key="rejected_notifications",
            title=_("Payment notifications rejected"),
            queryset=rejected.select_related("recharge__team").order_by("-received_at"),
            url=_changelist("wallet_providernotification", state__exact="rejected"),
            row=lambda n: {
                "label": n.recharge_id or n.payment_id or n.event_id,
                "detail": n.get_reason_display(),
                "at": n.received_at,
                "team": n.recharge.team if n.recharge_id else None,
                "url": _change("wallet_providernotification", n.pk),
                "status": ("failed", _("Rejected")),
            },
        )
    )
    stuck = Withdrawal.objects.filter(
        live_mode=live_mode,
        status=Withdrawal.Status.PENDING,
        created_at__lte=now - WITHDRAWAL_STUCK_AFTER,
    )
    lists.append(
        _attention_list(
            key="stuck_withdrawals",
            title=_("Withdrawals pending for more than 30 minutes"),
            queryset=stuck.select_related("team").order_by("created_at"),
            url=_changelist("wallet_withdrawal", status__exact="pending", mode=mode),
            row=lambda w: {
                "label": w.id,
                "detail": w.provider_status or _("No transfer at the provider yet"),
                "amount": w.amount,
                "at": w.created_at,
                "team": w.team,
                "url": _change("wallet_withdrawal", w.pk),
                "status": (w.status, w.get_status_display()),
            },
        )
    )
    failed = failed_bookings(live_mode=live_mode, since=since)
    lists.append(
        _attention_list(
            key="failed_bookings",
            title=_("Bookings failed"),
            queryset=failed.select_related("team").order_by("-updated_at"),
            url=_changelist("bookings_booking", status__exact="failed", mode=mode),
            row=lambda b: {
                "label": b.booking_reference or b.id,
                "detail": failure_reason_for_people(b.failure_reason),
                "amount": b.base_cost_brl,
                "at": b.updated_at,
                "team": b.team,
                "url": _change("bookings_booking", b.pk),
                "status": (b.status, b.get_status_display()),
            },
        )
    )
    disabled = disabled_webhooks(live_mode=live_mode)
    lists.append(
        _attention_list(
            key="disabled_webhooks",
            title=_("Webhooks disabled after failures"),
            queryset=disabled.select_related("team").order_by("-deactivated_at"),
            url=_changelist("webhooks_webhookendpoint", active__exact="0", mode=mode),
            row=lambda w: {
                "label": w.url,
                "detail": _("%(count)d consecutive failures") % {"count": w.consecutive_failures},
                "at": w.deactivated_at,
                "team": w.team,
                "url": _change("webhooks_webhookendpoint", w.pk),
                "status": ("inactive", _("Disabled")),
            },
        )
    )
    return sorted(lists, key=lambda item: not item["count"])  # lists with rows first


def _attention_list(*, key, title, queryset, url, row) -> dict:
    rows = [row(obj) for obj in queryset[:LIST_LIMIT]]
    count = len(rows) if len(rows) < LIST_LIMIT else queryset.order_by().count()
    for item in rows:
        team = item.get("team")
        item["team_url"] = team_overview_url(team.pk) if team else None
    return {"key": key, "title": title, "count": count, "rows": rows, "url": url}


def support_home(*, live_mode: bool, now: datetime | None = None) -> dict:
    """The same figures as a team's, summed across teams, with the attention lists first."""
    when = periods(now)
    return {
        "when": when,
        "attention": attention(live_mode=live_mode, now=now),
        "wallet": wallet_figures(team=None, live_mode=live_mode),
        "recharges": recharge_figures(team=None, live_mode=live_mode),
        "activity": activity_figures(team=None, live_mode=live_mode, when=when),
        "webhooks": webhook_figures(team=None, live_mode=live_mode),
        "keys": key_figures(team=None, live_mode=live_mode),
        "events": recent_events(team=None, live_mode=live_mode),
        "team_count": Team.objects.count(),
        "teams_url": _changelist("agencies_team"),
    }


# --- A team's overview (support) ---------------------------------------------------------------


def team_overview_url(team_id) -> str:
    return reverse("admin:agencies_team_overview", args=[team_id])


def team_overview(*, team: Team, live_mode: bool, now: datetime | None = None) -> dict:
    """One team on one page: wallet, keys, users, integrations, webhooks and recent bookings,
    each linking to its own admin list (filtered by the team) for the rest."""
    team.link_filtered = True  # type: ignore[attr-defined]  # for the template: links go to the lists filtered by this team
    figures = team_home(team=team, live_mode=live_mode, now=now)
    users = list(team.users.order_by("-is_active", "email")[: LIST_LIMIT * 2])
    for user in users:
        user.admin_url = _change("agencies_user", user.pk)  # type: ignore[attr-defined]  # for the template
    integrations = list(team.integrations.order_by("-connected_at")[:LIST_LIMIT])
    for integration in integrations:
        integration.admin_url = _change("agencies_integration", integration.pk)  # type: ignore[attr-defined]  # for the template
    bookings = list(
        Booking.objects.filter(team=team, live_mode=live_mode)
        .select_related("client")
        .order_by("-created_at", "-id")[:LIST_LIMIT]
    )
    for booking in bookings:
        booking.admin_url = _change("bookings_booking", booking.pk)  # type: ignore[attr-defined]  # for the template
    all_webhooks = list(
        WebhookEndpoint.objects.filter(team=team, live_mode=live_mode).order_by("created_at")[
            :LIST_LIMIT
        ]
    )
    for endpoint in all_webhooks:
        endpoint.admin_url = _change("webhooks_webhookendpoint", endpoint.pk)  # type: ignore[attr-defined]  # for the template
    mode = _mode(live_mode)
    team_filter = _team_filter(team)
    return {
        **figures,
        "team": team,
        "team_url": _change("agencies_team", team.pk),
        "wallet_url": _changelist("wallet_wallet", q=team.pk),
        "users": users,
        "users_url": _changelist("agencies_user", **team_filter),
        "integrations": integrations,
        "integrations_url": _changelist("agencies_integration", mode=mode, **team_filter),
        "all_webhooks": all_webhooks,
        "bookings": bookings,
        "bookings_url": _changelist("bookings_booking", mode=mode, **team_filter),
        "active_integration": next(
            (i for i in integrations if i.status == Integration.Status.ACTIVE), None
        ),
    }


def _mode(live_mode: bool) -> str:
    return "live" if live_mode else "test"


def _team_search(team: Team | None) -> dict:
    """Like `_team_filter`, for the lists that find a team by its id in their search."""
    if team is None or not getattr(team, "link_filtered", False):
        return {}
    return {"q": team.pk}


def _team_filter(team: Team | None) -> dict:
    """Links to a list filtered by the team: for support's team overview only (an agency user's
    lists are their team's already, and have no team filter)."""
    if team is None or not getattr(team, "link_filtered", False):
        return {}
    return {"team__id__exact": team.pk}


# --- The pages ---------------------------------------------------------------------------------


def _mode_context(request) -> dict:
    live_mode = request.GET.get("mode") != "test"
    return {
        "live_mode": live_mode,
        "live_url": f"{request.path}?mode=live",
        "test_url": f"{request.path}?mode=test",
    }


def home_page_context(request) -> dict:
    """The admin index's extra context: support's or the agency user's home."""
    user = request.user
    mode = _mode_context(request)
    if getattr(user, "is_support", False):
        return {"home": support_home(live_mode=mode["live_mode"]), "home_role": "support", **mode}
    if getattr(user, "team_id", None):
        home = team_home(team=user.team, live_mode=mode["live_mode"])
        return {
            "home": home,
            "home_role": "agency",
            "home_team": user.team,
            "home_shows": home_sections(user),
            **mode,
        }
    return {}


def home_sections(user) -> dict[str, bool]:
    """Which parts of the home page the agency user's role reads (panel/roles.py): the to-do
    (holds to pay, failed bookings, airline changes) for who sells or pays, the wallet's
    figures for who reads the wallet, keys, webhooks and events for developers. Within the
    to-do, the bookings' links and cards (failed bookings, airline changes) for who reads
    bookings, and the new recharge's link for who works in the wallet: no link leads to a 403."""
    return {
        "todo": may_view(user, Area.BOOKINGS) or may_view(user, Area.WALLET),
        "figures": may_view(user, Area.WALLET),
        "developers": may_view(user, Area.DEVELOPERS),
        "bookings": may_view(user, Area.BOOKINGS),
        "recharge": may_change(user, Area.WALLET),
    }


def team_overview_page_context(request, team: Team) -> dict:
    mode = _mode_context(request)
    return {"home": team_overview(team=team, live_mode=mode["live_mode"]), **mode}
