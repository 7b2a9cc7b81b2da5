"""PIX BR Code: the published vectors rebuilt byte for byte, input checks, and the QR image."""

import io
import json
import re
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree

import pytest
from PIL import Image

from wallet.pix import (
    brcode_payload,
    crc_valid,
    format_amount,
    parse_tlv,
    qr_png,
    qr_svg,
)

# Known-good vectors, copied from the project's shared testdata so a clone stands alone.
TESTDATA = Path(__file__).resolve().parent / "vectors"
VECTORS = json.loads((TESTDATA / "pix_brcode_vectors.json").read_text())["vectors"]

KEY = "123e4567-e12b-12d1-a456-426655440000"


def _payload(**overrides) -> str:
    fields = {
        "pix_key": KEY,
        "amount": Decimal("100.00"),
        "merchant_name": "Alpha Travel",
        "merchant_city": "Sao Paulo",
        "txid": "rch01ABC",
    }
    return brcode_payload(**(fields | overrides))


def _rebuild(payload: str) -> str:
    """Feed a vector's own parsed fields back through brcode_payload."""
    fields = parse_tlv(payload)
    account = fields["26"]
    return brcode_payload(
        gui=account["00"],
        pix_key=account.get("01"),
        location_url=account.get("25"),
        amount=Decimal(fields["54"]) if "54" in fields else None,
        merchant_name=fields["59"],
        merchant_city=fields["60"],
        txid=fields["62"]["05"],
        single_use=fields.get("01") == "12",
    )


def _zbar_decode():
    """pyzbar's decode(), or a skip when the library or Debian's libzbar0 is missing."""
    try:
        from pyzbar.pyzbar import decode
    except (ImportError, OSError) as exc:  # OSError: libzbar found but not loadable
        pytest.skip(f"pyzbar cannot load libzbar ({exc}); apt-get install libzbar0")
    return decode


# Vectors


@pytest.mark.parametrize("vector", VECTORS, ids=[v["source"] for v in VECTORS])
def test_vector_rebuilt_exactly(vector):
    assert _rebuild(vector["payload"]) == vector["payload"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["source"] for v in VECTORS])
def test_vector_crc_valid(vector):
    assert crc_valid(vector["payload"])


@pytest.mark.parametrize("vector", VECTORS, ids=[v["source"] for v in VECTORS])
def test_vector_with_one_character_changed_fails_crc(vector):
    payload = vector["payload"]
    tampered = payload.replace("5802BR", "5802BX")
    assert tampered != payload
    assert not crc_valid(tampered)


def test_parse_tlv_nests_merchant_account_and_additional_data():
    fields = parse_tlv(VECTORS[2]["payload"])
    assert fields["26"] == {"00": "BR.GOV.BCB.PIX", "01": "97212482404"}
    assert fields["54"] == "30.00"
    assert fields["62"] == {"05": "VIPSURF"}
    assert fields["63"] == "25A1"


# Layout


def test_single_use_adds_point_of_initiation_12():
    assert _payload().startswith("000201010212")
    assert "01" not in parse_tlv(_payload(single_use=False))


def test_fixed_fields_and_order():
    fields = parse_tlv(_payload())
    assert list(fields) == ["00", "01", "26", "52", "53", "54", "58", "59", "60", "62", "63"]
    assert (fields["52"], fields["53"], fields["58"]) == ("0000", "986", "BR")
    assert fields["26"] == {"00": "br.gov.bcb.pix", "01": KEY}


def test_location_url_goes_to_subfield_25():
    url = "pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25"
    fields = parse_tlv(_payload(pix_key=None, location_url=url))
    assert fields["26"] == {"00": "br.gov.bcb.pix", "25": url}


def test_amount_omitted_when_none():
    assert "54" not in parse_tlv(_payload(amount=None))


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (Decimal("30"), "30.00"),
        (Decimal("1234.5"), "1234.50"),
        (Decimal("0.01"), "0.01"),
        (Decimal("30.100"), "30.10"),
        (Decimal("9999999999.99"), "9999999999.99"),
    ],
)
def test_amount_has_two_decimals(amount, expected):
    assert format_amount(amount) == expected
    assert parse_tlv(_payload(amount=amount))["54"] == expected


def test_generated_payload_crc_valid_and_upper_case():
    payload = _payload()
    assert crc_valid(payload)
    assert re.fullmatch(r"[0-9A-F]{4}", payload[-4:])


# Text folding and truncation


