"""Boleto: vectors both ways, the due-date factor restart, business days, and the PDF."""

import io
import json
import re
import shutil
import subprocess
from datetime import date
from decimal import Decimal
from pathlib import Path

import holidays
import pytest
from PIL import Image
from pypdf import PdfReader

from wallet import boleto, boleto_pdf
from wallet.boleto import (
    barcode,
    barcode_from_linha,
    business_days_after,
    due_date_factor,
    format_brl,
    general_check_digit,
    linha_digitavel,
    mod10_check_digit,
)

# Known-good vectors, copied from the project's shared testdata so a clone stands alone.
TESTDATA = Path(__file__).resolve().parent / "vectors"
VECTORS = json.loads((TESTDATA / "boleto_vectors.json").read_text())["vectors"]
IDS = [v["source"] for v in VECTORS]

BB = VECTORS[0]  # Banco do Brasil: 001, R$ 2.952,95, due 2011-03-08


def _pdf(**overrides) -> bytes:
    fields = {
        "beneficiary_name": "Alpha Viagens e Turismo Ltda",
        "beneficiary_document": "12.345.678/0001-95",
        "payer_name": "João Conceição",
        "payer_document": "123.456.789-09",
        "amount": Decimal(BB["amount"]),
        "due": date.fromisoformat(BB["due_date"]),
        "linha": BB["linha_digitavel"],
        "barcode": BB["barcode"],
        "document_number": "rch01J0000000000000000000",
        "instructions": ["Não receber após o vencimento.", "Recarga de carteira."],
    }
    return boleto_pdf.boleto_pdf(**(fields | overrides))


def _zbar_decode():
    """pyzbar's decode() and symbol types, or a skip when libzbar0 is missing."""
    try:
        from pyzbar.pyzbar import ZBarSymbol, decode
    except (ImportError, OSError) as exc:  # OSError: libzbar found but not loadable
        pytest.skip(f"pyzbar cannot load libzbar ({exc}); apt-get install libzbar0")
    return decode, ZBarSymbol


def _render_barcode_png(pdf: bytes, tmp_path: Path) -> Image.Image:
    """The PDF page as poppler renders it; else the barcode alone via renderPM; else skip."""
    if shutil.which("pdftoppm"):
        (tmp_path / "boleto.pdf").write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-r", "300", "-png", "-singlefile", "boleto.pdf", "page"],  # noqa: S607 - poppler from PATH
            cwd=tmp_path,
            check=True,
            timeout=60,
        )
        return Image.open(tmp_path / "page.png")
    from reportlab.graphics import renderPM
    from reportlab.graphics.barcode import createBarcodeDrawing

    drawing = createBarcodeDrawing("I2of5", value=BB["barcode"], **boleto_pdf.BARCODE_OPTIONS)
    try:
        return renderPM.drawToPIL(drawing, dpi=300)
    except Exception as exc:  # renderPM needs the optional rlPyCairo backend
        pytest.skip(f"neither pdftoppm (poppler-utils) nor renderPM available: {exc}")


# Vectors, both directions


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_barcode_built_from_fields(vector):
    code = vector["barcode"]
    built = barcode(
        bank_code=code[:3],
        currency_code=code[3],
        amount=Decimal(vector["amount"]),
        due=date.fromisoformat(vector["due_date"]),
        free_field=code[19:],
    )
    assert built == code


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_linha_from_barcode(vector):
    assert linha_digitavel(vector["barcode"]) == vector["linha_digitavel"]


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_barcode_from_linha(vector):
    assert barcode_from_linha(vector["linha_digitavel"]) == vector["barcode"]


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_barcode_from_bare_47_digits(vector):
    digits = re.sub(r"\D", "", vector["linha_digitavel"])
    assert len(digits) == 47
    assert barcode_from_linha(digits) == vector["barcode"]


def test_round_trip_of_a_new_boleto():
    code = barcode(
        bank_code="341",
        amount=Decimal("1234.56"),
        due=date(2026, 3, 10),
        free_field="1090000015710293013280000",
    )
    assert len(code) == 44
    assert code[5:9] == f"{due_date_factor(date(2026, 3, 10)):04d}"
    assert code[9:19] == "0000123456"
    assert barcode_from_linha(linha_digitavel(code)) == code


