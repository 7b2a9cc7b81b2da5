from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.currency_enum import CurrencyEnum
from ..models.payment_method_enum import PaymentMethodEnum






T = TypeVar("T", bound="RechargeCreateRequest")



@_attrs_define
class RechargeCreateRequest:
    """ Unknown keys are ignored.

        Attributes:
            amount (str): Decimal string, e.g. "250.00"; 100.00 to 50000.00.
            currency (CurrencyEnum): * `BRL` - BRL
            payment_method (PaymentMethodEnum): * `pix` - pix
                * `boleto` - boleto
     """

    amount: str
    currency: CurrencyEnum
    payment_method: PaymentMethodEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        currency = self.currency.value

        payment_method = self.payment_method.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "amount": amount,
            "currency": currency,
            "payment_method": payment_method,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        currency = CurrencyEnum(d.pop("currency"))




        payment_method = PaymentMethodEnum(d.pop("payment_method"))




        recharge_create_request = cls(
            amount=amount,
            currency=currency,
            payment_method=payment_method,
        )


        recharge_create_request.additional_properties = d
        return recharge_create_request

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
