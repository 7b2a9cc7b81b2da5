from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_status_enum import BookingStatusEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.booking_client import BookingClient
  from ..models.flight_summary import FlightSummary





T = TypeVar("T", bound="BookingListItem")



@_attrs_define
class BookingListItem:
    """ 
        Attributes:
            id (str):
            booking_reference (str):
            status (BookingStatusEnum): * `pending` - pending
                * `confirmed` - confirmed
                * `ticketed` - ticketed
                * `cancelled` - cancelled
                * `expired` - expired
                * `failed` - failed
            total_amount (str): Original total. Decimal string.
            total_currency (str): ISO 4217 code of total_amount (`currency` before 2026-11-28).
            created_at (datetime.datetime):
            client (BookingClient):
            flight_summary (FlightSummary):
     """

    id: str
    booking_reference: str
    status: BookingStatusEnum
    total_amount: str
    total_currency: str
    created_at: datetime.datetime
    client: BookingClient
    flight_summary: FlightSummary
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_client import BookingClient # noqa: PLC0415
        from ..models.flight_summary import FlightSummary # noqa: PLC0415
        id = self.id

        booking_reference = self.booking_reference

        status = self.status.value

        total_amount = self.total_amount

        total_currency = self.total_currency

        created_at = self.created_at.isoformat()

        client = self.client.to_dict()

        flight_summary = self.flight_summary.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "booking_reference": booking_reference,
            "status": status,
            "total_amount": total_amount,
            "total_currency": total_currency,
            "created_at": created_at,
            "client": client,
            "flight_summary": flight_summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.booking_client import BookingClient # noqa: PLC0415
        from ..models.flight_summary import FlightSummary # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        booking_reference = d.pop("booking_reference")

        status = BookingStatusEnum(d.pop("status"))




        total_amount = d.pop("total_amount")

        total_currency = d.pop("total_currency")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        client = BookingClient.from_dict(d.pop("client"))




        flight_summary = FlightSummary.from_dict(d.pop("flight_summary"))




        booking_list_item = cls(
            id=id,
            booking_reference=booking_reference,
            status=status,
            total_amount=total_amount,
            total_currency=total_currency,
            created_at=created_at,
            client=client,
            flight_summary=flight_summary,
        )


        booking_list_item.additional_properties = d
        return booking_list_item

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
