"""The sales report as files (bookings/reports.py computes): a CSV for spreadsheets and an A4
PDF, in the reader's language with the statement's conventions (core/exports.py: a byte order
mark; Portuguese `;` and decimal commas); and the NFS-e export, a CSV in Asaas's invoice field
names, always Brazilian (`;`, decimal commas: the invoice is a Brazilian document).

The NFS-e CSV is an export for the accountant (or a later issuance through the agency's Asaas
account), not an issuance: nothing is sent to a city hall or to Asaas."""

import io
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _

from bookings.models import Booking
from bookings.reports import SalesReport, SalesReportRow, nfse_rows
from core.exports import (
    csv_day,
    csv_moment,
    csv_number,
    csv_stream,
    csv_text,
    pdf_escape,
    pdf_house_style,
    pdf_wrap_lines,
)
from core.money import money_display

# Asaas's names: the invoice's (POST /v3/invoices), its `customer` expanded into the customer's
# own fields (POST /v3/customers: name, cpfCnpj, email).
NFSE_COLUMNS = (
    "externalReference",
    "customer.name",
    "customer.cpfCnpj",
    "customer.email",
    "serviceDescription",
    "observations",
    "value",
    "deductions",
    "effectiveDate",
    "municipalServiceCode",
    "municipalServiceName",
)
NFSE_LANGUAGE = "pt-br"


def period_label(report: SalesReport, *, language: str) -> str:
    return _("%(start)s to %(end)s") % {
        "start": csv_day(report.period.start, language=language),
        "end": csv_day(report.period.end, language=language),
    }


def mode_label(report: SalesReport) -> str:
    return _("Live data") if report.live_mode else _("Test data")


def status_label(row: SalesReportRow) -> str:
    return str(Booking.Status(row.booking.status).label)


def column_labels() -> list[str]:
    """The money columns' headers, in the order of reports.MONEY_COLUMNS."""
    return [
        _("Client amount (R$)"),
        _("Cost (R$)"),
        _("Markup (R$)"),
        _("Fee (R$)"),
        _("Changes and extras: client amount (R$)"),
        _("Changes and extras: cost (R$)"),
        _("Changes and extras: revenue (R$)"),
        _("Refunds to the wallet (R$)"),
        _("Revenue given back (R$)"),
        _("Net revenue (R$)"),
    ]


def sales_csv_rows(report: SalesReport, *, language: str) -> Iterator[list[str]]:
    with translation.override(language):

        def number(value: Decimal) -> str:
            return csv_number(value, language=language)

        totals = report.totals
        yield [_("Sales and commission report"), csv_text(report.team.name)]
        if report.team.tax_id:
            yield [_("CNPJ or CPF"), csv_text(report.team.tax_id)]
        yield [_("Period"), period_label(report, language=language)]
        yield [_("Data"), mode_label(report)]
        yield [_("Bookings"), str(totals.bookings)]
        yield [
            _("Client amount (R$)"),
            number(totals.client_amount + totals.changes_extras_client_amount),
        ]
        yield [_("Net revenue (R$)"), number(totals.net_revenue)]
        yield [_("Wallet debits for bookings (R$)"), number(totals.wallet_debits)]
        yield [_("Wallet credits for bookings (R$)"), number(totals.wallet_credits)]
        yield []
        yield [
            _("Booking reference"),
            _("Booking"),
            _("Status"),
            _("Client"),
            _("CNPJ or CPF"),
            _("Route"),
            _("Travel date"),
            _("Sold on (Brasília time)"),
            *column_labels(),
        ]
        for row in report.rows:
            yield [
                csv_text(row.reference),
                row.booking.pk,
                status_label(row),
                csv_text(row.client_name),
                row.client_tax_id,
                row.route,
                csv_day(row.travel_date, language=language) if row.travel_date else "",
                csv_moment(row.sold_at, language=language) if row.sold_at else "",
                *(number(value) for value in row.money().values()),
            ]
        yield [
            _("Total"),
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            *(number(value) for value in totals.money().values()),
        ]


def sales_csv(report: SalesReport, *, language: str) -> Iterator[bytes]:
    return csv_stream(sales_csv_rows(report, language=language), language=language)


def nfse_csv_rows(report: SalesReport) -> Iterator[list[str]]:
    language = NFSE_LANGUAGE
    yield list(NFSE_COLUMNS)
    for row in nfse_rows(report):
        yield [
            row.external_reference,
            csv_text(row.customer_name),
            row.customer_cpf_cnpj,
            csv_text(row.customer_email),
            csv_text(row.service_description),
            csv_text(row.observations),
            csv_number(row.value, language=language),
            csv_number(row.deductions, language=language),
            row.effective_date.isoformat(),  # Asaas's format; spreadsheets read it as a date
            csv_text(row.municipal_service_code),
            csv_text(row.municipal_service_name),
        ]


def nfse_csv(report: SalesReport) -> Iterator[bytes]:
    """The NFS-e export: a header of Asaas's names, then one invoice a line."""
    return csv_stream(nfse_csv_rows(report), language=NFSE_LANGUAGE)


# --- PDF ----------------------------------------------------------------------------------------


def sales_pdf(report: SalesReport, *, language: str, generated_at: datetime) -> bytes:
    with translation.override(language):
        return _pdf(report, language=language, generated_at=generated_at)


