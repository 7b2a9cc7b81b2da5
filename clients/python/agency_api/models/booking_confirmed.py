from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_status_enum import BookingStatusEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.confirmed_document import ConfirmedDocument





T = TypeVar("T", bound="BookingConfirmed")



@_attrs_define
class BookingConfirmed:
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
            documents (list[ConfirmedDocument]):
     """

    id: str
    booking_reference: str
    status: BookingStatusEnum
    documents: list[ConfirmedDocument]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.confirmed_document import ConfirmedDocument # noqa: PLC0415
        id = self.id

        booking_reference = self.booking_reference

        status = self.status.value

        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "booking_reference": booking_reference,
            "status": status,
            "documents": documents,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.confirmed_document import ConfirmedDocument # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        booking_reference = d.pop("booking_reference")

        status = BookingStatusEnum(d.pop("status"))




        documents = []
        _documents = d.pop("documents")
        for documents_item_data in (_documents):
            documents_item = ConfirmedDocument.from_dict(documents_item_data)



            documents.append(documents_item)


        booking_confirmed = cls(
            id=id,
            booking_reference=booking_reference,
            status=status,
            documents=documents,
        )


        booking_confirmed.additional_properties = d
        return booking_confirmed

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
