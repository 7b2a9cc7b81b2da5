from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.balance_payment_input_request import BalancePaymentInputRequest
  from ..models.service_input_request import ServiceInputRequest





T = TypeVar("T", bound="BookingServicesInputRequest")



@_attrs_define
class BookingServicesInputRequest:
    """ Unknown keys are ignored.

        Attributes:
            add_services (list[ServiceInputRequest]): Bags from the booking's available_services: [{id, quantity}].
            payment (BalancePaymentInputRequest):
     """

    add_services: list[ServiceInputRequest]
    payment: BalancePaymentInputRequest
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.balance_payment_input_request import BalancePaymentInputRequest # noqa: PLC0415
        from ..models.service_input_request import ServiceInputRequest # noqa: PLC0415
        add_services = []
        for add_services_item_data in self.add_services:
            add_services_item = add_services_item_data.to_dict()
            add_services.append(add_services_item)



        payment = self.payment.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "add_services": add_services,
            "payment": payment,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balance_payment_input_request import BalancePaymentInputRequest # noqa: PLC0415
        from ..models.service_input_request import ServiceInputRequest # noqa: PLC0415
        d = dict(src_dict)
        add_services = []
        _add_services = d.pop("add_services")
        for add_services_item_data in (_add_services):
            add_services_item = ServiceInputRequest.from_dict(add_services_item_data)



            add_services.append(add_services_item)


        payment = BalancePaymentInputRequest.from_dict(d.pop("payment"))




        booking_services_input_request = cls(
            add_services=add_services,
            payment=payment,
        )


        booking_services_input_request.additional_properties = d
        return booking_services_input_request

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
