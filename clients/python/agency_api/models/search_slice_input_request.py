from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="SearchSliceInputRequest")



@_attrs_define
class SearchSliceInputRequest:
    """ 
        Attributes:
            origin (str): IATA airport (GRU) or city (SAO) code.
            destination (str): IATA airport or city code.
            departure_date (datetime.date): YYYY-MM-DD (ASCII digits), after today at the origin and at most 365 days ahead.
     """

    origin: str
    destination: str
    departure_date: datetime.date
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        destination = self.destination

        departure_date = self.departure_date.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "origin": origin,
            "destination": destination,
            "departureDate": departure_date,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        origin = d.pop("origin")

        destination = d.pop("destination")

        departure_date = datetime.date.fromisoformat(d.pop("departureDate"))




        search_slice_input_request = cls(
            origin=origin,
            destination=destination,
            departure_date=departure_date,
        )


        search_slice_input_request.additional_properties = d
        return search_slice_input_request

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
