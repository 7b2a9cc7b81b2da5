from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="OperatingCarrier")



@_attrs_define
class OperatingCarrier:
    """ 
        Attributes:
            iata_code (str):
            name (str):
            logo_symbol_url (None | str):
     """

    iata_code: str
    name: str
    logo_symbol_url: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        iata_code = self.iata_code

        name = self.name

        logo_symbol_url: None | str
        logo_symbol_url = self.logo_symbol_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "iata_code": iata_code,
            "name": name,
            "logo_symbol_url": logo_symbol_url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        iata_code = d.pop("iata_code")

        name = d.pop("name")

        def _parse_logo_symbol_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_symbol_url = _parse_logo_symbol_url(d.pop("logo_symbol_url"))


        operating_carrier = cls(
            iata_code=iata_code,
            name=name,
            logo_symbol_url=logo_symbol_url,
        )


        operating_carrier.additional_properties = d
        return operating_carrier

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
