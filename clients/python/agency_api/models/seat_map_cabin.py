from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.seat_map_cabin_wings import SeatMapCabinWings
  from ..models.seat_map_row import SeatMapRow





T = TypeVar("T", bound="SeatMapCabin")



@_attrs_define
class SeatMapCabin:
    """ 
        Attributes:
            cabin_class (str):
            deck (int):
            aisles (int):
            rows (list[SeatMapRow]):
            wings (SeatMapCabinWings | Unset):
     """

    cabin_class: str
    deck: int
    aisles: int
    rows: list[SeatMapRow]
    wings: SeatMapCabinWings | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_map_cabin_wings import SeatMapCabinWings # noqa: PLC0415
        from ..models.seat_map_row import SeatMapRow # noqa: PLC0415
        cabin_class = self.cabin_class

        deck = self.deck

        aisles = self.aisles

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)



        wings: dict[str, Any] | Unset = UNSET
        if not isinstance(self.wings, Unset):
            wings = self.wings.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cabin_class": cabin_class,
            "deck": deck,
            "aisles": aisles,
            "rows": rows,
        })
        if wings is not UNSET:
            field_dict["wings"] = wings

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_map_cabin_wings import SeatMapCabinWings # noqa: PLC0415
        from ..models.seat_map_row import SeatMapRow # noqa: PLC0415
        d = dict(src_dict)
        cabin_class = d.pop("cabin_class")

        deck = d.pop("deck")

        aisles = d.pop("aisles")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in (_rows):
            rows_item = SeatMapRow.from_dict(rows_item_data)



            rows.append(rows_item)


        _wings = d.pop("wings", UNSET)
        wings: SeatMapCabinWings | Unset
        if isinstance(_wings,  Unset):
            wings = UNSET
        else:
            wings = SeatMapCabinWings.from_dict(_wings)




        seat_map_cabin = cls(
            cabin_class=cabin_class,
            deck=deck,
            aisles=aisles,
            rows=rows,
            wings=wings,
        )


        seat_map_cabin.additional_properties = d
        return seat_map_cabin

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
