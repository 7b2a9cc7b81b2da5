from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.balance_payment_input_request import BalancePaymentInputRequest





T = TypeVar("T", bound="BookingConfirmInputRequest")



@_attrs_define
class BookingConfirmInputRequest:
    """ Unknown keys are ignored.

        Attributes:
            payment (BalancePaymentInputRequest):
     """

    payment: BalancePaymentInputRequest
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.balance_payment_input_request import BalancePaymentInputRequest # noqa: PLC0415
        payment = self.payment.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "payment": payment,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balance_payment_input_request import BalancePaymentInputRequest # noqa: PLC0415
        d = dict(src_dict)
        payment = BalancePaymentInputRequest.from_dict(d.pop("payment"))




        booking_confirm_input_request = cls(
            payment=payment,
        )


        booking_confirm_input_request.additional_properties = d
        return booking_confirm_input_request

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
