"""PIX BR Code (EMV QRCPS-MPM) payloads and their QR images.

The copy-and-paste payload and the QR code carry the same string: a sequence of TLV fields
(two-digit id, two-digit length, value) closed by a CRC-16/CCITT-FALSE checksum. Banks reject a
payload whose lengths or CRC are off by one character, so every field is built by one helper
(`_tlv`) and checked against the Banco Central do Brasil vectors in the tests.

These are pure functions: no models, no settings, no network.
"""

from __future__ import annotations

import binascii
import io
import re
import unicodedata
from decimal import Decimal

import qrcode
import qrcode.constants
import qrcode.image.svg

from core.money import is_whole_cents, q

PIX_GUI = "br.gov.bcb.pix"
PAYLOAD_FORMAT_INDICATOR = "01"
POINT_OF_INITIATION_SINGLE_USE = "12"
MERCHANT_CATEGORY_CODE = "0000"  # "not informed", as the BR Code manual prescribes for PIX
CURRENCY_BRL = "986"  # ISO 4217 numeric code
COUNTRY_CODE = "BR"
MERCHANT_NAME_MAX = 25
MERCHANT_CITY_MAX = 15
TXID_MAX = 25
TXID_ANY = "***"  # "no txid": the receiver reconciles by other means
AMOUNT_MAX_CHARS = 13  # EMV limit for field 54
TLV_VALUE_MAX = 99  # the length is two decimal digits
CRC_FIELD_PREFIX = "6304"  # id 63, length 04: the CRC covers these four characters too

# EMV templates whose value is itself a TLV list: merchant account information (26-51) and
# additional data (62). parse_tlv() descends into these.
_TEMPLATE_IDS = frozenset({f"{i:02d}" for i in range(26, 52)} | {"62"})
_TXID_RE = re.compile(r"[A-Za-z0-9]{1,25}")


def brcode_payload(
    *,
    pix_key: str | None = None,
    location_url: str | None = None,
    amount: Decimal | None,
    merchant_name: str,
    merchant_city: str,
    txid: str = TXID_ANY,
    single_use: bool = True,
    gui: str = PIX_GUI,
) -> str:
    """Build the PIX copy-and-paste payload (BR Code) ending in its CRC.

    Give exactly one of `pix_key` (a static charge to a key) or `location_url` (a dynamic charge
    whose details the payer's bank fetches from the PSP; without the "https://" prefix, as the
    BR Code manual requires). `single_use` adds field 01 = "12", telling the payer's app that
    the code must not be paid twice. `gui` exists only because some issuers spell it in upper
    case; it must still be br.gov.bcb.pix.

    Raises ValueError with a message naming the offending input.
    """
    body = "".join(
        [
            _tlv("00", PAYLOAD_FORMAT_INDICATOR),
            _tlv("01", POINT_OF_INITIATION_SINGLE_USE) if single_use else "",
            _tlv("26", _merchant_account_info(gui, pix_key, location_url)),
            _tlv("52", MERCHANT_CATEGORY_CODE),
            _tlv("53", CURRENCY_BRL),
            _tlv("54", format_amount(amount)) if amount is not None else "",
            _tlv("58", COUNTRY_CODE),
            _tlv("59", _fold_text(merchant_name, MERCHANT_NAME_MAX, "merchant_name")),
            _tlv("60", _fold_text(merchant_city, MERCHANT_CITY_MAX, "merchant_city")),
            _tlv("62", _tlv("05", _check_txid(txid))),
        ]
    )
    return with_crc(body)


def with_crc(body: str) -> str:
    """Append field 63 (id, length and CRC) to a payload that has everything else."""
    data = body + CRC_FIELD_PREFIX
    return data + crc16(data)


