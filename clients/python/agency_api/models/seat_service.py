from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SeatService")



@_attrs_define
class SeatService:
    """ 
        Attributes:
            id (str):
            passenger_id (str):
            total_amount (str):
            total_currency (str):
            base_cost_brl (str):
            client_amount (str):
            client_currency (str | Unset):  Default: 'BRL'.
     """

    id: str
    passenger_id: str
    total_amount: str
    total_currency: str
    base_cost_brl: str
    client_amount: str
    client_currency: str | Unset = 'BRL'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        passenger_id = self.passenger_id

        total_amount = self.total_amount

        total_currency = self.total_currency

        base_cost_brl = self.base_cost_brl

        client_amount = self.client_amount

        client_currency = self.client_currency


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "passenger_id": passenger_id,
            "total_amount": total_amount,
            "total_currency": total_currency,
            "base_cost_brl": base_cost_brl,
            "client_amount": client_amount,
        })
        if client_currency is not UNSET:
            field_dict["client_currency"] = client_currency

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        passenger_id = d.pop("passenger_id")

        total_amount = d.pop("total_amount")

        total_currency = d.pop("total_currency")

        base_cost_brl = d.pop("base_cost_brl")

        client_amount = d.pop("client_amount")

        client_currency = d.pop("client_currency", UNSET)

        seat_service = cls(
            id=id,
            passenger_id=passenger_id,
            total_amount=total_amount,
            total_currency=total_currency,
            base_cost_brl=base_cost_brl,
            client_amount=client_amount,
            client_currency=client_currency,
        )


        seat_service.additional_properties = d
        return seat_service

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
