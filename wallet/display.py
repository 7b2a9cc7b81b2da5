"""What the panel shows of the wallet, for people: ledger descriptions in the reader's language,
and the wallet statement.

A movement's `description` is stored as written when it happened, in English (the API returns
it as it is); the panel, the statement and its files show the known ones in the reader's
language, and anything else as stored.

The wallet statement: a team's ledger over a period of São Paulo days (selectors-style reads,
always scoped by team and mode).

A statement is the ledger and nothing else: its opening balance is the sum of the movements
before the period, its closing balance the opening plus the period's credits minus its debits,
so `opening + credits - debits == closing` always holds and `closing` is the balance at the end
of the period (the opening balance of the next day's statement). In live mode these sums are
the wallet's balance chain (`balance_after`, `Wallet.balance`: wallet/ledger_check.py checks
they agree). Test mode has a constant sandbox balance (5000.00) whatever happens, so there the
balances are the sum of the test movements from zero, and the page says so.

Movements are ordered as they happened: `created_at`, then the live chain's `sequence`.

A movement of a booking (its sale, refund, change or extras) says which booking: its locator,
lead passenger and route. Bookings sit above the wallet, so the wallet asks for them by the
name in settings.WALLET_LEDGER_BOOKINGS, once for each batch of rows (a page, or 2000 rows of
a file), never once a row.

A statement is read in several queries (opening, totals, then the rows, page by page or while
a file streams) while payments and bookings keep writing. In live mode it is pinned to the
wallet's chain as it stood when the totals were read (`through_sequence`): a live movement
gets its sequence under the wallet's row lock, so every movement up to that number had
committed, and every later one is left out of every part. Test mode has no chain; a test
movement landing during the read may show in the rows and not the totals.
"""

import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from itertools import islice

from django.conf import settings
from django.db.models import Count, DecimalField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from agencies.models import Team
from core.i18n import stored_text_for_people
from core.timestamps import business_day_bounds
from wallet.models import Transaction

# --- Ledger descriptions ------------------------------------------------------------------------

# The stored English (as bookings/services/ and wallet/services/recharges.py write it) and
# its message for people; the pattern's groups fill the placeholders.
_KNOWN = [
    (
        re.compile(r"Booking (?P<booking>\S+) \((?P<airline>[^)]*)\)"),
        gettext_noop("Booking %(booking)s (%(airline)s)"),
    ),
    (
        re.compile(r"Refund of booking (?P<booking>\S+): issuance failed"),
        gettext_noop("Refund of booking %(booking)s: issuance failed"),
    ),
    (
        re.compile(r"Refund of booking (?P<booking>\S+)"),
        gettext_noop("Refund of booking %(booking)s"),
    ),
    (
        re.compile(r"Recharge (?P<recharge>\S+) by (?P<method>.+)"),
        gettext_noop("Recharge %(recharge)s by %(method)s"),
    ),
]


def description_for_people(stored: str) -> str:
    return stored_text_for_people(stored, _KNOWN)


# --- The statement ------------------------------------------------------------------------------

ZERO = Decimal("0.00")
MAX_PERIOD_YEARS = 5
# Dates outside these are typing mistakes (and keep date arithmetic far from its limits).
EARLIEST_DAY = date(2000, 1, 1)
LATEST_DAY = date(2099, 12, 31)


class StatementPeriodError(ValueError):
    """A period a statement cannot cover; `message` is for people (translated lazily)."""

    def __init__(self, code: str, message):
        super().__init__(code)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class StatementPeriod:
    """Calendar days in America/Sao_Paulo, both inclusive."""

    start: date
    end: date

    @property
    def starts_at(self) -> datetime:
        return business_day_bounds(self.start)[0]

    @property
    def ends_at(self) -> datetime:
        """The first instant after the period (exclusive)."""
        return business_day_bounds(self.end)[1]


