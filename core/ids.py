"""Prefixed opaque identifiers such as `txn_01jd3k…`.

The opaque part is a ULID (48-bit millisecond timestamp + 80 random bits from the OS) in
lower-case Crockford base32: URL-safe, unguessable, and sortable by creation time as plain
strings. Encoded here rather than with python-ulid because a search creates ~400 ids and the
library's constructor costs twice as much as these few lines (tests check both agree).
"""

import os
import time
from functools import partial

from django.db import models

CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
_PAIRS = [a + b for a in CROCKFORD for b in CROCKFORD]  # 10 bits -> 2 characters
_SHIFTS = range(120, -1, -10)  # 130 bits (a 128-bit ULID with 2 leading zero bits)

ID_PREFIXES = frozenset(
    {
        "team",
        "cli",
        "txn",
        "rch",
        "rvs",  # reversals of recharges (refunds and chargebacks after the credit)
        "orq",
        "off",
        "ord",
        "bcn",  # booking cancellations
        "aic",  # airline-initiated changes of bookings
        "bsv",  # extras (services) added to a booking after the sale
        "ocr",  # booking change requests
        "oco",  # booking change offers
        "pas",
        "sli",
        "seg",
        "wh",
        "evt",
        "key",
        "itg",
        "inv",  # panel invitations
        "wdr",  # wallet withdrawals to the team's own account
    }
)


def ulid_text(value: int) -> str:
    """The 26-character Crockford base32 form of a 128-bit ULID."""
    return "".join([_PAIRS[(value >> shift) & 1023] for shift in _SHIFTS])


def new_id(prefix: str) -> str:
    value = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(os.urandom(10))
    return f"{prefix}_{ulid_text(value)}"


def id_time_part(id_: str) -> str:
    """The 10 characters of an id that encode its creation time (the ULID's 48-bit timestamp)."""
    return id_.partition("_")[2][:10]


def sibling_id(prefix: str, *, of: str, random_bits: int | None = None) -> str:
    """An id created in the same millisecond as the id `of`: its time part, and 80 random bits
    (fresh from the OS unless given). A search's offers share their search's time part, so
    that an offer id leads to its search."""
    if random_bits is None:
        random_bits = int.from_bytes(os.urandom(10))
    random_part = "".join([_PAIRS[(random_bits >> shift) & 1023] for shift in range(70, -1, -10)])
    return f"{prefix}_{id_time_part(of)}{random_part}"


def random_parts(stream: bytes) -> list[str]:
    """The 16-character random parts `sibling_id` would write for each consecutive 10-byte piece
    of `stream` (`random_bits=int.from_bytes(piece)`): eight 10-bit pairs each, shifts written
    out (a search derives about 5 per offer; base64.b32encode, pure Python, cost half as much
    again)."""
    pairs, from_bytes = _PAIRS, int.from_bytes
    parts = []
    for start in range(0, len(stream) - 9, 10):
        bits = from_bytes(stream[start : start + 10])
        parts.append(
            pairs[bits >> 70]
            + pairs[(bits >> 60) & 1023]
            + pairs[(bits >> 50) & 1023]
            + pairs[(bits >> 40) & 1023]
            + pairs[(bits >> 30) & 1023]
            + pairs[(bits >> 20) & 1023]
            + pairs[(bits >> 10) & 1023]
            + pairs[bits & 1023]
        )
    return parts


class PrefixedIdField(models.CharField):
    """A primary key that generates `<prefix>_<ulid>` on creation."""

    def __init__(self, *args, prefix: str, **kwargs):
        if prefix not in ID_PREFIXES:
            raise ValueError(f"Unknown id prefix {prefix!r}")
        self.prefix = prefix
        kwargs.setdefault("primary_key", True)
        kwargs["max_length"] = 40
        kwargs["editable"] = False
        kwargs["default"] = partial(new_id, prefix)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["prefix"] = self.prefix
        for generated in ("default", "max_length", "editable"):
            kwargs.pop(generated, None)
        return name, path, args, kwargs
