"""The boleto as an A4 PDF (reportlab). Apart from wallet/boleto.py, which holds the numbers
and the rules: reportlab takes about 15 MB of memory, loaded only by a process that draws a
boleto (the PDF view imports this module when it is asked for one), not by every web worker.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from reportlab.graphics.barcode.common import I2of5
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from wallet.boleto import barcode_from_linha, check_barcode, format_brl

# Interleaved 2 of 5 as FEBRABAN lays it out: narrow bar 0.254 mm, wide = 3 x narrow, 13 mm
# tall, so the 44 digits span 103 mm. No check digit of its own (the general DV is already
# inside the 44 digits) and no bearer bars, which bank scanners do not expect.
BARCODE_OPTIONS: dict[str, float] = {
    "barWidth": 0.254 * mm,
    "ratio": 3.0,
    "barHeight": 13 * mm,
    "checksum": 0,
    "bearers": 0,
}


def barcode_widget(code: str) -> I2of5:
    """The reportlab Interleaved 2 of 5 flowable for a 44-digit barcode."""
    check_barcode(code)
    return I2of5(code, **BARCODE_OPTIONS)


def boleto_pdf(
    *,
    beneficiary_name: str,
    beneficiary_document: str,
    payer_name: str,
    payer_document: str,
    amount: Decimal,
    due: date,
    linha: str,
    barcode: str,
    document_number: str,
    instructions: list[str],
) -> bytes:
    """An A4 PDF boleto: the fields a payer and a bank clerk look for, and the barcode.

    The linha and barcode are checked against each other so that the printed line and the bars
    can never disagree.
    """
    if barcode_from_linha(linha) != barcode:
        raise ValueError("linha and barcode do not describe the same boleto")
    buffer = io.BytesIO()
    pdf = Canvas(buffer, pagesize=A4, invariant=True)  # invariant: same input, same bytes
    pdf.setTitle(f"Boleto {document_number}")
    _draw_boleto(
        pdf,
        header=(f"Banco {barcode[:3]}", linha),
        rows=[
            ("Beneficiário", f"{beneficiary_name} - {beneficiary_document}"),
            ("Pagador", f"{payer_name} - {payer_document}"),
            ("Número do documento", document_number),
            ("Vencimento", due.strftime("%d/%m/%Y")),
            ("Valor do documento", format_brl(amount)),
        ],
        instructions=instructions,
        bars=barcode_widget(barcode),
    )
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


_PAGE_WIDTH, _PAGE_HEIGHT = A4
_MARGIN = 15 * mm
_ROW_HEIGHT = 11 * mm


def _draw_boleto(
    pdf: Canvas,
    *,
    header: tuple[str, str],
    rows: list[tuple[str, str]],
    instructions: Iterable[str],
    bars: I2of5,
) -> None:
    """Lay the boleto out top to bottom: bank and linha, labelled boxes, instructions, bars."""
    top = _PAGE_HEIGHT - _MARGIN
    width = _PAGE_WIDTH - 2 * _MARGIN
    bank, linha = header
    pdf.setFont("Helvetica-Bold", 14)
    pdf.drawString(_MARGIN, top - 8 * mm, bank)
    pdf.setFont("Helvetica-Bold", 12)
    pdf.drawRightString(_MARGIN + width, top - 8 * mm, linha)
    pdf.line(_MARGIN, top - 11 * mm, _MARGIN + width, top - 11 * mm)
    y = top - 11 * mm
    for label, value in rows:
        y -= _ROW_HEIGHT
        _draw_box(pdf, y, width, label, value)
    y -= 8 * mm
    pdf.setFont("Helvetica-Bold", 8)
    pdf.drawString(_MARGIN, y, "Instruções")
    pdf.setFont("Helvetica", 9)
    for instruction in instructions:
        for line in simpleSplit(instruction, "Helvetica", 9, width):
            y -= 5 * mm
            pdf.drawString(_MARGIN, y, line)
    y -= 10 * mm + BARCODE_OPTIONS["barHeight"]
    bars.drawOn(pdf, _MARGIN, y)  # the widget adds its own quiet zones on both sides


def _draw_box(pdf: Canvas, y: float, width: float, label: str, value: str) -> None:
    pdf.rect(_MARGIN, y, width, _ROW_HEIGHT)
    pdf.setFont("Helvetica", 7)
    pdf.drawString(_MARGIN + 2 * mm, y + _ROW_HEIGHT - 3.5 * mm, label)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(_MARGIN + 2 * mm, y + 2.5 * mm, value)
