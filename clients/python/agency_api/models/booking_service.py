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
  from ..models.booking_service_metadata import BookingServiceMetadata





T = TypeVar("T", bound="BookingService")



@_attrs_define
class BookingService:
    """ An extra bought (Duffel's order `services`), with its BRL cost and price.

        Attributes:
            id (str): The supplier's service id it was bought by.
            type_ (ServiceTypeEnum): * `baggage` - baggage
                * `seat` - seat
            passenger_ids (list[str]):
            segment_ids (list[str]):
            quantity (int):
            total_amount (str): Price of them all, in total_currency. Decimal string.
            total_currency (str): ISO 4217 currency code.
            base_cost_brl (str): What the wallet was debited for them. Decimal string.
            client_amount (str): The customer's price: base_cost_brl + the team's markup. Decimal string.
            metadata (BookingServiceMetadata): A bag's weight and size; a seat's designator.
            client_currency (str | Unset):  Default: 'BRL'.
     """

    id: str
    type_: ServiceTypeEnum
    passenger_ids: list[str]
    segment_ids: list[str]
    quantity: int
    total_amount: str
    total_currency: str
    base_cost_brl: str
    client_amount: str
    metadata: BookingServiceMetadata
    client_currency: str | Unset = 'BRL'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_service_metadata import BookingServiceMetadata # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        passenger_ids = self.passenger_ids



        segment_ids = self.segment_ids



        quantity = self.quantity

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
            "quantity": quantity,
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
        from ..models.booking_service_metadata import BookingServiceMetadata # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = ServiceTypeEnum(d.pop("type"))




        passenger_ids = cast(list[str], d.pop("passenger_ids"))


        segment_ids = cast(list[str], d.pop("segment_ids"))


        quantity = d.pop("quantity")

        total_amount = d.pop("total_amount")

        total_currency = d.pop("total_currency")

        base_cost_brl = d.pop("base_cost_brl")

        client_amount = d.pop("client_amount")

        metadata = BookingServiceMetadata.from_dict(d.pop("metadata"))




        client_currency = d.pop("client_currency", UNSET)

        booking_service = cls(
            id=id,
            type_=type_,
            passenger_ids=passenger_ids,
            segment_ids=segment_ids,
            quantity=quantity,
            total_amount=total_amount,
            total_currency=total_currency,
            base_cost_brl=base_cost_brl,
            client_amount=client_amount,
            metadata=metadata,
            client_currency=client_currency,
        )


        booking_service.additional_properties = d
        return booking_service

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
