from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.booking_airline_change_detected_event_data_previous_attributes import BookingAirlineChangeDetectedEventDataPreviousAttributes
  from ..models.booking_airline_change_event_object import BookingAirlineChangeEventObject





T = TypeVar("T", bound="BookingAirlineChangeDetectedEventData")



@_attrs_define
class BookingAirlineChangeDetectedEventData:
    """ 
        Attributes:
            object_ (BookingAirlineChangeEventObject): The booking (as in every booking event) and the change the airline
                made.
            previous_attributes (BookingAirlineChangeDetectedEventDataPreviousAttributes): What changed (update-type
                events), e.g. status.
     """

    object_: BookingAirlineChangeEventObject
    previous_attributes: BookingAirlineChangeDetectedEventDataPreviousAttributes
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_airline_change_detected_event_data_previous_attributes import BookingAirlineChangeDetectedEventDataPreviousAttributes # noqa: PLC0415
        from ..models.booking_airline_change_event_object import BookingAirlineChangeEventObject # noqa: PLC0415
        object_ = self.object_.to_dict()

        previous_attributes = self.previous_attributes.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "previous_attributes": previous_attributes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.booking_airline_change_detected_event_data_previous_attributes import BookingAirlineChangeDetectedEventDataPreviousAttributes # noqa: PLC0415
        from ..models.booking_airline_change_event_object import BookingAirlineChangeEventObject # noqa: PLC0415
        d = dict(src_dict)
        object_ = BookingAirlineChangeEventObject.from_dict(d.pop("object"))




        previous_attributes = BookingAirlineChangeDetectedEventDataPreviousAttributes.from_dict(d.pop("previous_attributes"))




        booking_airline_change_detected_event_data = cls(
            object_=object_,
            previous_attributes=previous_attributes,
        )


        booking_airline_change_detected_event_data.additional_properties = d
        return booking_airline_change_detected_event_data

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
