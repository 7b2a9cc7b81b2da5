from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.location_type_enum import LocationTypeEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.place import Place





T = TypeVar("T", bound="RequestedSlice")



@_attrs_define
class RequestedSlice:
    """ 
        Attributes:
            origin (Place):
            destination (Place):
            departure_date (datetime.date):
            origin_type (LocationTypeEnum): * `airport` - airport
                * `city` - city
            destination_type (LocationTypeEnum): * `airport` - airport
                * `city` - city
     """

    origin: Place
    destination: Place
    departure_date: datetime.date
    origin_type: LocationTypeEnum
    destination_type: LocationTypeEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.place import Place # noqa: PLC0415
        origin = self.origin.to_dict()

        destination = self.destination.to_dict()

        departure_date = self.departure_date.isoformat()

        origin_type = self.origin_type.value

        destination_type = self.destination_type.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "origin": origin,
            "destination": destination,
            "departure_date": departure_date,
            "origin_type": origin_type,
            "destination_type": destination_type,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.place import Place # noqa: PLC0415
        d = dict(src_dict)
        origin = Place.from_dict(d.pop("origin"))




        destination = Place.from_dict(d.pop("destination"))




        departure_date = datetime.date.fromisoformat(d.pop("departure_date"))




        origin_type = LocationTypeEnum(d.pop("origin_type"))




        destination_type = LocationTypeEnum(d.pop("destination_type"))




        requested_slice = cls(
            origin=origin,
            destination=destination,
            departure_date=departure_date,
            origin_type=origin_type,
            destination_type=destination_type,
        )


        requested_slice.additional_properties = d
        return requested_slice

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
