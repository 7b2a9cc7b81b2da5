"""The sales and commission report: a team's bookings over a period of São Paulo days, each
with what its customer paid, what it cost the wallet, the agency's markup and fee, its changes
and extras, its refunds and the revenue the agency keeps (docs/reports.md); and the NFS-e rows
that export the agency's service from it.

Selectors-style: every read takes the team and the mode. The numbers are the ledger's: each
booking-related movement of the period (`booking`, `booking_services`, `booking_change` and
`refund` references) lands in exactly one money column of its booking's row, so that the
report's cost columns sum to the wallet's booking movements of the same days (the statement's).
The agency's price of each movement (markup, fee, what the customer pays) is the booking's,
its change's or its extras' as they were priced:

- a sale (the booking's debit): cost = the debit; markup, fee and client amount as sold (the
  booking's amounts less its confirmed changes' and extras');
- extras bought after the sale (`bsv_`), a change of flights (`oco_`): their cost is their
  wallet movement, their revenue their markup (extras) or markup and fee (changes), in the
  period of the movement (a change with no movement: a refund to a voucher, or no difference,
  in the period of its confirmation); a debit given back because the supplier did not make
  them takes their revenue back with it;
- a refund of the booking: a sale that never became a ticket (issuance failed, or a paid hold
  cancelled before its ticket) gives back everything, markup and fee; a ticketed booking's
  cancellation gives back the markup in proportion to the refund (refund ÷ cost) and keeps
  the fee (the agency's work, selling and cancelling).

net revenue = markup + fee + revenue of changes and extras − revenue given back."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db.models import Count, DecimalField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _
from stdnum.br import cnpj, cpf

from agencies.models import Team
from bookings.models import (
    Booking,
    BookingCancellation,
    BookingChangeOffer,
    BookingPassenger,
    BookingServicesPurchase,
)
from core.money import q
from core.timestamps import business_date
from wallet.display import (
    EARLIEST_DAY,
    LATEST_DAY,
    StatementPeriod,
    StatementPeriodError,
)
from wallet.models import Transaction

ZERO = Decimal("0.00")
# A report covers at most this many days (a year, a leap year's included).
MAX_REPORT_DAYS = 366
BOOKING_REFERENCES = (
    Transaction.ReferenceType.BOOKING,
    Transaction.ReferenceType.REFUND,
    Transaction.ReferenceType.BOOKING_SERVICES,
    Transaction.ReferenceType.BOOKING_CHANGE,
)
# The money columns of a row and of the totals, in the order the report shows them.
MONEY_COLUMNS = (
    "client_amount",
    "base_cost_brl",
    "markup_amount",
    "fee_amount",
    "changes_extras_client_amount",
    "changes_extras_cost_brl",
    "changes_extras_revenue",
    "refund_amount",
    "refunded_revenue",
    "net_revenue",
)
_CHUNK = 2000  # ids per IN (...) query


def report_period(
    *, start: date, end: date, earliest: date = EARLIEST_DAY, latest: date = LATEST_DAY
) -> StatementPeriod:
    """The period, or StatementPeriodError saying what is wrong with it (`code`: too_early,
    too_late, start_after_end, too_long). The panel keeps typed dates within the statement's
    years (01/01/2000 to 31/12/2099: anything else is a typing mistake); the API takes the
    days its date filters take (`earliest`, `latest`)."""
    if start < earliest or end < earliest:
        raise StatementPeriodError("too_early", _("Choose dates from 01/01/2000 on."))
    if start > latest or end > latest:
        raise StatementPeriodError("too_late", _("Choose dates up to 31/12/2099."))
    if start > end:
        raise StatementPeriodError(
            "start_after_end", _("The start date is after the end date: swap them.")
        )
    if end - start >= timedelta(days=MAX_REPORT_DAYS):
        raise StatementPeriodError(
            "too_long",
            _("A report covers at most %(days)d days: choose a shorter period.")
            % {"days": MAX_REPORT_DAYS},
        )
    return StatementPeriod(start=start, end=end)


def tax_id_for_people(digits: str) -> str:
    """A CPF as 123.456.789-09, a CNPJ as 12.345.678/0001-95; anything else as stored."""
    if len(digits) == 11 and digits.isdigit():
        return cpf.format(digits)
    if len(digits) == 14 and digits.isdigit():
        return cnpj.format(digits)
    return digits


def route_of(slices: list[dict]) -> str:
    """ "GRU → LIS → GRU": each slice's origin and destination, a repeated airport once."""
    codes: list[str] = []
    for slice_ in slices or []:
        segments = slice_.get("segments") or []
        if not segments:
            continue
        for end in (segments[0].get("origin"), segments[-1].get("destination")):
            code = (end or {}).get("iata_code", "")
            if code and (not codes or codes[-1] != code):
                codes.append(code)
    return " → ".join(codes)


