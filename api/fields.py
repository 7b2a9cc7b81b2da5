import re
from datetime import date

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

# `\d` in Python patterns matches every Unicode digit ("٣٠٠"); inputs take ASCII digits only.
ASCII_DIGITS = re.compile(r"[0-9]{1,20}")
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
MIN_QUERY_DATE = date(1900, 1, 1)
MAX_QUERY_DATE = date(2999, 12, 31)


class StrictCharField(serializers.CharField):
    """A string field that refuses numbers and booleans (DRF's CharField coerces them), so
    that the types on the wire are exactly the spec's."""

    default_error_messages = {"invalid": "Must be a string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryIntegerField(serializers.IntegerField):
    """An integer query parameter: ASCII digits only (DRF's IntegerField takes "٣" as 3 and
    " 3 " as 3), within [min_value, max_value]."""

    default_error_messages = {"invalid": "Must be an integer written with the digits 0-9."}

    def to_internal_value(self, data):
        if not isinstance(data, str | int) or isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, str) and not ASCII_DIGITS.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "type": "string",
        "format": "date",
        # Years 1900 to 2999, as to_internal_value checks.
        "pattern": r"^(?:19|2[0-9])[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$",
    }
)
class QueryDateField(serializers.DateField):
    """A calendar day in a query filter: `YYYY-MM-DD` in ASCII digits, from 1900 to 2999 (a day
    outside has no booking nor transaction, and 9999-12-31 has no next day to end it)."""

    default_error_messages = {
        "invalid": "Use YYYY-MM-DD, a calendar day from 1900-01-01 to 2999-12-31.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("input_formats", ["%Y-%m-%d"])
        super().__init__(**kwargs)

    def to_internal_value(self, value):
        if not isinstance(value, str) or not ISO_DATE.fullmatch(value):
            self.fail("invalid")
        try:
            day = date.fromisoformat(value)
        except ValueError:
            self.fail("invalid")
        if not MIN_QUERY_DATE <= day <= MAX_QUERY_DATE:
            self.fail("invalid")
        return day


class QueryChoicesField(serializers.CharField):
    """A query filter of one value or several, comma-separated without spaces
    (`pending,confirmed`), each one of `choices`; the validated value is the list. The schema
    states the same rule as a pattern (QueryChoicesFieldSchema)."""

    default_error_messages = {"invalid_choices": "Use one or more of {choices}, comma-separated."}

    def __init__(self, *, choices, **kwargs):
        self.choices = list(choices)
        kwargs["trim_whitespace"] = False
        super().__init__(**kwargs)

    @property
    def pattern(self) -> str:
        one = "|".join(re.escape(choice) for choice in self.choices)
        return rf"^(?:{one})(?:,(?:{one}))*$"

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        values = value.split(",")
        if not all(v in self.choices for v in values):
            self.fail("invalid_choices", choices=", ".join(self.choices))
        return values


class QueryChoicesFieldSchema(OpenApiSerializerFieldExtension):
    target_class = QueryChoicesField

    def map_serializer_field(self, auto_schema, direction):
        return {**build_basic_type(OpenApiTypes.STR), "pattern": self.target.pattern}
