from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.seat_map_element import SeatMapElement





T = TypeVar("T", bound="SeatMapSection")



@_attrs_define
class SeatMapSection:
    """ 
        Attributes:
            elements (list[SeatMapElement]):
     """

    elements: list[SeatMapElement]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_map_element import SeatMapElement # noqa: PLC0415
        elements = []
        for elements_item_data in self.elements:
            elements_item = elements_item_data.to_dict()
            elements.append(elements_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "elements": elements,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_map_element import SeatMapElement # noqa: PLC0415
        d = dict(src_dict)
        elements = []
        _elements = d.pop("elements")
        for elements_item_data in (_elements):
            elements_item = SeatMapElement.from_dict(elements_item_data)



            elements.append(elements_item)


        seat_map_section = cls(
            elements=elements,
        )


        seat_map_section.additional_properties = d
        return seat_map_section

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
