from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="EventPagination")



@_attrs_define
class EventPagination:
    """ The spec's `pagination` in page mode; `{limit, has_more}` with a cursor (no count).

        Attributes:
            limit (int):
            has_more (bool): More events lie further on: after this page (page mode, `starting_after`), or before it
                (`ending_before`).
            page (int | Unset): Page mode only.
            total (int | Unset): Page mode only.
            pages (int | Unset): Page mode only.
     """

    limit: int
    has_more: bool
    page: int | Unset = UNSET
    total: int | Unset = UNSET
    pages: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        has_more = self.has_more

        page = self.page

        total = self.total

        pages = self.pages


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "limit": limit,
            "has_more": has_more,
        })
        if page is not UNSET:
            field_dict["page"] = page
        if total is not UNSET:
            field_dict["total"] = total
        if pages is not UNSET:
            field_dict["pages"] = pages

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        limit = d.pop("limit")

        has_more = d.pop("has_more")

        page = d.pop("page", UNSET)

        total = d.pop("total", UNSET)

        pages = d.pop("pages", UNSET)

        event_pagination = cls(
            limit=limit,
            has_more=has_more,
            page=page,
            total=total,
            pages=pages,
        )


        event_pagination.additional_properties = d
        return event_pagination

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
