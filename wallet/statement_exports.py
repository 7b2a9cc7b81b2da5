"""The statement as files: CSV for spreadsheets and a PDF for reading and filing.

CSV, in the reader's language with the conventions of core/exports.py (a byte order mark;
Portuguese: `;` and a decimal comma; English: `,` and a decimal point). A few `label;value`
lines first (agency, period, data, opening balance, credits, debits, closing balance), an empty
line, then one line per movement with its signed amount and the running balance and, for a
booking's movement, the booking's locator, lead passenger and route (the last columns: a
spreadsheet that reads the columns before them by position still finds them there).

PDF: A4, the agency's name and tax id, the period, the totals, then every movement (a
booking's under its description: locator, lead passenger, route).
"""

import io
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

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
from wallet.display import MovementBooking, Statement, description_for_people
from wallet.models import TEST_MODE_BALANCE, Transaction


def period_label(statement: Statement, *, language: str) -> str:
    return _("%(start)s to %(end)s") % {
        "start": csv_day(statement.period.start, language=language),
        "end": csv_day(statement.period.end, language=language),
    }


def mode_label(statement: Statement) -> str:
    return _("Live data") if statement.live_mode else _("Test data")


def notional_note() -> str:
    return _(
        "Test mode: the sandbox balance is always %(amount)s; the balances here are the sum "
        "of the test movements, starting from zero."
    ) % {"amount": money_display(TEST_MODE_BALANCE)}


def movements_count(count: int) -> str:
    return ngettext("%(count)d movement", "%(count)d movements", count) % {"count": count}


def _type_label(txn: Transaction) -> str:
    return str(Transaction.Type(txn.type).label)


def _reference(txn: Transaction) -> str:
    return f"{Transaction.ReferenceType(txn.reference_type).label} {txn.reference_id}"


def booking_summary(booking: MovementBooking | None) -> str:
    """ "ABC123 · Ana Souza · GRU → BSB": the booking of a movement on one line."""
    if booking is None:
        return ""
    parts = (booking.locator, booking.lead_passenger, booking.route)
    return " · ".join(part for part in parts if part)


def statement_csv_rows(statement: Statement, *, language: str) -> Iterator[list[str]]:
    with translation.override(language):
        number = lambda value: csv_number(value, language=language)  # noqa: E731
        yield [_("Wallet statement"), csv_text(statement.team.name)]
        if getattr(statement.team, "tax_id", ""):
            yield [_("CNPJ or CPF"), csv_text(statement.team.tax_id)]
        yield [_("Period"), period_label(statement, language=language)]
        yield [_("Data"), mode_label(statement)]
        yield [_("Opening balance"), number(statement.opening_balance)]
        yield [_("Credits"), number(statement.total_credits)]
        yield [_("Debits"), number(statement.total_debits)]
        yield [_("Closing balance"), number(statement.closing_balance)]
        yield [_("Movements"), str(statement.movement_count)]
        if statement.balances_are_notional:
            yield [_("Note"), notional_note()]
        yield []
        yield [
            _("Date and time (Brasília time)"),
            _("Description"),
            _("Type"),
            _("Reference"),
            _("Amount (R$)"),
            _("Balance (R$)"),
            _("Transaction"),
            _("Locator"),
            _("Lead passenger"),
            _("Route"),
        ]
        for line in statement.lines():
            txn = line.transaction
            booking = line.booking
            yield [
                csv_moment(txn.created_at, language=language),
                csv_text(description_for_people(txn.description)),
                _type_label(txn),
                _reference(txn),
                number(line.signed_amount),
                number(line.balance),
                txn.id,
                csv_text(booking.locator) if booking else "",
                csv_text(booking.lead_passenger) if booking else "",
                booking.route if booking else "",
            ]


def statement_csv(statement: Statement, *, language: str) -> Iterator[bytes]:
    """The CSV, line by line (a long period streams instead of being built in memory)."""
    return csv_stream(statement_csv_rows(statement, language=language), language=language)


# --- PDF ----------------------------------------------------------------------------------------


def statement_pdf(statement: Statement, *, language: str, generated_at: datetime) -> bytes:
    with translation.override(language):
        return _pdf(statement, language=language, generated_at=generated_at)


