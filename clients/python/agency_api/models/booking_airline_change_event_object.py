from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_status_enum import BookingStatusEnum
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.airline_change import AirlineChange
  from ..models.booking_passenger import BookingPassenger
  from ..models.booking_slice import BookingSlice
  from ..models.document import Document
  from ..models.refund import Refund





T = TypeVar("T", bound="BookingAirlineChangeEventObject")



@_attrs_define
class BookingAirlineChangeEventObject:
    """ The booking (as in every booking event) and the change the airline made.

        Attributes:
            id (str):
            booking_reference (str):
            status (BookingStatusEnum): * `pending` - pending
                * `confirmed` - confirmed
                * `ticketed` - ticketed
                * `cancelled` - cancelled
                * `expired` - expired
                * `failed` - failed
            total_amount (str):
            total_currency (str):
            documents (list[Document]):
            passengers (list[BookingPassenger]):
            slices (list[BookingSlice]):
            created_at (datetime.datetime):
            airline_change (AirlineChange):
            refund (Refund | Unset):
     """

    id: str
    booking_reference: str
    status: BookingStatusEnum
    total_amount: str
    total_currency: str
    documents: list[Document]
    passengers: list[BookingPassenger]
    slices: list[BookingSlice]
    created_at: datetime.datetime
    airline_change: AirlineChange
    refund: Refund | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.airline_change import AirlineChange # noqa: PLC0415
        from ..models.booking_passenger import BookingPassenger # noqa: PLC0415
        from ..models.booking_slice import BookingSlice # noqa: PLC0415
        from ..models.document import Document # noqa: PLC0415
        from ..models.refund import Refund # noqa: PLC0415
        id = self.id

        booking_reference = self.booking_reference

        status = self.status.value

        total_amount = self.total_amount

        total_currency = self.total_currency

        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)



        passengers = []
        for passengers_item_data in self.passengers:
            passengers_item = passengers_item_data.to_dict()
            passengers.append(passengers_item)



        slices = []
        for slices_item_data in self.slices:
            slices_item = slices_item_data.to_dict()
            slices.append(slices_item)



        created_at = self.created_at.isoformat()

        airline_change = self.airline_change.to_dict()

        refund: dict[str, Any] | Unset = UNSET
        if not isinstance(self.refund, Unset):
            refund = self.refund.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "booking_reference": booking_reference,
            "status": status,
            "total_amount": total_amount,
            "total_currency": total_currency,
            "documents": documents,
            "passengers": passengers,
            "slices": slices,
            "created_at": created_at,
            "airline_change": airline_change,
        })
        if refund is not UNSET:
            field_dict["refund"] = refund

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.airline_change import AirlineChange # noqa: PLC0415
        from ..models.booking_passenger import BookingPassenger # noqa: PLC0415
        from ..models.booking_slice import BookingSlice # noqa: PLC0415
        from ..models.document import Document # noqa: PLC0415
        from ..models.refund import Refund # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        booking_reference = d.pop("booking_reference")

        status = BookingStatusEnum(d.pop("status"))




        total_amount = d.pop("total_amount")

        total_currency = d.pop("total_currency")

        documents = []
        _documents = d.pop("documents")
        for documents_item_data in (_documents):
            documents_item = Document.from_dict(documents_item_data)



            documents.append(documents_item)


        passengers = []
        _passengers = d.pop("passengers")
        for passengers_item_data in (_passengers):
            passengers_item = BookingPassenger.from_dict(passengers_item_data)



            passengers.append(passengers_item)


        slices = []
        _slices = d.pop("slices")
        for slices_item_data in (_slices):
            slices_item = BookingSlice.from_dict(slices_item_data)



            slices.append(slices_item)


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        airline_change = AirlineChange.from_dict(d.pop("airline_change"))




        _refund = d.pop("refund", UNSET)
        refund: Refund | Unset
        if isinstance(_refund,  Unset):
            refund = UNSET
        else:
            refund = Refund.from_dict(_refund)




        booking_airline_change_event_object = cls(
            id=id,
            booking_reference=booking_reference,
            status=status,
            total_amount=total_amount,
            total_currency=total_currency,
            documents=documents,
            passengers=passengers,
            slices=slices,
            created_at=created_at,
            airline_change=airline_change,
            refund=refund,
        )


        booking_airline_change_event_object.additional_properties = d
        return booking_airline_change_event_object

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
