"""page/limit pagination with the spec's `pagination` object."""

import math

from rest_framework import serializers

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20


class PaginationParams(serializers.Serializer):
    """Query parameters of every list endpoint; list filters subclass it."""

    page = serializers.IntegerField(min_value=1, max_value=2**31 - 1, default=1)
    limit = serializers.IntegerField(
        min_value=1,
        default=DEFAULT_PAGE_SIZE,
        help_text=f"Page size; default {DEFAULT_PAGE_SIZE}, values above {MAX_PAGE_SIZE} are "
        f"capped at {MAX_PAGE_SIZE}.",
    )

    def validate_limit(self, value: int) -> int:
        return min(value, MAX_PAGE_SIZE)


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
