from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LoyaltyAccountInputRequest")



@_attrs_define
class LoyaltyAccountInputRequest:
    """ 
        Attributes:
            airline_iata_code (str): IATA airline code.
            account_number (str):
     """

    airline_iata_code: str
    account_number: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        airline_iata_code = self.airline_iata_code

        account_number = self.account_number


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "airline_iata_code": airline_iata_code,
            "account_number": account_number,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        airline_iata_code = d.pop("airline_iata_code")

        account_number = d.pop("account_number")

        loyalty_account_input_request = cls(
            airline_iata_code=airline_iata_code,
            account_number=account_number,
        )


        loyalty_account_input_request.additional_properties = d
        return loyalty_account_input_request

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
