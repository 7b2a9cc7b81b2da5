from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.seat_map_section import SeatMapSection





T = TypeVar("T", bound="SeatMapRow")



@_attrs_define
class SeatMapRow:
    """ 
        Attributes:
            sections (list[SeatMapSection]):
     """

    sections: list[SeatMapSection]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_map_section import SeatMapSection # noqa: PLC0415
        sections = []
        for sections_item_data in self.sections:
            sections_item = sections_item_data.to_dict()
            sections.append(sections_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "sections": sections,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_map_section import SeatMapSection # noqa: PLC0415
        d = dict(src_dict)
        sections = []
        _sections = d.pop("sections")
        for sections_item_data in (_sections):
            sections_item = SeatMapSection.from_dict(sections_item_data)



            sections.append(sections_item)


        seat_map_row = cls(
            sections=sections,
        )


        seat_map_row.additional_properties = d
        return seat_map_row

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
