"""Serializer fields of the API's input: each states its rule once, for the validation and
for the OpenAPI schema (drf-spectacular reads the same attributes: `max_length`, the pattern,
the choices). Problems are the spec's words, not DRF's defaults.

Input takes ASCII digits only (`\\d` in Python patterns matches every Unicode digit, "٣٠٠"), and
patterns are matched against the whole string (`fullmatch`: `$` alone would accept a trailing
"\\n"); see docs/decisions.md "Input limits"."""

import re
from datetime import date

from django.core.validators import MaxLengthValidator
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.metadata import MAX_METADATA_KEYS, MAX_METADATA_VALUE_LENGTH, metadata_problem

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


# --- Body fields with the spec's own words ------------------------------------------------------
# Each refuses every wrong value (absent, null, another JSON type, out of range) with one
# message, as the spec words it, and never coerces (DRF's CharField takes 12 as "12").

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# A phone number with its country code (a passenger's, a client's): `+` and 8 to 15 digits.
PHONE_PATTERN = r"^\+[0-9]{8,15}$"
PHONE_MESSAGE = "Use the country code and digits: +5511987654321."


def one_of_message(values) -> str:
    """`Must be m or f.` for two values, `Must be one of a, b, c.` for more."""
    values = [str(value) for value in values]
    if len(values) == 1:
        return f"Must be {values[0]}."
    if len(values) == 2:
        return f"Must be {values[0]} or {values[1]}."
    return f"Must be one of {', '.join(values)}."


class OneOfField(serializers.ChoiceField):
    """Exactly one of the values of `choices` (a TextChoices class): the member is the validated
    value. Anything else, absent or null included, is `Must be one of a, b, c.`.

    `blank=True`: a falsy value (absent, null, "", 0, false, [], {}) means "not given" and is
    "" (a passenger's `title`). `default`: the value when absent (null is still refused)."""

    def __init__(self, choices, *, blank: bool = False, **kwargs):
        self.members = {member.value: member for member in choices}
        self.blank = blank
        if blank:
            kwargs["required"] = False
        # Values only: the schema's enum and its description list the wire values.
        super().__init__(choices=choices.values, **kwargs)
        self.message = one_of_message(choices.values)

    def run_validation(self, data=serializers.empty):
        if self.blank and (data is serializers.empty or not data):
            return ""
        if data is serializers.empty and self.default is not serializers.empty:
            return self.get_default()
        if isinstance(data, str) and data in self.members:
            return self.members[data]
        raise serializers.ValidationError(self.message)


class TextField(serializers.CharField):
    """A non-blank string, kept stripped, of at most `max_length` characters (after stripping)
    and without control characters (a line break in a name)."""

    required_message = "Required, a non-empty string."

    def run_validation(self, data=serializers.empty):
        if not isinstance(data, str) or not data.strip():
            raise serializers.ValidationError(self.required_message)
        value = data.strip()
        if self.max_length is not None and len(value) > self.max_length:
            raise serializers.ValidationError(f"At most {self.max_length} characters.")
        if CONTROL_CHARACTERS.search(value):
            raise serializers.ValidationError("Must not contain control characters.")
        return value


EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class EmailTextField(TextField, serializers.EmailField):
    """A TextField that is an e-mail address (one `@`, a dot in the domain, no spaces)."""

    def run_validation(self, data=serializers.empty):
        value = super().run_validation(data)
        if not EMAIL.fullmatch(value):
            raise serializers.ValidationError("Not an e-mail address.")
        return value


class PatternField(serializers.RegexField):
    """A string matching `regex` whole (the schema's `pattern`, anchored), as given: not
    stripped. Anything else is `message`."""

    def __init__(self, regex: str, *, message: str, **kwargs):
        super().__init__(regex, **kwargs)
        self.pattern = re.compile(regex)
        self.message = message

    def run_validation(self, data=serializers.empty):
        if not isinstance(data, str) or not self.pattern.fullmatch(data):
            raise serializers.ValidationError(self.message)
        return data


class IsoDateField(serializers.DateField):
    """A calendar day written `YYYY-MM-DD` in ASCII digits: the date."""

    def run_validation(self, data=serializers.empty):
        if not isinstance(data, str) or not ISO_DATE.fullmatch(data):
            raise serializers.ValidationError("Use YYYY-MM-DD.")
        try:
            return date.fromisoformat(data)
        except ValueError:
            raise serializers.ValidationError(f"{data} is not a calendar date.") from None