def travel_date_of(booking: Booking) -> date | None:
    """The first flight's day at its airport (the slices' local time)."""
    try:
        departing = booking.slices[0]["segments"][0]["departing_at"]
        return datetime.fromisoformat(departing).date()
    except (IndexError, KeyError, TypeError, ValueError):
        return business_date(booking.departing_at) if booking.departing_at else None


@dataclass
class SalesReportRow:
    booking: Booking
    first_at: datetime  # its first movement (or confirmation) in the period
    last_at: datetime
    sold_at: datetime | None = None  # the sale's debit, when it is in the period
    client_amount: Decimal = ZERO
    base_cost_brl: Decimal = ZERO
    markup_amount: Decimal = ZERO
    fee_amount: Decimal = ZERO
    changes_extras_client_amount: Decimal = ZERO
    changes_extras_cost_brl: Decimal = ZERO
    changes_extras_revenue: Decimal = ZERO
    refund_amount: Decimal = ZERO  # credited to the wallet for the booking
    refunded_revenue: Decimal = ZERO  # markup and fee given back to the customer with it

    @property
    def net_revenue(self) -> Decimal:
        return (
            self.markup_amount
            + self.fee_amount
            + self.changes_extras_revenue
            - self.refunded_revenue
        )

    @property
    def client_refund(self) -> Decimal:
        """What the customer gets back: the refund and the revenue given back with it."""
        return self.refund_amount + self.refunded_revenue

    @property
    def client_net(self) -> Decimal:
        """What the customer paid, net: sale, changes and extras, less what they got back."""
        return self.client_amount + self.changes_extras_client_amount - self.client_refund

    @property
    def cost_net(self) -> Decimal:
        """What the wallet paid, net: sale, changes and extras, less what it got back."""
        return self.base_cost_brl + self.changes_extras_cost_brl - self.refund_amount

    @property
    def reference(self) -> str:
        return self.booking.booking_reference or self.booking.id

    @property
    def route(self) -> str:
        return route_of(self.booking.slices)

    @property
    def travel_date(self) -> date | None:
        return travel_date_of(self.booking)

    @property
    def client_name(self) -> str:
        return self.booking.client.full_name

    @property
    def client_tax_id(self) -> str:
        return tax_id_for_people(self.booking.client.tax_id)

    @property
    def ticketed(self) -> bool:
        return self.booking.ticketed_at is not None

    def money(self) -> dict[str, Decimal]:
        return {name: getattr(self, name) for name in MONEY_COLUMNS}


@dataclass
class SalesReportTotals:
    bookings: int = 0
    sales: int = 0  # rows whose sale is in the period
    client_amount: Decimal = ZERO
    base_cost_brl: Decimal = ZERO
    markup_amount: Decimal = ZERO
    fee_amount: Decimal = ZERO
    changes_extras_client_amount: Decimal = ZERO
    changes_extras_cost_brl: Decimal = ZERO
    changes_extras_revenue: Decimal = ZERO
    refund_amount: Decimal = ZERO
    refunded_revenue: Decimal = ZERO
    net_revenue: Decimal = ZERO
    # The wallet's booking movements of the period (the statement's), for reconciling.
    wallet_debits: Decimal = ZERO
    wallet_credits: Decimal = ZERO

    def money(self) -> dict[str, Decimal]:
        return {name: getattr(self, name) for name in MONEY_COLUMNS}


