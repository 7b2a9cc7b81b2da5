from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="PaymentStatus")



@_attrs_define
class PaymentStatus:
    """ 
        Attributes:
            awaiting_payment (bool): true while a hold is pending.
            payment_required_by (datetime.datetime | None):
            price_guarantee_expires_at (datetime.datetime | None):
     """

    awaiting_payment: bool
    payment_required_by: datetime.datetime | None
    price_guarantee_expires_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        awaiting_payment = self.awaiting_payment

        payment_required_by: None | str
        if isinstance(self.payment_required_by, datetime.datetime):
            payment_required_by = self.payment_required_by.isoformat()
        else:
            payment_required_by = self.payment_required_by

        price_guarantee_expires_at: None | str
        if isinstance(self.price_guarantee_expires_at, datetime.datetime):
            price_guarantee_expires_at = self.price_guarantee_expires_at.isoformat()
        else:
            price_guarantee_expires_at = self.price_guarantee_expires_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "awaiting_payment": awaiting_payment,
            "payment_required_by": payment_required_by,
            "price_guarantee_expires_at": price_guarantee_expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        awaiting_payment = d.pop("awaiting_payment")

        def _parse_payment_required_by(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                payment_required_by_type_0 = datetime.datetime.fromisoformat(data)



                return payment_required_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        payment_required_by = _parse_payment_required_by(d.pop("payment_required_by"))


        def _parse_price_guarantee_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                price_guarantee_expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return price_guarantee_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        price_guarantee_expires_at = _parse_price_guarantee_expires_at(d.pop("price_guarantee_expires_at"))


        payment_status = cls(
            awaiting_payment=awaiting_payment,
            payment_required_by=payment_required_by,
            price_guarantee_expires_at=price_guarantee_expires_at,
        )


        payment_status.additional_properties = d
        return payment_status

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
