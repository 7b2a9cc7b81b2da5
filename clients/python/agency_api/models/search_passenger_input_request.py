from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.passenger_type_enum import PassengerTypeEnum






T = TypeVar("T", bound="SearchPassengerInputRequest")



@_attrs_define
class SearchPassengerInputRequest:
    """ 
        Attributes:
            type_ (PassengerTypeEnum): * `adult` - adult
                * `child` - child
                * `infant_without_seat` - infant_without_seat
            count (int):
     """

    type_: PassengerTypeEnum
    count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        count = self.count


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "count": count,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = PassengerTypeEnum(d.pop("type"))




        count = d.pop("count")

        search_passenger_input_request = cls(
            type_=type_,
            count=count,
        )


        search_passenger_input_request.additional_properties = d
        return search_passenger_input_request

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