def period_latest_end(start: date) -> date:
    """The last day a statement starting on `start` may cover: MAX_PERIOD_YEARS years less a
    day (01/01/2021 → 31/12/2025; a 29 February start counts from 1 March)."""
    year = start.year + MAX_PERIOD_YEARS
    try:
        anniversary = start.replace(year=year)
    except ValueError:  # 29 February in a year that has none
        anniversary = date(year, 3, 1)
    return anniversary - timedelta(days=1)


def statement_period(*, start: date, end: date) -> StatementPeriod:
    """The period, or StatementPeriodError saying what is wrong with it."""
    if start < EARLIEST_DAY or end < EARLIEST_DAY:
        raise StatementPeriodError("too_early", _("Choose dates from 01/01/2000 on."))
    if start > LATEST_DAY or end > LATEST_DAY:
        raise StatementPeriodError("too_late", _("Choose dates up to 31/12/2099."))
    if start > end:
        raise StatementPeriodError(
            "start_after_end", _("The start date is after the end date: swap them.")
        )
    if end > period_latest_end(start):
        raise StatementPeriodError(
            "too_long",
            _("A statement covers at most %(years)d years: choose a shorter period.")
            % {"years": MAX_PERIOD_YEARS},
        )
    return StatementPeriod(start=start, end=end)


def month_to_date(today: date) -> StatementPeriod:
    """The default period: from the first of `today`'s month to `today`."""
    return StatementPeriod(start=today.replace(day=1), end=today)


# --- The booking behind a movement ---------------------------------------------------------------

# The references the bookings app writes: a booking's id (its sale, or its refund), a change
# offer's (oco_…) or an extras purchase's (bsv_…; their refund too).
BOOKING_REFERENCE_TYPES = frozenset(
    {
        Transaction.ReferenceType.BOOKING,
        Transaction.ReferenceType.REFUND,
        Transaction.ReferenceType.BOOKING_SERVICES,
        Transaction.ReferenceType.BOOKING_CHANGE,
    }
)
_BATCH = 2000  # rows described at once while a file streams


@dataclass(frozen=True)
class MovementBooking:
    """The booking a movement was for, as the booking's page shows it."""

    locator: str  # the airline's booking reference; "" before the airline gave one
    lead_passenger: str  # "[erased]" (translated) once retention erased the passengers
    route: str  # "GRU → LIS → GRU"


@functools.cache
def _bookings_of() -> Callable[..., dict[str, MovementBooking]]:
    """`f(*, team, live_mode, reference_ids) -> {reference_id: MovementBooking}`: bookings
    build on the wallet, so it is named by a setting, not imported."""
    return import_string(settings.WALLET_LEDGER_BOOKINGS)


def movement_bookings(
    *, team, live_mode: bool, transactions: Collection[Transaction]
) -> dict[str, MovementBooking]:
    """The booking behind each of `transactions` that has one, by reference id (one lookup for
    them all)."""
    wanted = {t.reference_id for t in transactions if t.reference_type in BOOKING_REFERENCE_TYPES}
    if not wanted:
        return {}
    return _bookings_of()(team=team, live_mode=live_mode, reference_ids=wanted)


def _batches(rows: Iterable[Transaction], size: int) -> Iterator[list[Transaction]]:
    rows = iter(rows)
    while batch := list(islice(rows, size)):
        yield batch


@dataclass(frozen=True)
class StatementLine:
    transaction: Transaction
    signed_amount: Decimal  # negative for a debit
    balance: Decimal  # the running balance after this movement
    booking: MovementBooking | None = None  # the booking the movement was for, if any

    @property
    def description(self) -> str:
        return description_for_people(self.transaction.description)