@dataclass
class SalesReport:
    team: Team
    live_mode: bool
    period: StatementPeriod
    rows: list[SalesReportRow] = field(default_factory=list)
    totals: SalesReportTotals = field(default_factory=SalesReportTotals)


def _chunks(ids: Iterable[str]) -> Iterable[list[str]]:
    ids = sorted(set(ids))
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


def _confirmed_sum(model, status: str, column: str) -> Coalesce:
    """The sum of `column` over the booking's confirmed `model` rows (a subquery: several of
    them on one query do not multiply each other's rows as joins would)."""
    total = (
        model.objects.filter(booking=OuterRef("pk"), status=status)
        .order_by()
        .values("booking")
        .annotate(total=Sum(column))
        .values("total")
    )
    zero = Value(ZERO, output_field=DecimalField(max_digits=14, decimal_places=2))
    return Coalesce(
        Subquery(total, output_field=DecimalField(max_digits=14, decimal_places=2)), zero
    )


def _bookings(team: Team, live_mode: bool, ids: Iterable[str]) -> dict[str, Booking]:
    """The bookings, each with its confirmed changes' and extras' amounts (one query, one
    snapshot: a change confirmed meanwhile is in both the booking's amounts and the sums, or
    in neither)."""
    changed = BookingChangeOffer.Status.CONFIRMED
    bought = BookingServicesPurchase.Status.CONFIRMED
    found: dict[str, Booking] = {}
    for chunk in _chunks(ids):
        rows = (
            Booking.objects.filter(team=team, live_mode=live_mode, pk__in=chunk)
            .select_related("client")
            .annotate(
                changes_markup=_confirmed_sum(BookingChangeOffer, changed, "markup_amount"),
                changes_fee=_confirmed_sum(BookingChangeOffer, changed, "fee_amount"),
                extras_markup=_confirmed_sum(BookingServicesPurchase, bought, "markup_amount"),
                passenger_count=Coalesce(
                    Subquery(
                        BookingPassenger.objects.filter(booking=OuterRef("pk"))
                        .order_by()
                        .values("booking")
                        .annotate(count=Count("pk"))
                        .values("count")
                    ),
                    0,
                ),
            )
        )
        found.update((b.pk, b) for b in rows)
    return found


def _sale_markup(booking) -> Decimal:
    return q(booking.markup_amount - booking.changes_markup - booking.extras_markup)


def _sale_fee(booking) -> Decimal:
    return q(booking.fee_amount - booking.changes_fee)


def _refunded_revenue(booking: Booking, refund: Decimal) -> Decimal:
    """What a refund of the booking gives back of the agency's revenue: everything for a sale
    that never became a ticket; for a ticketed booking, its markup in proportion to the refund
    (the fee is kept)."""
    if booking.ticketed_at is None:
        return booking.markup_amount + booking.fee_amount
    if booking.base_cost_brl <= 0:
        return ZERO
    share = min(refund / booking.base_cost_brl, Decimal(1))
    return q(booking.markup_amount * share)


