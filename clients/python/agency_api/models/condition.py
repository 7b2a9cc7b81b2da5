from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Condition")



@_attrs_define
class Condition:
    """ 
        Attributes:
            allowed (bool):
            penalty_amount (None | str):
            penalty_currency (None | str):
     """

    allowed: bool
    penalty_amount: None | str
    penalty_currency: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        allowed = self.allowed

        penalty_amount: None | str
        penalty_amount = self.penalty_amount

        penalty_currency: None | str
        penalty_currency = self.penalty_currency


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "allowed": allowed,
            "penalty_amount": penalty_amount,
            "penalty_currency": penalty_currency,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        allowed = d.pop("allowed")

        def _parse_penalty_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        penalty_amount = _parse_penalty_amount(d.pop("penalty_amount"))


        def _parse_penalty_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        penalty_currency = _parse_penalty_currency(d.pop("penalty_currency"))


        condition = cls(
            allowed=allowed,
            penalty_amount=penalty_amount,
            penalty_currency=penalty_currency,
        )


        condition.additional_properties = d
        return condition

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
