"""Files people open in a spreadsheet or read as a PDF (the wallet statement, the sales report,
the NFS-e export): what makes them right in a Brazilian office, written once.

CSV: UTF-8 with a byte order mark (so Excel reads the accents), in the reader's language:
Portuguese with `;` between fields and a decimal comma (what Excel expects in a Brazilian
locale), English with `,` and a decimal point; amounts have no thousands separator so that
spreadsheets read them as numbers; text a spreadsheet would run as a formula is written with a
leading `'` (OWASP "CSV injection"). Rows are written one at a time, so a long file streams.

PDF: the fonts (DejaVu Sans where installed, so any name prints; else Helvetica, Latin-1) and
the plain-text wrapping of table cells (a Paragraph per cell is ten times slower)."""

import csv
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import timezone

from core.money import q

BOM = "\ufeff"
# Cells a spreadsheet would run as a formula (OWASP "CSV injection"): written as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_portuguese(language: str) -> bool:
    """Every language but English gets the Brazilian conventions (the panel's two languages)."""
    return not language.lower().startswith("en")


def csv_number(value: Decimal, *, language: str) -> str:
    """`1234,56` in Portuguese, `1234.56` in English: cents, no thousands separator."""
    text = f"{q(value):f}"
    return text.replace(".", ",") if is_portuguese(language) else text


def csv_day(value: date, *, language: str) -> str:
    """`dd/mm/aaaa` in Portuguese, ISO in English."""
    return value.strftime("%d/%m/%Y") if is_portuguese(language) else value.isoformat()


def csv_moment(value: datetime, *, language: str) -> str:
    """São Paulo time to the second: `dd/mm/aaaa hh:mm:ss` in Portuguese, ISO-like in English."""
    local = timezone.localtime(value)
    pattern = "%d/%m/%Y %H:%M:%S" if is_portuguese(language) else "%Y-%m-%d %H:%M:%S"
    return local.strftime(pattern)


def csv_text(value: str) -> str:
    """Text as text: a leading `'` on what a spreadsheet would run as a formula."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def csv_delimiter(language: str) -> str:
    return ";" if is_portuguese(language) else ","


class _Echo:
    def write(self, value):
        return value


def csv_stream(rows: Iterable[list[str]], *, language: str) -> Iterator[bytes]:
    """The file, the byte order mark first, then line by line (CRLF, as Excel writes)."""
    writer = csv.writer(_Echo(), delimiter=csv_delimiter(language), lineterminator="\r\n")
    yield BOM.encode("utf-8")
    for row in rows:
        yield writer.writerow(row).encode("utf-8")


# --- PDF ----------------------------------------------------------------------------------------

FONT_FILES = {
    "regular": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
}


@cache
def pdf_fonts() -> tuple[str, str]:
    """(regular, bold): DejaVu Sans where installed (any name prints), else the PDF's built-in
    Helvetica (Latin-1: Portuguese prints)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if all(Path(path).exists() for path in FONT_FILES.values()):
        pdfmetrics.registerFont(TTFont("StatementSans", FONT_FILES["regular"]))
        pdfmetrics.registerFont(TTFont("StatementSans-Bold", FONT_FILES["bold"]))
        return "StatementSans", "StatementSans-Bold"
    return "Helvetica", "Helvetica-Bold"


@dataclass(frozen=True)
class PdfHouseStyle:
    """The fonts, colours and paragraph styles the panel's PDFs share (the statement, the sales
    report): each adds its own styles to `styles`."""

    regular: str
    bold: str
    grey: Any
    line_colour: Any
    styles: dict


def pdf_house_style() -> PdfHouseStyle:
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle

    regular, bold = pdf_fonts()
    grey = colors.HexColor("#555555")
    return PdfHouseStyle(
        regular=regular,
        bold=bold,
        grey=grey,
        line_colour=colors.HexColor("#cccccc"),
        styles={
            "title": ParagraphStyle("title", fontName=bold, fontSize=16, leading=20),
            "agency": ParagraphStyle("agency", fontName=bold, fontSize=12, leading=15),
            "meta": ParagraphStyle(
                "meta", fontName=regular, fontSize=9, leading=12, textColor=grey
            ),
        },
    )


def pdf_wrap_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """`text` in lines that fit `width` points, a word longer than the width (an id) cut."""
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines = []
    for line in simpleSplit(text, font, size, width) or [""]:
        while stringWidth(line, font, size) > width and len(line) > 1:  # one long word (an id)
            cut = len(line) - 1
            while cut > 1 and stringWidth(line[:cut], font, size) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
        lines.append(line)
    return lines


def pdf_escape(text) -> str:
    """Text for a reportlab Paragraph (its markup is XML-like)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