# Check digits


@pytest.mark.parametrize(
    ("digits43", "expected"),
    [
        ("0" * 43, 1),  # 11 - 0 = 11 -> 1
        ("0" * 42 + "6", 1),  # 6 x 2 = 12, 11 - 1 = 10 -> 1
        ("0" * 42 + "1", 9),  # 1 x 2 = 2, 11 - 2 = 9
        ("0" * 34 + "1" + "0" * 8, 9),  # weights wrap: the 9th from the right weighs 2 again
    ],
)
def test_general_check_digit(digits43, expected):
    assert general_check_digit(digits43) == expected


@pytest.mark.parametrize(
    ("digits", "expected"),
    [("001900000", 9), ("0777777700", 9), ("0008765418", 2), ("5", 9), ("9", 1), ("0", 0)],
)
def test_mod10_check_digit(digits, expected):
    assert mod10_check_digit(digits) == expected


def test_linha_with_a_wrong_field_check_digit_is_rejected():
    linha = BB["linha_digitavel"].replace("00190.00009", "00190.00008")
    with pytest.raises(ValueError, match="field 1"):
        barcode_from_linha(linha)


def test_linha_with_a_wrong_general_check_digit_is_rejected():
    linha = BB["linha_digitavel"].replace(" 6 ", " 5 ")
    with pytest.raises(ValueError, match="general check digit"):
        barcode_from_linha(linha)


def test_barcode_with_a_wrong_general_check_digit_has_no_linha():
    code = BB["barcode"]
    with pytest.raises(ValueError, match="general check digit"):
        linha_digitavel(code[:4] + "5" + code[5:])


@pytest.mark.parametrize("value", ["", "123", BB["barcode"] + "0", BB["barcode"][:-1] + "x"])
def test_linha_digitavel_rejects_non_barcodes(value):
    with pytest.raises(ValueError, match="44 digits"):
        linha_digitavel(value)


# Due-date factor


@pytest.mark.parametrize(
    ("due", "factor"),
    [
        (date(2000, 7, 3), 1000),  # first factor of the first cycle
        (date(2009, 10, 19), 4395),
        (date(2011, 3, 8), 4900),
        (date(2025, 2, 21), 9999),  # last day before the restart
        (date(2025, 2, 22), 1000),  # the restart
        (date(2025, 2, 23), 1001),
        (date(2026, 1, 1), 1313),
        (date(2026, 6, 15), 1478),
        (date(2049, 10, 14), 1000),  # the next restart, 9000 days later
    ],
)
def test_due_date_factor(due, factor):
    assert due_date_factor(due) == factor


def test_factor_before_2000_07_03_is_rejected():
    with pytest.raises(ValueError, match="2000-07-03"):
        due_date_factor(date(2000, 7, 2))


# Barcode inputs


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"bank_code": "01"}, "bank_code must be exactly 3 digits"),
        ({"bank_code": "0a1"}, "bank_code must be exactly 3 digits"),
        ({"currency_code": "10"}, "currency_code must be exactly 1 digits"),
        ({"free_field": "1" * 24}, "free_field must be exactly 25 digits"),
        ({"amount": Decimal("0")}, "greater than zero"),
        ({"amount": Decimal("-5.00")}, "greater than zero"),
        ({"amount": Decimal("1.005")}, "at most 2 decimal places"),
        ({"amount": Decimal("100000000.00")}, "at most 99999999.99"),
        ({"amount": 29.8}, "must be a Decimal"),
        ({"due": date(1999, 1, 1)}, "2000-07-03"),
    ],
)
def test_barcode_rejects_bad_inputs(overrides, message):
    fields = {
        "bank_code": "001",
        "amount": Decimal("10.00"),
        "due": date(2026, 1, 5),
        "free_field": "0" * 25,
    }
    with pytest.raises(ValueError, match=re.escape(message)):
        barcode(**(fields | overrides))


