from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Place")



@_attrs_define
class Place:
    """ 
        Attributes:
            iata_code (str):
            name (str):
            city_name (str):
            iata_city_code (str):
            time_zone (str):
     """

    iata_code: str
    name: str
    city_name: str
    iata_city_code: str
    time_zone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        iata_code = self.iata_code

        name = self.name

        city_name = self.city_name

        iata_city_code = self.iata_city_code

        time_zone = self.time_zone


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "iata_code": iata_code,
            "name": name,
            "city_name": city_name,
            "iata_city_code": iata_city_code,
            "time_zone": time_zone,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        iata_code = d.pop("iata_code")

        name = d.pop("name")

        city_name = d.pop("city_name")

        iata_city_code = d.pop("iata_city_code")

        time_zone = d.pop("time_zone")

        place = cls(
            iata_code=iata_code,
            name=name,
            city_name=city_name,
            iata_city_code=iata_city_code,
            time_zone=time_zone,
        )


        place.additional_properties = d
        return place

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