def test_name_and_city_are_ascii_folded():
    fields = parse_tlv(_payload(merchant_name="Agência Ação Turismo", merchant_city="São Paulo"))
    assert fields["59"] == "Agencia Acao Turismo"
    assert fields["60"] == "Sao Paulo"


def test_name_truncated_to_25_and_city_to_15():
    name = "Agência de Viagens e Turismo Horizonte Ltda"
    city = "São José dos Campos"
    fields = parse_tlv(_payload(merchant_name=name, merchant_city=city))
    assert fields["59"] == "Agencia de Viagens e Turi"
    assert len(fields["59"]) == 25
    assert fields["60"] == "Sao Jose dos Ca"
    assert len(fields["60"]) == 15


def test_truncation_does_not_leave_trailing_space():
    fields = parse_tlv(_payload(merchant_name="Agencia de Viagens Alpha Beta"))
    assert fields["59"] == "Agencia de Viagens Alpha"


def test_whitespace_is_collapsed():
    fields = parse_tlv(_payload(merchant_name="  Alpha \t  Travel  "))
    assert fields["59"] == "Alpha Travel"


def test_longest_key_that_fits_field_26():
    key = "a" * 64 + "@example.com"  # 76 characters: 26 holds 18 + 4 + 76 = 98
    assert parse_tlv(_payload(pix_key=key))["26"]["01"] == key


# Invalid inputs


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"location_url": "pix.example.com/qr/1"}, "exactly one of pix_key and location_url"),
        ({"pix_key": None}, "exactly one of pix_key and location_url"),
        ({"pix_key": ""}, "pix_key must not be empty"),
        ({"pix_key": "a" * 78}, "at most 99"),
        ({"pix_key": "chave-com-acentuação"}, "ASCII"),
        (
            {"pix_key": None, "location_url": "https://pix.example.com/qr/1"},
            "must not include the scheme",
        ),
        ({"amount": Decimal("0")}, "greater than zero"),
        ({"amount": Decimal("-1.00")}, "greater than zero"),
        ({"amount": Decimal("10.001")}, "at most 2 decimal places"),
        ({"amount": Decimal("NaN")}, "greater than zero"),
        ({"amount": Decimal("12345678901.00")}, "13 characters"),
        ({"amount": 10.5}, "must be a Decimal"),
        ({"amount": 10}, "must be a Decimal"),
        ({"txid": "rch_01ABC"}, "letters or digits"),
        ({"txid": "a" * 26}, "letters or digits"),
        ({"txid": ""}, "letters or digits"),
        ({"txid": "**"}, "letters or digits"),
        ({"merchant_name": "   "}, "merchant_name must contain"),
        ({"merchant_city": "東京"}, "merchant_city must contain"),
        ({"gui": "br.gov.bcb.spi"}, "gui must be"),
    ],
)
def test_invalid_inputs_raise_value_error(overrides, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _payload(**overrides)


def test_txid_of_25_characters_is_accepted():
    assert parse_tlv(_payload(txid="A" * 25))["62"] == {"05": "A" * 25}


@pytest.mark.parametrize(
    "payload",
    ["0002010", "00020126", "0002010002", "00020100020163041D3D"],
)
def test_parse_tlv_rejects_malformed_payloads(payload):
    with pytest.raises(ValueError):
        parse_tlv(payload)


@pytest.mark.parametrize(
    "payload", ["", "6304", "000201", "é" + VECTORS[0]["payload"], VECTORS[0]["payload"][:-1] + "E"]
)
def test_crc_valid_false_for_garbage(payload):
    assert not crc_valid(payload)


# QR images


def test_png_is_a_png_whose_size_follows_box_size():
    payload = VECTORS[0]["payload"]
    small, large = qr_png(payload, box_size=4), qr_png(payload, box_size=8)
    assert small.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(large)).width == 2 * Image.open(io.BytesIO(small)).width


def test_svg_is_svg():
    root = ElementTree.fromstring(qr_svg(VECTORS[0]["payload"]))  # noqa: S314 - our own output
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize(
    "payload",
    [v["payload"] for v in VECTORS] + [_payload()],
    ids=[v["source"] for v in VECTORS] + ["generated"],
)
def test_png_decodes_back_to_payload(payload):
    decode = _zbar_decode()
    results = decode(Image.open(io.BytesIO(qr_png(payload))))
    assert [(r.type, r.data.decode("ascii")) for r in results] == [("QRCODE", payload)]
