from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.seat_map_cabin import SeatMapCabin





T = TypeVar("T", bound="SeatMap")



@_attrs_define
class SeatMap:
    """ 
        Attributes:
            id (str):
            slice_id (str):
            segment_id (str):
            cabins (list[SeatMapCabin]):
     """

    id: str
    slice_id: str
    segment_id: str
    cabins: list[SeatMapCabin]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_map_cabin import SeatMapCabin # noqa: PLC0415
        id = self.id

        slice_id = self.slice_id

        segment_id = self.segment_id

        cabins = []
        for cabins_item_data in self.cabins:
            cabins_item = cabins_item_data.to_dict()
            cabins.append(cabins_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "slice_id": slice_id,
            "segment_id": segment_id,
            "cabins": cabins,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_map_cabin import SeatMapCabin # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        slice_id = d.pop("slice_id")

        segment_id = d.pop("segment_id")

        cabins = []
        _cabins = d.pop("cabins")
        for cabins_item_data in (_cabins):
            cabins_item = SeatMapCabin.from_dict(cabins_item_data)



            cabins.append(cabins_item)


        seat_map = cls(
            id=id,
            slice_id=slice_id,
            segment_id=segment_id,
            cabins=cabins,
        )


        seat_map.additional_properties = d
        return seat_map

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