def sales_report(*, team: Team, live_mode: bool, period: StatementPeriod) -> SalesReport:
    """The team's `live_mode` bookings with a movement (or a change or cancellation confirmed)
    in `period`, in the order of their first one, and the period's totals."""
    starts, ends = period.starts_at, period.ends_at
    movements = list(
        Transaction.objects.filter(
            team=team,
            live_mode=live_mode,
            created_at__gte=starts,
            created_at__lt=ends,
            reference_type__in=BOOKING_REFERENCES,
        )
        .order_by("created_at", "sequence", "id")
        .only("id", "type", "amount", "reference_type", "reference_id", "created_at")
    )
    purchase_ids = [m.reference_id for m in movements if m.reference_id.startswith("bsv_")]
    offer_ids = [
        m.reference_id
        for m in movements
        if m.reference_type == Transaction.ReferenceType.BOOKING_CHANGE
    ]
    scope = {"booking__team": team, "booking__live_mode": live_mode}
    purchases = {
        p.pk: p
        for chunk in _chunks(purchase_ids)
        for p in BookingServicesPurchase.objects.filter(pk__in=chunk, **scope)
    }
    offers = {
        o.pk: o
        for chunk in _chunks(offer_ids)
        for o in BookingChangeOffer.objects.filter(pk__in=chunk, **scope)
    }
    # Changes that moved no money (refunded to a voucher, or no difference): their fee is
    # revenue all the same, on the day they were confirmed.
    quiet_changes = list(
        BookingChangeOffer.objects.filter(
            status=BookingChangeOffer.Status.CONFIRMED,
            wallet_amount=0,
            confirmed_at__gte=starts,
            confirmed_at__lt=ends,
            **scope,
        )
    )
    # Ticketed bookings cancelled with nothing credited (a voucher, airline credits, no
    # refund): listed, with no money.
    quiet_cancellations = list(
        BookingCancellation.objects.filter(
            status=BookingCancellation.Status.CONFIRMED,
            transaction_id="",
            confirmed_at__gte=starts,
            confirmed_at__lt=ends,
            booking__ticketed_at__isnull=False,
            **scope,
        ).only("booking_id", "confirmed_at")
    )
    booking_of = {
        **{p.pk: p.booking_id for p in purchases.values()},
        **{o.pk: o.booking_id for o in offers.values()},
    }
    wanted = {booking_of.get(m.reference_id, m.reference_id) for m in movements}
    wanted |= {o.booking_id for o in quiet_changes} | {c.booking_id for c in quiet_cancellations}
    bookings = _bookings(team, live_mode, wanted)

    rows: dict[str, SalesReportRow] = {}
    totals = SalesReportTotals()

    def row_for(booking_id: str, moment: datetime) -> SalesReportRow | None:
        booking = bookings.get(booking_id)
        if booking is None:
            return None
        row = rows.get(booking_id)
        if row is None:
            row = rows[booking_id] = SalesReportRow(
                booking=booking, first_at=moment, last_at=moment
            )
        row.first_at, row.last_at = min(row.first_at, moment), max(row.last_at, moment)
        return row

    for txn in movements:
        debit = txn.type == Transaction.Type.DEBIT
        row = row_for(booking_of.get(txn.reference_id, txn.reference_id), txn.created_at)
        if row is None:
            continue
        if debit:
            totals.wallet_debits += txn.amount
        else:
            totals.wallet_credits += txn.amount
        booking = row.booking
        reference = txn.reference_type
        if reference == Transaction.ReferenceType.BOOKING:
            signed = txn.amount if debit else -txn.amount
            markup = _sale_markup(booking) if debit else -_sale_markup(booking)
            fee = _sale_fee(booking) if debit else -_sale_fee(booking)
            row.sold_at = row.sold_at or (txn.created_at if debit else None)
            row.base_cost_brl += signed
            row.markup_amount += markup
            row.fee_amount += fee
            row.client_amount += signed + markup + fee
        elif txn.reference_id in purchases:  # extras: their debit, or its refund
            purchase = purchases[txn.reference_id]
            sign = 1 if debit else -1
            row.changes_extras_cost_brl += sign * txn.amount
            row.changes_extras_revenue += sign * purchase.markup_amount
            row.changes_extras_client_amount += sign * (txn.amount + purchase.markup_amount)
        elif txn.reference_id in offers:  # a change: its debit, the debit back, or a refund
            offer = offers[txn.reference_id]
            revenue = offer.markup_amount + offer.fee_amount
            if debit:
                row.changes_extras_cost_brl += txn.amount
                row.changes_extras_revenue += revenue
                row.changes_extras_client_amount += txn.amount + revenue
            elif offer.change_cost_brl > 0:  # the supplier did not make it: all of it back
                row.changes_extras_cost_brl -= txn.amount
                row.changes_extras_revenue -= revenue
                row.changes_extras_client_amount -= txn.amount + revenue
            else:  # a cheaper change refunded in cash: the customer gets it less the fee
                row.changes_extras_cost_brl -= txn.amount
                row.changes_extras_revenue += revenue
                row.changes_extras_client_amount += revenue - txn.amount
        elif reference == Transaction.ReferenceType.REFUND:  # the booking's own refund
            row.refund_amount += txn.amount
            row.refunded_revenue += _refunded_revenue(booking, txn.amount)
        else:  # a reference no longer known (never written today): its money, as it moved
            row.changes_extras_cost_brl += txn.amount if debit else -txn.amount
            row.changes_extras_client_amount += txn.amount if debit else -txn.amount

    for offer in quiet_changes:
        moment = offer.confirmed_at or starts
        row = row_for(offer.booking_id, moment)
        if row is not None:
            row.changes_extras_revenue += offer.markup_amount + offer.fee_amount
            row.changes_extras_client_amount += offer.markup_amount + offer.fee_amount
    for cancellation in quiet_cancellations:
        row_for(cancellation.booking_id, cancellation.confirmed_at or starts)

    ordered = sorted(rows.values(), key=lambda r: (r.first_at, r.booking.pk))
    totals.bookings = len(ordered)
    totals.sales = sum(1 for r in ordered if r.sold_at is not None)
    for row in ordered:
        for name, value in row.money().items():
            setattr(totals, name, getattr(totals, name) + value)
    return SalesReport(team=team, live_mode=live_mode, period=period, rows=ordered, totals=totals)


