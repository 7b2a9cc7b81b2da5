"""page/limit pagination with the spec's `pagination` object."""

import math

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


def paginate(queryset, *, page: int, limit: int) -> tuple[list, dict]:
    """The items of one page and the `pagination` object. A page past the end is empty."""
    total = queryset.count()
    offset = (page - 1) * limit
    items = list(queryset[offset : offset + limit]) if offset < total else []
    pagination = {"page": page, "limit": limit, "total": total, "pages": math.ceil(total / limit)}
    return items, pagination
