from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.seat_service import SeatService





T = TypeVar("T", bound="SeatMapElement")



@_attrs_define
class SeatMapElement:
    """ 
        Attributes:
            type_ (str): seat, bassinet, empty, exit_row, lavatory, galley, closet, stairs.
            designator (str | Unset): Seats: row and column (12C).
            name (str | Unset):
            disclosures (list[str] | Unset):
            available_services (list[SeatService] | Unset): One per passenger who may take it; empty: taken.
     """

    type_: str
    designator: str | Unset = UNSET
    name: str | Unset = UNSET
    disclosures: list[str] | Unset = UNSET
    available_services: list[SeatService] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_service import SeatService # noqa: PLC0415
        type_ = self.type_

        designator = self.designator

        name = self.name

        disclosures: list[str] | Unset = UNSET
        if not isinstance(self.disclosures, Unset):
            disclosures = self.disclosures



        available_services: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.available_services, Unset):
            available_services = []
            for available_services_item_data in self.available_services:
                available_services_item = available_services_item_data.to_dict()
                available_services.append(available_services_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
        })
        if designator is not UNSET:
            field_dict["designator"] = designator
        if name is not UNSET:
            field_dict["name"] = name
        if disclosures is not UNSET:
            field_dict["disclosures"] = disclosures
        if available_services is not UNSET:
            field_dict["available_services"] = available_services

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_service import SeatService # noqa: PLC0415
        d = dict(src_dict)
        type_ = d.pop("type")

        designator = d.pop("designator", UNSET)

        name = d.pop("name", UNSET)

        disclosures = cast(list[str], d.pop("disclosures", UNSET))


        _available_services = d.pop("available_services", UNSET)
        available_services: list[SeatService] | Unset = UNSET
        if _available_services is not UNSET:
            available_services = []
            for available_services_item_data in _available_services:
                available_services_item = SeatService.from_dict(available_services_item_data)



                available_services.append(available_services_item)


        seat_map_element = cls(
            type_=type_,
            designator=designator,
            name=name,
            disclosures=disclosures,
            available_services=available_services,
        )


        seat_map_element.additional_properties = d
        return seat_map_element

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