def test_largest_amount_fits_ten_digits():
    code = barcode(
        bank_code="001", amount=Decimal("99999999.99"), due=date(2026, 1, 5), free_field="0" * 25
    )
    assert code[9:19] == "9999999999"


# Business days


@pytest.mark.parametrize(
    ("start", "days", "expected"),
    [
        (date(2025, 6, 6), 1, date(2025, 6, 9)),  # Friday -> Monday, over the weekend
        (date(2025, 6, 7), 1, date(2025, 6, 9)),  # from a Saturday
        (date(2025, 6, 2), 5, date(2025, 6, 9)),  # a whole week
        (date(2025, 6, 2), 0, date(2025, 6, 2)),
        (date(2025, 2, 28), 1, date(2025, 3, 5)),  # Carnaval: Mon 3 and Tue 4 March 2025
        (date(2026, 2, 13), 1, date(2026, 2, 18)),  # Carnaval: Mon 16 and Tue 17 February 2026
        (date(2025, 4, 17), 1, date(2025, 4, 22)),  # Good Friday 18, Tiradentes Mon 21 April
        (date(2026, 4, 20), 1, date(2026, 4, 22)),  # Tiradentes on Tuesday 21 April 2026
        (date(2025, 12, 23), 1, date(2025, 12, 26)),  # Christmas Eve and Christmas
        (date(2025, 12, 30), 1, date(2026, 1, 2)),  # 31 December and New Year, across years
        (date(2025, 12, 23), 2, date(2025, 12, 29)),
    ],
)
def test_business_days_after(start, days, expected):
    assert business_days_after(start, days) == expected


def test_negative_business_days_rejected():
    with pytest.raises(ValueError, match="negative"):
        business_days_after(date(2025, 6, 2), -1)


def test_calendar_is_the_b3_one():
    # holidays >= 0.61 ships BVMF; the Carnaval and 24/31 December cases above rely on it.
    calendar = boleto.business_calendar()
    assert calendar.market == "BVMF"
    assert date(2025, 3, 4) in calendar


def test_calendar_falls_back_to_national_holidays(monkeypatch):
    def no_market(market, **kwargs):
        raise NotImplementedError(f"Financial market {market} not available")

    monkeypatch.setattr(holidays, "financial_holidays", no_market)
    calendar = boleto.business_calendar()
    assert calendar.country == "BR"
    assert business_days_after(date(2025, 4, 17), 1) == date(2025, 4, 22)


# PDF


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (Decimal("1234.56"), "R$ 1.234,56"),
        (Decimal("1234567.8"), "R$ 1.234.567,80"),
        (Decimal("0.5"), "R$ 0,50"),
        (Decimal("29.80"), "R$ 29,80"),
    ],
)
def test_format_brl(amount, text):
    assert format_brl(amount) == text


def test_pdf_is_one_a4_page_with_the_boleto_text():
    reader = PdfReader(io.BytesIO(_pdf()))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)
    text = page.extract_text()
    for expected in [
        BB["linha_digitavel"],
        "R$ 2.952,95",
        "08/03/2011",
        "Alpha Viagens e Turismo Ltda",
        "12.345.678/0001-95",
        "João Conceição",
        "123.456.789-09",
        "rch01J0000000000000000000",
        "Não receber após o vencimento.",
    ]:
        assert expected in text


def test_pdf_is_reproducible():
    assert _pdf() == _pdf()


def test_long_instructions_are_wrapped_not_lost():
    words = " ".join(f"palavra{i}" for i in range(60))
    text = PdfReader(io.BytesIO(_pdf(instructions=[words]))).pages[0].extract_text()
    assert "palavra0" in text
    assert "palavra59" in text


def test_pdf_refuses_a_linha_of_another_boleto():
    with pytest.raises(ValueError, match="same boleto"):
        _pdf(linha=VECTORS[1]["linha_digitavel"])


def test_pdf_barcode_decodes_as_i25_to_the_44_digits(tmp_path):
    decode, symbol = _zbar_decode()
    image = _render_barcode_png(_pdf(), tmp_path)
    results = decode(image, symbols=[symbol.I25])
    assert [(r.type, r.data.decode("ascii")) for r in results] == [("I25", BB["barcode"])]
