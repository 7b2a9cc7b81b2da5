from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ReversalObjectWallet")



@_attrs_define
class ReversalObjectWallet:
    """ The wallet's debt and restriction after this change.

        Attributes:
            debt_amount (str):
            restricted (bool):
     """

    debt_amount: str
    restricted: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        debt_amount = self.debt_amount

        restricted = self.restricted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "debt_amount": debt_amount,
            "restricted": restricted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        debt_amount = d.pop("debt_amount")

        restricted = d.pop("restricted")

        reversal_object_wallet = cls(
            debt_amount=debt_amount,
            restricted=restricted,
        )


        reversal_object_wallet.additional_properties = d
        return reversal_object_wallet

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