def crc16(data: str) -> str:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) as four upper-case hex digits."""
    return f"{binascii.crc_hqx(data.encode('ascii'), 0xFFFF):04X}"


def crc_valid(payload: str) -> bool:
    """True when the payload ends in field 63 whose CRC matches everything before it."""
    if len(payload) < 8 or payload[-8:-4] != CRC_FIELD_PREFIX:
        return False
    try:
        expected = crc16(payload[:-4])
    except UnicodeEncodeError:
        return False
    return payload[-4:].upper() == expected


def parse_tlv(payload: str) -> dict[str, str | dict[str, str]]:
    """Split a payload into {id: value}, descending into templates 26-51 and 62.

    Meant for tests, debugging and checking payloads from a provider; it does not check the
    CRC (see crc_valid). Raises ValueError on a truncated field or a repeated id.
    """
    fields: dict[str, str | dict[str, str]] = {}
    for tag, value in _iter_tlv(payload):
        if tag in fields:
            raise ValueError(f"Field {tag} appears twice in the payload")
        fields[tag] = dict(_iter_tlv(value)) if tag in _TEMPLATE_IDS else value
    return fields


def format_amount(amount: Decimal) -> str:
    """Field 54 as the BR Code wants it: plain digits, a dot and exactly two decimals."""
    if not isinstance(amount, Decimal):
        raise ValueError(f"amount must be a Decimal, not {type(amount).__name__}")
    if not amount.is_finite() or amount <= 0:
        raise ValueError("amount must be greater than zero")
    if amount.adjusted() >= AMOUNT_MAX_CHARS - 3:  # more than 10 digits before ".00"
        raise ValueError(f"amount must fit in {AMOUNT_MAX_CHARS} characters")
    if not is_whole_cents(amount):
        raise ValueError("amount must have at most 2 decimal places")
    return f"{q(amount):f}"


def qr_png(payload: str, *, box_size: int = 8) -> bytes:
    """The payload as a PNG QR code (error correction M, the usual choice for BR Codes)."""
    image = _qr(payload, box_size=box_size).make_image()
    return _image_bytes(image, format="PNG")


def qr_svg(payload: str) -> bytes:
    """The payload as an SVG QR code, for pages and e-mails that scale the image."""
    image = _qr(payload, box_size=10).make_image(image_factory=qrcode.image.svg.SvgPathImage)
    return _image_bytes(image)


def _merchant_account_info(gui: str, pix_key: str | None, location_url: str | None) -> str:
    """Field 26: the GUI, then the key (subfield 01) or the location URL (subfield 25)."""
    if gui.lower() != PIX_GUI:
        raise ValueError(f"gui must be {PIX_GUI!r} (in any case), not {gui!r}")
    if (pix_key is None) == (location_url is None):
        raise ValueError("Give exactly one of pix_key and location_url")
    if pix_key is not None:
        if not pix_key.strip():
            raise ValueError("pix_key must not be empty")
        return _tlv("00", gui) + _tlv("01", pix_key)
    assert location_url is not None
    if not location_url.strip():
        raise ValueError("location_url must not be empty")
    if location_url.lower().startswith(("http://", "https://")):
        raise ValueError("location_url must not include the scheme (drop 'https://')")
    return _tlv("00", gui) + _tlv("25", location_url)


def _check_txid(txid: str) -> str:
    """The txid is letters and digits only (at most 25), or '***' for none."""
    if txid == TXID_ANY or _TXID_RE.fullmatch(txid):
        return txid
    raise ValueError(
        f"txid must be 1 to {TXID_MAX} letters or digits (A-Z, a-z, 0-9), or {TXID_ANY!r}"
    )


def _fold_text(text: str, max_len: int, name: str) -> str:
    """Drop accents and anything not printable ASCII, then cut to `max_len` characters.

    Payer apps show these fields on screen; several reject or mangle non-ASCII bytes, and the
    length limits are counted in characters of the payload.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(ch for ch in decomposed if " " <= ch <= "~")
    folded = " ".join(ascii_text.split())[:max_len].rstrip()
    if not folded:
        raise ValueError(f"{name} must contain at least one letter or digit")
    return folded


def _tlv(tag: str, value: str) -> str:
    """One EMV field: id, two-digit length, value."""
    if not value:
        raise ValueError(f"Field {tag} must not be empty")
    if len(value) > TLV_VALUE_MAX:
        raise ValueError(f"Field {tag} is {len(value)} characters long; at most 99 fit")
    if not value.isascii():
        raise ValueError(f"Field {tag} must be ASCII")
    return f"{tag}{len(value):02d}{value}"


def _iter_tlv(data: str):
    """Yield (id, value) pairs of a TLV string, failing loudly on a bad length."""
    pos = 0
    while pos < len(data):
        header = data[pos : pos + 4]
        if len(header) < 4 or not header.isdigit():
            raise ValueError(f"Malformed TLV header {header!r} at position {pos}")
        length = int(header[2:])
        value = data[pos + 4 : pos + 4 + length]
        if len(value) != length:
            raise ValueError(f"Field {header[:2]} at position {pos} is truncated")
        yield header[:2], value
        pos += 4 + length


def _qr(payload: str, *, box_size: int) -> qrcode.QRCode:
    if not payload:
        raise ValueError("payload must not be empty")
    qr = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        box_size=box_size,
        border=4,  # the quiet zone the QR standard requires
    )
    qr.add_data(payload)
    qr.make(fit=True)
    return qr


def _image_bytes(image, **save_kwargs) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, **save_kwargs)
    return buffer.getvalue()
