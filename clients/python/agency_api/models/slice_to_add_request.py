from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cabin_class_enum import CabinClassEnum
from typing import cast
import datetime






T = TypeVar("T", bound="SliceToAddRequest")



@_attrs_define
class SliceToAddRequest:
    """ 
        Attributes:
            origin (str):
            destination (str):
            departure_date (datetime.date): YYYY-MM-DD, local at the origin; not in the past.
            cabin_class (CabinClassEnum): * `economy` - economy
                * `premium_economy` - premium_economy
                * `business` - business
                * `first` - first
     """

    origin: str
    destination: str
    departure_date: datetime.date
    cabin_class: CabinClassEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        destination = self.destination

        departure_date = self.departure_date.isoformat()

        cabin_class = self.cabin_class.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "origin": origin,
            "destination": destination,
            "departure_date": departure_date,
            "cabin_class": cabin_class,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        origin = d.pop("origin")

        destination = d.pop("destination")

        departure_date = datetime.date.fromisoformat(d.pop("departure_date"))




        cabin_class = CabinClassEnum(d.pop("cabin_class"))




        slice_to_add_request = cls(
            origin=origin,
            destination=destination,
            departure_date=departure_date,
            cabin_class=cabin_class,
        )


        slice_to_add_request.additional_properties = d
        return slice_to_add_request

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
