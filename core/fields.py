from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A string field that refuses numbers and booleans (DRF's CharField coerces them), so
    that the types on the wire are exactly the spec's."""

    default_error_messages = {"invalid": "Must be a string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
