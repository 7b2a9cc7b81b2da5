from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.payment_method_enum import PaymentMethodEnum
from ..models.reference_type_enum import ReferenceTypeEnum
from ..models.transaction_type_enum import TransactionTypeEnum
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="Transaction")



@_attrs_define
class Transaction:
    """ 
        Attributes:
            id (str):
            type_ (TransactionTypeEnum): * `credit` - credit
                * `debit` - debit
            amount (str):
            currency (str):
            description (str):
            reference_type (ReferenceTypeEnum): * `booking` - booking
                * `recharge` - recharge
                * `refund` - refund
                * `booking_services` - booking_services
                * `booking_change` - booking_change
                * `reversal` - reversal
                * `debt_payment` - debt_payment
                * `withdrawal` - withdrawal
            reference_id (str):
            balance_after (str):
            created_at (datetime.datetime):
            payment_method (PaymentMethodEnum | Unset): * `pix` - pix
                * `boleto` - boleto
     """

    id: str
    type_: TransactionTypeEnum
    amount: str
    currency: str
    description: str
    reference_type: ReferenceTypeEnum
    reference_id: str
    balance_after: str
    created_at: datetime.datetime
    payment_method: PaymentMethodEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        amount = self.amount

        currency = self.currency

        description = self.description

        reference_type = self.reference_type.value

        reference_id = self.reference_id

        balance_after = self.balance_after

        created_at = self.created_at.isoformat()

        payment_method: str | Unset = UNSET
        if not isinstance(self.payment_method, Unset):
            payment_method = self.payment_method.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "amount": amount,
            "currency": currency,
            "description": description,
            "reference_type": reference_type,
            "reference_id": reference_id,
            "balance_after": balance_after,
            "created_at": created_at,
        })
        if payment_method is not UNSET:
            field_dict["payment_method"] = payment_method

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = TransactionTypeEnum(d.pop("type"))




        amount = d.pop("amount")

        currency = d.pop("currency")

        description = d.pop("description")

        reference_type = ReferenceTypeEnum(d.pop("reference_type"))




        reference_id = d.pop("reference_id")

        balance_after = d.pop("balance_after")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        _payment_method = d.pop("payment_method", UNSET)
        payment_method: PaymentMethodEnum | Unset
        if isinstance(_payment_method,  Unset):
            payment_method = UNSET
        else:
            payment_method = PaymentMethodEnum(_payment_method)




        transaction = cls(
            id=id,
            type_=type_,
            amount=amount,
            currency=currency,
            description=description,
            reference_type=reference_type,
            reference_id=reference_id,
            balance_after=balance_after,
            created_at=created_at,
            payment_method=payment_method,
        )


        transaction.additional_properties = d
        return transaction

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
