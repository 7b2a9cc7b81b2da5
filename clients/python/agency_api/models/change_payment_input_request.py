from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.balance_payment_input_type_enum import BalancePaymentInputTypeEnum






T = TypeVar("T", bound="ChangePaymentInputRequest")



@_attrs_define
class ChangePaymentInputRequest:
    """ 
        Attributes:
            type_ (BalancePaymentInputTypeEnum): * `balance` - balance
            amount (str): Exactly the change offer's change_total_amount (the airline's currency), negative for a refund.
                Decimal string.
            currency (str): Exactly the change offer's change_total_currency.
     """

    type_: BalancePaymentInputTypeEnum
    amount: str
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        amount = self.amount

        currency = self.currency


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "amount": amount,
            "currency": currency,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = BalancePaymentInputTypeEnum(d.pop("type"))




        amount = d.pop("amount")

        currency = d.pop("currency")

        change_payment_input_request = cls(
            type_=type_,
            amount=amount,
            currency=currency,
        )


        change_payment_input_request.additional_properties = d
        return change_payment_input_request

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