def _pdf(statement: Statement, *, language: str, generated_at: datetime) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, Table
    from reportlab.platypus.tables import TableStyle

    house = pdf_house_style()
    regular, bold, grey, line_colour = house.regular, house.bold, house.grey, house.line_colour
    styles = {
        **house.styles,
        "note": ParagraphStyle(
            "note",
            fontName=bold,
            fontSize=9,
            leading=12,
            textColor=colors.HexColor("#7a5200"),
            backColor=colors.HexColor("#fff4d6"),
            borderPadding=4,
        ),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=8, leading=10),
        "small": ParagraphStyle("small", fontName=regular, fontSize=7, leading=9, textColor=grey),
    }

    esc = pdf_escape

    def money(value: Decimal) -> str:
        return money_display(value)

    team = statement.team
    story = [
        Paragraph(esc(_("Wallet statement")), styles["title"]),
        Spacer(1, 2 * mm),
        Paragraph(esc(team.name), styles["agency"]),
    ]
    meta = []
    if getattr(team, "tax_id", ""):
        meta.append(f"{_('CNPJ or CPF')}: {team.tax_id}")
    meta.append(f"{_('Period')}: {period_label(statement, language=language)}")
    meta.append(f"{_('Data')}: {mode_label(statement)}")
    meta.append(
        _("Times in Brasília time. Issued on %(when)s.")
        % {"when": csv_moment(generated_at, language=language)}
    )
    story.extend(Paragraph(esc(text), styles["meta"]) for text in meta)
    if statement.balances_are_notional:
        story.extend([Spacer(1, 3 * mm), Paragraph(esc(notional_note()), styles["note"])])
    story.append(Spacer(1, 5 * mm))

    summary = Table(
        [
            [_("Opening balance"), _("Credits"), _("Debits"), _("Closing balance")],
            [
                money(statement.opening_balance),
                money(statement.total_credits),
                money_display(statement.total_debits, negative=True),
                money(statement.closing_balance),
            ],
            [
                _("at the start of %(day)s")
                % {"day": csv_day(statement.period.start, language=language)},
                movements_count(statement.credit_count),
                movements_count(statement.debit_count),
                _("at the end of %(day)s")
                % {"day": csv_day(statement.period.end, language=language)},
            ],
        ],
        colWidths=[45 * mm] * 4,
    )
    summary.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), regular, 8),
                ("TEXTCOLOR", (0, 0), (-1, 0), grey),
                ("FONT", (0, 1), (-1, 1), bold, 12),
                ("FONT", (0, 2), (-1, 2), regular, 7),
                ("TEXTCOLOR", (0, 2), (-1, 2), grey),
                ("BOX", (0, 0), (-1, -1), 0.5, line_colour),
                ("LINEBEFORE", (1, 0), (-1, -1), 0.5, line_colour),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 1), (-1, 1), 4),
            ]
        )
    )
    story.extend([summary, Spacer(1, 6 * mm)])

    header = [
        _("Date and time"),
        _("Description"),
        _("Reference"),
        pgettext("statement", "Amount"),
        _("Balance"),
    ]
    # Fits "25/11/2026 22:14:41", a 30-character id at 7 and at 6 points, and
    # "-R$ 1.234.567,89" (DejaVu Sans, 3 points of padding on each side).
    widths = [32 * mm, 51 * mm, 43 * mm, 27 * mm, 27 * mm]
    padding = 6

    def wrap(text: str, size: float, width: float) -> str:
        """Plain text broken into lines that fit (a Paragraph per cell is ten times slower)."""
        return "\n".join(pdf_wrap_lines(text, regular, size, width - padding))

    rows = [header]
    for line in statement.lines():
        txn = line.transaction
        reference = Transaction.ReferenceType(txn.reference_type).label
        described = description_for_people(txn.description)
        if line.booking is not None:
            described = f"{described}\n{booking_summary(line.booking)}"
        rows.append(
            [
                csv_moment(txn.created_at, language=language),
                "\n".join(wrap(part, 7, widths[1]) for part in described.split("\n")),
                f"{reference}\n{wrap(txn.reference_id, 6, widths[2])}",
                money(line.signed_amount),
                money(line.balance),
            ]
        )
    if len(rows) == 1:
        rows.append(["", _("No movements in this period."), "", "", ""])
    # Heights given, not measured: measuring every remaining row again at each page break
    # made a long statement quadratic.
    leading, vertical_padding = 9, 4
    heights = [
        max(str(cell).count("\n") + 1 for cell in row) * leading + vertical_padding for row in rows
    ]
    movements = LongTable(rows, colWidths=widths, rowHeights=heights, repeatRows=1)
    movements.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), bold, 8),
                ("FONT", (0, 1), (-1, -1), regular, 8),
                ("FONT", (1, 1), (1, -1), regular, 7),
                ("FONT", (2, 1), (2, -1), regular, 6),
                ("LEFTPADDING", (0, 0), (-1, -1), padding / 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), padding / 2),
                ("LEADING", (0, 0), (-1, -1), leading),
                ("ALIGN", (3, 0), (4, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, line_colour),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    story.append(Paragraph(esc(_("Movements")), styles["agency"]))
    story.append(Spacer(1, 2 * mm))
    story.append(movements)

    period = period_label(statement, language=language)
    footer_left = f"{team.name} · {_('Wallet statement')} · {period}"

    def footer(canvas, document):
        canvas.saveState()
        canvas.setFont(regular, 7)
        canvas.setFillColor(grey)
        canvas.drawString(15 * mm, 10 * mm, footer_left)
        canvas.drawRightString(
            A4[0] - 15 * mm, 10 * mm, _("Page %(page)d") % {"page": document.page}
        )
        canvas.restoreState()

    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=18 * mm,
        title=f"{_('Wallet statement')} · {team.name}",
        author=team.name,
        subject=period_label(statement, language=language),
        creator="Agency back office",
    )
    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
