from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.service_type_enum import ServiceTypeEnum
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.available_service_metadata import AvailableServiceMetadata





T = TypeVar("T", bound="AvailableService")



@_attrs_define
class AvailableService:
    """ 
        Attributes:
            id (str): The supplier's service id (ase_…): buy it by this id.
            type_ (ServiceTypeEnum): * `baggage` - baggage
                * `seat` - seat
            passenger_ids (list[str]): pas_… ids.
            segment_ids (list[str]): seg_… ids.
            maximum_quantity (int):
            total_amount (str): Price of one, in total_currency.
            total_currency (str):
            base_cost_brl (str): What one costs the wallet: total_amount × the offer's locked exchange rate.
            client_amount (str): The customer's price of one: base_cost_brl + the team's markup (no fee).
            metadata (AvailableServiceMetadata): As the supplier gives it: a bag's type, maximum_weight_kg and dimensions.
            client_currency (str | Unset):  Default: 'BRL'.
     """

    id: str
    type_: ServiceTypeEnum
    passenger_ids: list[str]
    segment_ids: list[str]
    maximum_quantity: int
    total_amount: str
    total_currency: str
    base_cost_brl: str
    client_amount: str
    metadata: AvailableServiceMetadata
    client_currency: str | Unset = 'BRL'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.available_service_metadata import AvailableServiceMetadata # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        passenger_ids = self.passenger_ids



        segment_ids = self.segment_ids



        maximum_quantity = self.maximum_quantity

        total_amount = self.total_amount

        total_currency = self.total_currency

        base_cost_brl = self.base_cost_brl

        client_amount = self.client_amount

        metadata = self.metadata.to_dict()

        client_currency = self.client_currency


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "passenger_ids": passenger_ids,
            "segment_ids": segment_ids,
            "maximum_quantity": maximum_quantity,
            "total_amount": total_amount,
            "total_currency": total_currency,
            "base_cost_brl": base_cost_brl,
            "client_amount": client_amount,
            "metadata": metadata,
        })
        if client_currency is not UNSET:
            field_dict["client_currency"] = client_currency

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.available_service_metadata import AvailableServiceMetadata # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = ServiceTypeEnum(d.pop("type"))




        passenger_ids = cast(list[str], d.pop("passenger_ids"))


        segment_ids = cast(list[str], d.pop("segment_ids"))


        maximum_quantity = d.pop("maximum_quantity")

        total_amount = d.pop("total_amount")

        total_currency = d.pop("total_currency")

        base_cost_brl = d.pop("base_cost_brl")

        client_amount = d.pop("client_amount")

        metadata = AvailableServiceMetadata.from_dict(d.pop("metadata"))




        client_currency = d.pop("client_currency", UNSET)

        available_service = cls(
            id=id,
            type_=type_,
            passenger_ids=passenger_ids,
            segment_ids=segment_ids,
            maximum_quantity=maximum_quantity,
            total_amount=total_amount,
            total_currency=total_currency,
            base_cost_brl=base_cost_brl,
            client_amount=client_amount,
            metadata=metadata,
            client_currency=client_currency,
        )


        available_service.additional_properties = d
        return available_service

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
