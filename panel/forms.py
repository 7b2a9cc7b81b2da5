"""Form fields of the panel that read what people type in their own language."""

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core.money import LocalizedNumberError, format_localized_decimal, parse_localized_decimal

ERRORS = {
    "empty": _("Enter a number."),
    "invalid": _("Enter a number such as %(example)s."),
    "ambiguous": _(
        "“%(value)s” is ambiguous: write the decimal part too (%(example)s), or leave out the "
        "thousands separator."
    ),
    "wrong_decimal_separator": _(
        "Use %(separator)s for the decimal part: %(example)s (in this language)."
    ),
    "too_many_decimals": _("Enter at most %(places)s digits after the decimal separator."),
}


class DecimalTextInput(forms.TextInput):
    """A plain text input with the phone's decimal keypad: `type=number` would let the browser
    reinterpret the text by its own locale (how "25,50" became 2550)."""

    def __init__(self, attrs=None):
        super().__init__({"inputmode": "decimal", "autocomplete": "off", **(attrs or {})})


class LocalizedDecimalField(forms.Field):
    """A non-negative number read in the active language, strictly (core.money)."""

    widget = DecimalTextInput

    def __init__(self, *, decimal_places=2, min_value=None, max_value=None, **kwargs):
        self.decimal_places = decimal_places
        self.min_value, self.max_value = min_value, max_value
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if isinstance(value, Decimal | int):
            return format_localized_decimal(
                Decimal(value),
                language=translation.get_language() or "pt-br",
                decimal_places=self.decimal_places,
            )
        return value

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal):
            return value
        language = translation.get_language() or "pt-br"
        try:
            return parse_localized_decimal(
                str(value), language=language, decimal_places=self.decimal_places
            )
        except LocalizedNumberError as error:
            code = str(error)
            example = format_localized_decimal(
                Decimal("1234.56"), language=language, decimal_places=2
            )
            grouped_example = "1.234,56" if not language.startswith("en") else "1,234.56"
            raise ValidationError(
                ERRORS[code],
                code=code,
                params={
                    "value": value,
                    "example": grouped_example if code == "ambiguous" else example,
                    "separator": "," if not language.startswith("en") else ".",
                    "places": self.decimal_places,
                },
            ) from None

    def validate(self, value):
        super().validate(value)
        if value is None:
            return
        if self.min_value is not None and value < self.min_value:
            raise ValidationError(
                _("Enter a value of at least %(limit)s."),
                code="min_value",
                params={"limit": self.prepare_value(self.min_value)},
            )
        if self.max_value is not None and value > self.max_value:
            raise ValidationError(
                _("Enter a value of at most %(limit)s."),
                code="max_value",
                params={"limit": self.prepare_value(self.max_value)},
            )