# --- NFS-e --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NfseRow:
    """One invoice of the agency's service, in Asaas's names (POST /v3/invoices, its customer
    as POST /v3/customers names it)."""

    external_reference: str  # the booking's ord_ id
    customer_name: str
    customer_cpf_cnpj: str  # formatted (a spreadsheet keeps a CPF's leading zero)
    customer_email: str
    service_description: str
    observations: str
    value: Decimal  # what the customer paid, net
    deductions: Decimal  # the supplier's cost, net (value − deductions = the agency's revenue)
    effective_date: date
    municipal_service_code: str
    municipal_service_name: str


def _nfse_description(row: SalesReportRow) -> str:
    booking = row.booking
    count = getattr(booking, "passenger_count", 0)
    travel = row.travel_date.strftime("%d/%m/%Y") if row.travel_date else ""
    parts = [
        f"Intermediação na venda de passagem aérea: localizador {row.reference}",
        f"trecho {row.route}" if row.route else "",
        f"viagem em {travel}" if travel else "",
        (f"{count} passageiro" if count == 1 else f"{count} passageiros") if count else "",
    ]
    text = ", ".join(part for part in parts if part) + "."
    if row.changes_extras_revenue:
        text += " Inclui alterações e serviços adicionais."
    if row.refund_amount:
        text += " Reserva cancelada com reembolso."
    return text


def nfse_rows(report: SalesReport) -> list[NfseRow]:
    """One invoice per ticketed booking of the report whose revenue for the period is positive
    (a sale; a sale cancelled within the period that keeps a fee; a change's fee). The value is
    what the customer paid, the deductions what the supplier was paid, both net of refunds;
    when the supplier's side is a refund (a cheaper change), the invoice is the revenue alone."""
    team = report.team
    rows = []
    for row in report.rows:
        if not row.ticketed or row.net_revenue <= 0:
            continue
        deductions = max(row.cost_net, ZERO)
        moment = row.sold_at or row.last_at
        rows.append(
            NfseRow(
                external_reference=row.booking.pk,
                customer_name=row.client_name,
                customer_cpf_cnpj=row.client_tax_id,
                customer_email=row.booking.client.email,
                service_description=_nfse_description(row),
                observations=(
                    "Deduções: valor repassado à companhia aérea pela passagem "
                    f"(reserva {row.booking.pk})."
                ),
                value=deductions + row.net_revenue,
                deductions=deductions,
                effective_date=business_date(moment),
                municipal_service_code=team.municipal_service_code,
                municipal_service_name=team.municipal_service_name,
            )
        )
    return rows