@dataclass(frozen=True)
class Statement:
    team: Team
    live_mode: bool
    period: StatementPeriod
    opening_balance: Decimal
    total_credits: Decimal
    total_debits: Decimal
    closing_balance: Decimal
    credit_count: int
    debit_count: int
    through_sequence: int | None = None  # live: the chain as it stood when the totals were read

    @property
    def movement_count(self) -> int:
        return self.credit_count + self.debit_count

    @property
    def net_movement(self) -> Decimal:
        return self.total_credits - self.total_debits

    @property
    def balances_are_notional(self) -> bool:
        """Test mode: the balances are sums of the test movements, not a wallet's."""
        return not self.live_mode

    def movements(self) -> QuerySet:
        """The period's ledger rows, in the order they happened."""
        rows = statement_movements(team=self.team, live_mode=self.live_mode, period=self.period)
        return _through(rows, self.through_sequence)

    def lines(self, *, offset: int = 0, limit: int | None = None) -> Iterator[StatementLine]:
        """The movements from position `offset` (a page), each with its running balance."""
        rows = self.movements()
        balance = self.opening_balance
        if offset:
            balance += _net(rows[:offset])
        page = rows[offset : offset + limit] if limit is not None else rows[offset:]
        for batch in _batches(page.iterator(chunk_size=_BATCH), _BATCH):
            bookings = movement_bookings(
                team=self.team, live_mode=self.live_mode, transactions=batch
            )
            for txn in batch:
                signed = txn.amount if txn.type == Transaction.Type.CREDIT else -txn.amount
                balance += signed
                booking = (
                    bookings.get(txn.reference_id)
                    if txn.reference_type in BOOKING_REFERENCE_TYPES
                    else None
                )
                yield StatementLine(
                    transaction=txn, signed_amount=signed, balance=balance, booking=booking
                )


def _ledger(*, team, live_mode: bool) -> QuerySet:
    return Transaction.objects.filter(team=team, live_mode=live_mode)


def statement_movements(*, team, live_mode: bool, period: StatementPeriod) -> QuerySet:
    return (
        _ledger(team=team, live_mode=live_mode)
        .filter(created_at__gte=period.starts_at, created_at__lt=period.ends_at)
        .order_by("created_at", "sequence", "id")
    )


def _through(rows: QuerySet, sequence: int | None) -> QuerySet:
    return rows if sequence is None else rows.filter(sequence__lte=sequence)


def _totals(queryset: QuerySet) -> dict:
    zero = Value(ZERO, output_field=DecimalField(max_digits=14, decimal_places=2))
    return queryset.aggregate(
        credits=Coalesce(Sum("amount", filter=Q(type=Transaction.Type.CREDIT)), zero),
        debits=Coalesce(Sum("amount", filter=Q(type=Transaction.Type.DEBIT)), zero),
    )


def _net(queryset: QuerySet) -> Decimal:
    totals = _totals(queryset)
    return totals["credits"] - totals["debits"]


def balance_at(*, team, live_mode: bool, moment: datetime) -> Decimal:
    """The ledger balance just before `moment`: every movement created earlier, summed."""
    return _net(_ledger(team=team, live_mode=live_mode).filter(created_at__lt=moment).order_by())


def statement_get(*, team, live_mode: bool, period: StatementPeriod) -> Statement:
    """Opening, totals and closing of `team`'s `live_mode` ledger over `period`."""
    through = None
    if live_mode:
        through = (
            _ledger(team=team, live_mode=True)
            .order_by("-sequence")
            .values_list("sequence", flat=True)
            .first()
        )
    opening = balance_at(team=team, live_mode=live_mode, moment=period.starts_at)
    rows = _through(
        statement_movements(team=team, live_mode=live_mode, period=period), through
    ).order_by()
    zero = Value(ZERO, output_field=DecimalField(max_digits=14, decimal_places=2))
    totals = rows.aggregate(
        credits=Coalesce(Sum("amount", filter=Q(type=Transaction.Type.CREDIT)), zero),
        debits=Coalesce(Sum("amount", filter=Q(type=Transaction.Type.DEBIT)), zero),
        credit_count=Count("id", filter=Q(type=Transaction.Type.CREDIT)),
        debit_count=Count("id", filter=Q(type=Transaction.Type.DEBIT)),
    )
    return Statement(
        team=team,
        live_mode=live_mode,
        period=period,
        opening_balance=opening,
        total_credits=totals["credits"],
        total_debits=totals["debits"],
        closing_balance=opening + totals["credits"] - totals["debits"],
        credit_count=totals["credit_count"],
        debit_count=totals["debit_count"],
        through_sequence=through,
    )
