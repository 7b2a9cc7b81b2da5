"""page/limit pagination with the spec's `pagination` object (plus `has_more`), and cursor
pagination (`starting_after` / `ending_before`) for lists that offer it."""

import math
from collections.abc import Sequence

from django.db.models import Model, Q, QuerySet
from rest_framework import serializers

from api.fields import QueryIntegerField

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20
# Far past any real list, and small enough that the offset fits a 64-bit column and the page
# number a JSON number every client reads exactly.
MAX_PAGE = 2**31 - 1


class PaginationFilterSerializer(serializers.Serializer):
    """Query parameters of every list endpoint: each list view's FilterSerializer subclasses
    it."""

    page = QueryIntegerField(min_value=1, max_value=MAX_PAGE, default=1)
    limit = QueryIntegerField(
        min_value=1,
        max_value=MAX_PAGE,
        default=DEFAULT_PAGE_SIZE,
        help_text=f"Page size; default {DEFAULT_PAGE_SIZE}, values above {MAX_PAGE_SIZE} are "
        f"capped at {MAX_PAGE_SIZE}.",
    )

    def validate_limit(self, value: int) -> int:
        return min(value, MAX_PAGE_SIZE)

    def to_internal_value(self, data):
        # DRF reads a blank query value (`?status=`) of an optional field as if it were absent:
        # a filter the client meant to set would silently match everything.
        blank = {name: ["May not be blank."] for name in self.fields if data.get(name) == ""}
        if blank:
            raise serializers.ValidationError(blank)
        return super().to_internal_value(data)


class PaginationSerializer(serializers.Serializer):
    page = serializers.IntegerField()
    limit = serializers.IntegerField()
    total = serializers.IntegerField()
    pages = serializers.IntegerField()
    has_more = serializers.BooleanField(help_text="Pages follow this one.")


def paginate(queryset, *, page: int, limit: int) -> tuple[list, dict]:
    """The items of one page and the `pagination` object. A page past the end is empty."""
    total = queryset.count()
    offset = (page - 1) * limit
    items = list(queryset[offset : offset + limit]) if offset < total else []
    return items, page_pagination(page=page, limit=limit, total=total)


def page_pagination(*, page: int, limit: int, total: int) -> dict:
    """The spec's `pagination` object of one page of `total` items, and `has_more`."""
    pages = math.ceil(total / limit)
    return {"page": page, "limit": limit, "total": total, "pages": pages, "has_more": page < pages}


def paginate_by_cursor(
    queryset: QuerySet,
    *,
    order: Sequence[str],
    limit: int,
    starting_after: Model | None = None,
    ending_before: Model | None = None,
) -> tuple[list, dict]:
    """The `limit` items that follow `starting_after`, or that precede `ending_before` (the
    nearest ones), in the list's `order` (field names, `-` for descending; the last one
    unique), and `pagination` = `{limit, has_more}`: `has_more` says whether items lie further
    on in the direction read (after the page for `starting_after`, before it for
    `ending_before`). No count: a cursor's reader pages until `has_more` is false."""
    forward = ending_before is None
    if starting_after is not None:
        queryset = queryset.filter(beyond(starting_after, order, forward=True))
    if ending_before is not None:
        queryset = queryset.filter(beyond(ending_before, order, forward=False))
    reading = order if forward else [_reversed(field) for field in order]
    found = list(queryset.order_by(*reading)[: limit + 1])
    items = found[:limit] if forward else found[:limit][::-1]
    return items, {"limit": limit, "has_more": len(found) > limit}


def beyond(row: Model, order: Sequence[str], *, forward: bool) -> Q:
    """The rows after `row` in `order` (before it when not `forward`): a keyset comparison,
    field by field."""
    condition, equal = Q(), Q()
    for field in order:
        name = field.removeprefix("-")
        value = getattr(row, name)
        ascending = (not field.startswith("-")) is forward
        condition |= equal & Q(**{f"{name}__{'gt' if ascending else 'lt'}": value})
        equal &= Q(**{name: value})
    return condition


def _reversed(field: str) -> str:
    return field.removeprefix("-") if field.startswith("-") else f"-{field}"
