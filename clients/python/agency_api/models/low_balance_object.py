from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.low_balance_object_currency import LowBalanceObjectCurrency
from ..models.low_balance_object_object import LowBalanceObjectObject






T = TypeVar("T", bound="LowBalanceObject")



@_attrs_define
class LowBalanceObject:
    """ 
        Attributes:
            object_ (LowBalanceObjectObject):
            balance (str):
            currency (LowBalanceObjectCurrency):
            threshold (str):
            transaction_id (str):
     """

    object_: LowBalanceObjectObject
    balance: str
    currency: LowBalanceObjectCurrency
    threshold: str
    transaction_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_.value

        balance = self.balance

        currency = self.currency.value

        threshold = self.threshold

        transaction_id = self.transaction_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "balance": balance,
            "currency": currency,
            "threshold": threshold,
            "transaction_id": transaction_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        object_ = LowBalanceObjectObject(d.pop("object"))




        balance = d.pop("balance")

        currency = LowBalanceObjectCurrency(d.pop("currency"))




        threshold = d.pop("threshold")

        transaction_id = d.pop("transaction_id")

        low_balance_object = cls(
            object_=object_,
            balance=balance,
            currency=currency,
            threshold=threshold,
            transaction_id=transaction_id,
        )


        low_balance_object.additional_properties = d
        return low_balance_object

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
