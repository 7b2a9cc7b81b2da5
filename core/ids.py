"""Prefixed opaque identifiers such as `txn_01jd3k…`.

The opaque part is a ULID (48-bit millisecond timestamp + 80 random bits) in lower-case
Crockford base32: URL-safe, unguessable, and sortable by creation time as plain strings.
"""

from functools import partial

from django.db import models
from ulid import ULID

ID_PREFIXES = frozenset(
    {
        "team",
        "cli",
        "txn",
        "rch",
        "orq",
        "off",
        "ord",
        "pas",
        "sli",
        "seg",
        "wh",
        "evt",
        "key",
        "itg",
    }
)


def new_id(prefix: str) -> str:
    return f"{prefix}_{str(ULID()).lower()}"


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