def _pdf(report: SalesReport, *, language: str, generated_at: datetime) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.units import mm
    from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, Table
    from reportlab.platypus.tables import TableStyle

    house = pdf_house_style()
    regular, bold, grey, line_colour = house.regular, house.bold, house.grey, house.line_colour
    styles = house.styles
    esc = pdf_escape
    money = money_display
    team, totals = report.team, report.totals
    title = _("Sales and commission report")
    story = [
        Paragraph(esc(title), styles["title"]),
        Spacer(1, 2 * mm),
        Paragraph(esc(team.name), styles["agency"]),
    ]
    meta = []
    if team.tax_id:
        meta.append(f"{_('CNPJ or CPF')}: {team.tax_id}")
    meta.append(f"{_('Period')}: {period_label(report, language=language)}")
    meta.append(f"{_('Data')}: {mode_label(report)}")
    meta.append(
        _("Times in Brasília time. Issued on %(when)s.")
        % {"when": csv_moment(generated_at, language=language)}
    )
    story.extend(Paragraph(esc(text), styles["meta"]) for text in meta)
    story.append(Spacer(1, 5 * mm))

    summary = Table(
        [
            [
                _("Bookings"),
                _("Client amount"),
                _("Cost"),
                _("Markup and fee"),
                _("Revenue on changes and extras"),
                _("Refunds"),
                _("Net revenue"),
            ],
            [
                str(totals.bookings),
                money(totals.client_amount + totals.changes_extras_client_amount),
                money(totals.base_cost_brl + totals.changes_extras_cost_brl),
                money(totals.markup_amount + totals.fee_amount),
                money(totals.changes_extras_revenue),
                money(totals.refund_amount),
                money(totals.net_revenue),
            ],
        ],
        colWidths=[38 * mm] * 7,
    )
    summary.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), regular, 8),
                ("TEXTCOLOR", (0, 0), (-1, 0), grey),
                ("FONT", (0, 1), (-1, 1), bold, 11),
                ("BOX", (0, 0), (-1, -1), 0.5, line_colour),
                ("LINEBEFORE", (1, 0), (-1, -1), 0.5, line_colour),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 1), (-1, 1), 4),
            ]
        )
    )
    story.extend([summary, Spacer(1, 6 * mm)])

    header = [
        _("Booking"),
        _("Client"),
        _("Route"),
        _("Client amount"),
        _("Cost"),
        _("Markup"),
        _("Fee"),
        _("Changes and extras"),
        _("Refunds"),
        _("Net revenue"),
    ]
    # Landscape A4 less 15 mm margins: 267 mm. Amounts fit "-R$ 1.234.567,89" at 7 points.
    widths = [mm * w for w in (30, 38, 30, 22, 22, 19, 17, 30, 31, 28)]
    padding = 6

    def wrap(text: str, width: float) -> str:
        return "\n".join(pdf_wrap_lines(text, regular, 7, width - padding))

    rows = [[wrap(text, width) for text, width in zip(header, widths, strict=True)]]
    for row in report.rows:
        travel = csv_day(row.travel_date, language=language) if row.travel_date else ""
        sold = csv_day(row.sold_at.date(), language=language) if row.sold_at else ""
        rows.append(
            [
                f"{wrap(row.reference, widths[0])}\n{status_label(row)}"
                + (f"\n{sold}" if sold else ""),
                wrap(row.client_name, widths[1])
                + (f"\n{row.client_tax_id}" if row.client_tax_id else ""),
                f"{wrap(row.route, widths[2])}\n{travel}",
                money(row.client_amount),
                money(row.base_cost_brl),
                money(row.markup_amount),
                money(row.fee_amount),
                f"{money(row.changes_extras_client_amount)}\n"
                + _("revenue %(amount)s") % {"amount": money(row.changes_extras_revenue)},
                f"{money(row.refund_amount)}\n"
                + _("given back %(amount)s") % {"amount": money(row.refunded_revenue)},
                money(row.net_revenue),
            ]
        )
    if len(rows) == 1:
        rows.append(["", _("No sales in this period."), "", "", "", "", "", "", "", ""])
    rows.append(
        [
            _("Total"),
            "",
            "",
            money(totals.client_amount),
            money(totals.base_cost_brl),
            money(totals.markup_amount),
            money(totals.fee_amount),
            f"{money(totals.changes_extras_client_amount)}\n"
            + _("revenue %(amount)s") % {"amount": money(totals.changes_extras_revenue)},
            f"{money(totals.refund_amount)}\n"
            + _("given back %(amount)s") % {"amount": money(totals.refunded_revenue)},
            money(totals.net_revenue),
        ]
    )
    leading, vertical_padding = 9, 4
    heights = [
        max(str(cell).count("\n") + 1 for cell in row) * leading + vertical_padding for row in rows
    ]
    table = LongTable(rows, colWidths=widths, rowHeights=heights, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), bold, 7),
                ("FONT", (0, 1), (-1, -1), regular, 7),
                ("FONT", (0, -1), (-1, -1), bold, 7),
                ("LEFTPADDING", (0, 0), (-1, -1), padding / 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), padding / 2),
                ("LEADING", (0, 0), (-1, -1), leading),
                ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -2), 0.25, line_colour),
                ("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.black),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    story.append(table)

    period = period_label(report, language=language)
    footer_left = f"{team.name} · {title} · {period}"
    page_size = landscape(A4)

    def footer(canvas, document):
        canvas.saveState()
        canvas.setFont(regular, 7)
        canvas.setFillColor(grey)
        canvas.drawString(15 * mm, 10 * mm, footer_left)
        canvas.drawRightString(
            page_size[0] - 15 * mm, 10 * mm, _("Page %(page)d") % {"page": document.page}
        )
        canvas.restoreState()

    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=page_size,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=18 * mm,
        title=f"{title} · {team.name}",
        author=team.name,
        subject=period,
        creator="Agency back office",
    )
    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
