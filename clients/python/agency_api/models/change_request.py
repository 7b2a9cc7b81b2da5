from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.change_offer import ChangeOffer
  from ..models.change_request_slices import ChangeRequestSlices





T = TypeVar("T", bound="ChangeRequest")



@_attrs_define
class ChangeRequest:
    """ 
        Attributes:
            id (str): ocr_…
            booking_id (str):
            slices (ChangeRequestSlices):
            change_offers (list[ChangeOffer]): The airline's offers, cheapest first; may be empty.
            created_at (datetime.datetime):
     """

    id: str
    booking_id: str
    slices: ChangeRequestSlices
    change_offers: list[ChangeOffer]
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.change_offer import ChangeOffer # noqa: PLC0415
        from ..models.change_request_slices import ChangeRequestSlices # noqa: PLC0415
        id = self.id

        booking_id = self.booking_id

        slices = self.slices.to_dict()

        change_offers = []
        for change_offers_item_data in self.change_offers:
            change_offers_item = change_offers_item_data.to_dict()
            change_offers.append(change_offers_item)



        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "booking_id": booking_id,
            "slices": slices,
            "change_offers": change_offers,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_offer import ChangeOffer # noqa: PLC0415
        from ..models.change_request_slices import ChangeRequestSlices # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        booking_id = d.pop("booking_id")

        slices = ChangeRequestSlices.from_dict(d.pop("slices"))




        change_offers = []
        _change_offers = d.pop("change_offers")
        for change_offers_item_data in (_change_offers):
            change_offers_item = ChangeOffer.from_dict(change_offers_item_data)



            change_offers.append(change_offers_item)


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        change_request = cls(
            id=id,
            booking_id=booking_id,
            slices=slices,
            change_offers=change_offers,
            created_at=created_at,
        )


        change_request.additional_properties = d
        return change_request

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
