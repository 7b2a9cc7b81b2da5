"""Input serializers that answer the first problem only, as the spec does for the bodies of
POST /bookings, PUT /bookings/:id/confirm and POST /flights/search.

DRF's serializers check every field and answer every problem at once; these check their fields
in the order `to_internal_value` asks for them (`checked`) and stop at the first problem, so a
request with two problems is always answered about the same one. The error names the field's
path (`passengers[1].born_on`) and is the error class the top serializer gives that field in
`problem_errors` (`invalid_passenger_data` for `passengers`, `invalid_request` otherwise).

Nested ones (a passenger, a document) raise DRF's ValidationError whose detail names the path
below them, one key per level (a name, or an index for a list item); the top one turns it into
the API error. Rules between fields or against stored data (the offer) run where their turn
comes; they may raise an ApplicationError with its full path themselves."""

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from django.core.validators import MaxLengthValidator, MinLengthValidator
from rest_framework import serializers

from core.exceptions import InvalidRequest


def problem_at(*path: int | str, message: str) -> serializers.ValidationError:
    """The problem of what is at `path` below the raising serializer: an index (the item of a
    list) or a name (a field), `problem_at(1, "id", message=...)`; no path: the serializer's
    own value."""
    detail: Any = message
    for key in reversed(path):
        detail = {key: detail}
    return serializers.ValidationError(detail)


def _field_copy(field: serializers.Field) -> serializers.Field:
    """A declared field's copy for one serializer instance. DRF deep-copies declared fields,
    which runs each field's __init__ again (its validators, its choices) for every request;
    ours hold nothing of a request until they are bound, so a shallow copy is enough. A nested
    serializer gets its fields anew when it first needs them, a list its own item serializer."""
    clone = object.__new__(type(field))
    clone.__dict__.update(field.__dict__)
    clone.__dict__.pop("fields", None)  # Serializer.fields, cached per instance
    if isinstance(clone, serializers.ListSerializer):
        child = _field_copy(cast(serializers.Field, clone.child))  # bound as the list's item
        child.parent = clone
        clone.child = child
    return clone


def problem_path(detail) -> tuple[str, Any]:
    """The one problem a first-problem serializer raised: (`passengers[1].born_on`, message)."""
    path = ""
    while isinstance(detail, dict):
        [(key, detail)] = detail.items()
        if isinstance(key, int):
            path += f"[{key}]"
        else:
            path += f".{key}" if path else key
    return path or "body", detail


# Checks its fields in the order of `check_order` (default: the order they are declared in),
# stops at the first problem and, at the top, raises the error of `problem_errors` for its
# field. A body that is not a JSON object is read as `{}`: each required field then says what
# it needs. `validate_<field>` runs right after its field. (Comments, not a docstring: the
# schema would show a docstring as each input's description.)
class FirstProblemSerializer(serializers.Serializer):
    check_order: ClassVar[tuple[str, ...]] = ()
    problem_errors: ClassVar[dict[str, type[InvalidRequest]]] = {}
    # The fields that have a `validate_<field>` method (found once per class).
    _validated_by_method: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._validated_by_method = frozenset(
            name.removeprefix("validate_") for name in dir(cls) if name.startswith("validate_")
        )

    def run_validation(self, data=serializers.empty):
        try:
            value = self.to_internal_value(None if data is serializers.empty else data)
            return self.validate(value)
        except serializers.ValidationError as exc:
            if self.parent is not None:
                raise
            path, messages = problem_path(exc.detail)
            field = next(iter(exc.detail)) if isinstance(exc.detail, dict) else ""
            error = self.problem_errors.get(field, InvalidRequest)
            raise error(details={path: messages}) from None

    def to_internal_value(self, data) -> Any:
        data = data if isinstance(data, Mapping) else {}
        fields = self.fields
        validated = {}
        for name in self.check_order or tuple(self._declared_fields):
            # What `checked` does, inlined: this runs for each field of each passenger.
            try:
                value = fields[name].run_validation(data.get(name, serializers.empty))
                if name in self._validated_by_method:
                    value = getattr(self, f"validate_{name}")(value)
            except serializers.ValidationError as exc:
                raise serializers.ValidationError({name: exc.detail}) from None
            except serializers.SkipField:
                continue
            validated[name] = value
        return validated

    def get_fields(self) -> dict[str, serializers.Field]:
        return {name: _field_copy(field) for name, field in self._declared_fields.items()}

    def share(self, **values) -> None:
        """Put `values` in the context, for the serializers nested in this one (what their
        checks need from an earlier one: the offer of the passengers)."""
        cast(dict[str, Any], self.context).update(values)

    def checked(self, name: str, data: Mapping):
        """The value of field `name` in `data`, or its problem (named `name`)."""
        return self.check(name, self.fields[name], data.get(name, serializers.empty))

    def check(self, path: str, field: serializers.Field, value):
        """`value` checked by `field`, then by `validate_<path>` if there is one; its problem
        named `path`."""
        try:
            value = field.run_validation(value)
            if path in self._validated_by_method:
                value = getattr(self, f"validate_{path}")(value)
            return value
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({path: exc.detail}) from None


class FirstProblemListSerializer(serializers.ListSerializer):
    """A list of at most `max_length` items (the schema's `maxItems`); absent or null is [].
    Anything else than such a list is `message`; the items are checked in order, the first
    problem named by its index."""

    message = "A list of at most {max_length}."

    min_length: int | None
    max_length: int | None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.max_length is not None:  # so that the schema states it (DRF's does not)
            self.validators.append(MaxLengthValidator(self.max_length))
        if self.min_length is not None:
            self.validators.append(MinLengthValidator(self.min_length))

    def run_validation(self, data=serializers.empty):
        if data is serializers.empty or data is None:
            return []
        return self.validate(self.to_internal_value(data))

    def to_internal_value(self, data) -> list:
        if not isinstance(data, list) or (
            self.max_length is not None and len(data) > self.max_length
        ):
            raise serializers.ValidationError(self.message.format(max_length=self.max_length))
        return [self.checked_item(index, item) for index, item in enumerate(data)]

    def checked_item(self, index: int, item):
        """The item checked by the child serializer; its problem named by its index."""
        child = cast(serializers.Field, self.child)
        try:
            return child.run_validation(item)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError(cast(Any, {index: exc.detail})) from None
