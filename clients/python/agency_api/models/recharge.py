from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.payment_method_enum import PaymentMethodEnum
from ..models.recharge_status_enum import RechargeStatusEnum
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.payment_instructions import PaymentInstructions





T = TypeVar("T", bound="Recharge")



@_attrs_define
class Recharge:
    """ 
        Attributes:
            id (str):
            amount (str):
            currency (str):
            status (RechargeStatusEnum): * `pending` - pending
                * `completed` - completed
                * `expired` - expired
                * `failed` - failed
                * `cancelled` - cancelled
            payment_method (PaymentMethodEnum): * `pix` - pix
                * `boleto` - boleto
            created_at (datetime.datetime):
            paid_at (datetime.datetime | None):
            transaction_id (None | str):
            payment (PaymentInstructions | Unset):
     """

    id: str
    amount: str
    currency: str
    status: RechargeStatusEnum
    payment_method: PaymentMethodEnum
    created_at: datetime.datetime
    paid_at: datetime.datetime | None
    transaction_id: None | str
    payment: PaymentInstructions | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.payment_instructions import PaymentInstructions # noqa: PLC0415
        id = self.id

        amount = self.amount

        currency = self.currency

        status = self.status.value

        payment_method = self.payment_method.value

        created_at = self.created_at.isoformat()

        paid_at: None | str
        if isinstance(self.paid_at, datetime.datetime):
            paid_at = self.paid_at.isoformat()
        else:
            paid_at = self.paid_at

        transaction_id: None | str
        transaction_id = self.transaction_id

        payment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.payment, Unset):
            payment = self.payment.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "amount": amount,
            "currency": currency,
            "status": status,
            "payment_method": payment_method,
            "created_at": created_at,
            "paid_at": paid_at,
            "transaction_id": transaction_id,
        })
        if payment is not UNSET:
            field_dict["payment"] = payment

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.payment_instructions import PaymentInstructions # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        amount = d.pop("amount")

        currency = d.pop("currency")

        status = RechargeStatusEnum(d.pop("status"))




        payment_method = PaymentMethodEnum(d.pop("payment_method"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_paid_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                paid_at_type_0 = datetime.datetime.fromisoformat(data)



                return paid_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        paid_at = _parse_paid_at(d.pop("paid_at"))


        def _parse_transaction_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transaction_id = _parse_transaction_id(d.pop("transaction_id"))


        _payment = d.pop("payment", UNSET)
        payment: PaymentInstructions | Unset
        if isinstance(_payment,  Unset):
            payment = UNSET
        else:
            payment = PaymentInstructions.from_dict(_payment)




        recharge = cls(
            id=id,
            amount=amount,
            currency=currency,
            status=status,
            payment_method=payment_method,
            created_at=created_at,
            paid_at=paid_at,
            transaction_id=transaction_id,
            payment=payment,
        )


        recharge.additional_properties = d
        return recharge

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