class StringChoiceField(serializers.ChoiceField):
    """A string, stripped, whose values the schema lists (`choices`); which values are taken
    is checked after it, with the spec's words for the field (`Must be BRL.`, or a service's
    `invalid_payment_method`). Absent, null, blank or not a string are DRF's problems."""

    default_error_messages = {
        "invalid": "Must be a string.",
        "blank": serializers.CharField.default_error_messages["blank"],
    }

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str) and not data.strip():
            self.fail("blank")
        is_empty, data = self.validate_empty_values(data)
        if is_empty:
            return data
        if not isinstance(data, str):
            self.fail("invalid")
        return data.strip()


class MetadataField(serializers.DictField):
    """Free-form `metadata` (a booking's, a client's), bounded like Stripe's
    (core.metadata): an object of at most 50 keys of 1 to 40 characters whose values are
    strings of at most 500 characters. Absent or null is {} (with `allow_null`, null is None:
    an update's "remove every key"). Its keys' lengths are not in the schema: OpenAPI 3.0 has
    no propertyNames (docs/fuzzing.md)."""

    def __init__(self, **kwargs):
        kwargs["child"] = serializers.CharField(
            max_length=MAX_METADATA_VALUE_LENGTH, allow_blank=True
        )
        super().__init__(**kwargs)
        self.validators.append(MaxLengthValidator(MAX_METADATA_KEYS))  # the schema's maxProperties

    def run_validation(self, data=serializers.empty) -> dict[str, str] | None:
        if data is None and self.allow_null:
            return None
        if data is serializers.empty or data is None:
            return {}
        problem = metadata_problem(data)
        if problem is not None:
            key, message = problem
            raise serializers.ValidationError({key: message} if key is not None else message)
        return data


# Characters a person's text never holds (C0 and C1 controls, DEL), and one that is neither
# such a character nor a space: the schema's patterns of PlainTextField. Python's `\s` is what
# str.strip() strips; the schema's patterns are read by Python's `re` in our tests' tools.
_NOT_CONTROL = r"[^\x00-\x1f\x7f-\x9f]"
_VISIBLE = r"[^\x00-\x1f\x7f-\x9f\s]"


class PlainTextField(serializers.RegexField):
    """A string of at most `max_length` characters (as sent) without control characters,
    kept stripped: what the schema states with maxLength and a pattern, so that the schema
    and the check agree on every value. Required: it holds a character that is not a space.
    Optional (`required=False`): "" is allowed too (a cleared value; the schema's `oneOf`)."""

    def __init__(self, *, max_length: int, required: bool = True, **kwargs):
        pattern = (
            rf"^{_NOT_CONTROL}*{_VISIBLE}{_NOT_CONTROL}*$" if required else rf"^{_NOT_CONTROL}+$"
        )
        kwargs.setdefault("allow_blank", not required)
        super().__init__(pattern, max_length=max_length, required=required, **kwargs)
        self.pattern = pattern

    def run_validation(self, data=serializers.empty) -> str:
        if data is serializers.empty and not self.required:
            return ""
        if not isinstance(data, str):
            raise serializers.ValidationError(
                "Required, a non-empty string." if self.required else "Must be a string or null."
            )
        if self.max_length is not None and len(data) > self.max_length:
            raise serializers.ValidationError(f"At most {self.max_length} characters.")
        if CONTROL_CHARACTERS.search(data):
            raise serializers.ValidationError("Must not contain control characters.")
        value = data.strip()
        if self.required and not value:
            raise serializers.ValidationError("Required, a non-empty string.")
        return value


class EmailAddressField(PlainTextField, serializers.EmailField):
    """A PlainTextField that is an e-mail address (one `@`, a dot in the domain, no spaces),
    kept in lower case; the schema's format is `email`."""

    def run_validation(self, data=serializers.empty) -> str:
        value = super().run_validation(data)
        if not EMAIL.fullmatch(value):
            raise serializers.ValidationError("Not an e-mail address.")
        return value.lower()


class PlainTextFieldSchema(OpenApiSerializerFieldExtension):
    """Exactly what PlainTextField checks: a string (null too with `allow_null`), at most
    `max_length` characters, its pattern (an optional one's "" is drf-spectacular's `oneOf`
    for a blank value)."""

    target_class = PlainTextField
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        field = self.target
        schema = {
            **build_basic_type(OpenApiTypes.STR),
            "maxLength": field.max_length,
            "pattern": field.pattern,
        }
        if isinstance(field, serializers.EmailField):
            schema["format"] = "email"
        return schema
