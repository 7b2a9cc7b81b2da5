from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Seat")



@_attrs_define
class Seat:
    """ 
        Attributes:
            designator (str): Row and column, e.g. 12C.
            name (str): The airline's name for it (Extra legroom), or empty.
            disclosures (list[str]): The airline's terms for this seat.
     """

    designator: str
    name: str
    disclosures: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        designator = self.designator

        name = self.name

        disclosures = self.disclosures




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "designator": designator,
            "name": name,
            "disclosures": disclosures,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        designator = d.pop("designator")

        name = d.pop("name")

        disclosures = cast(list[str], d.pop("disclosures"))


        seat = cls(
            designator=designator,
            name=name,
            disclosures=disclosures,
        )


        seat.additional_properties = d
        return seat

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
