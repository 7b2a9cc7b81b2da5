from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cabin_class_enum import CabinClassEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.baggage import Baggage
  from ..models.seat import Seat





T = TypeVar("T", bound="BookingSegmentPassenger")



@_attrs_define
class BookingSegmentPassenger:
    """ 
        Attributes:
            passenger_id (str):
            cabin_class (CabinClassEnum): * `economy` - economy
                * `premium_economy` - premium_economy
                * `business` - business
                * `first` - first
            seat (None | Seat): The seat bought for this segment, or null.
            baggages (list[Baggage]): Included bags plus the bags bought.
     """

    passenger_id: str
    cabin_class: CabinClassEnum
    seat: None | Seat
    baggages: list[Baggage]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.baggage import Baggage # noqa: PLC0415
        from ..models.seat import Seat # noqa: PLC0415
        passenger_id = self.passenger_id

        cabin_class = self.cabin_class.value

        seat: dict[str, Any] | None
        if isinstance(self.seat, Seat):
            seat = self.seat.to_dict()
        else:
            seat = self.seat

        baggages = []
        for baggages_item_data in self.baggages:
            baggages_item = baggages_item_data.to_dict()
            baggages.append(baggages_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "passenger_id": passenger_id,
            "cabin_class": cabin_class,
            "seat": seat,
            "baggages": baggages,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.baggage import Baggage # noqa: PLC0415
        from ..models.seat import Seat # noqa: PLC0415
        d = dict(src_dict)
        passenger_id = d.pop("passenger_id")

        cabin_class = CabinClassEnum(d.pop("cabin_class"))




        def _parse_seat(data: object) -> None | Seat:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                seat_type_1 = Seat.from_dict(data)



                return seat_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Seat, data)

        seat = _parse_seat(d.pop("seat"))


        baggages = []
        _baggages = d.pop("baggages")
        for baggages_item_data in (_baggages):
            baggages_item = Baggage.from_dict(baggages_item_data)



            baggages.append(baggages_item)


        booking_segment_passenger = cls(
            passenger_id=passenger_id,
            cabin_class=cabin_class,
            seat=seat,
            baggages=baggages,
        )


        booking_segment_passenger.additional_properties = d
        return booking_segment_passenger

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
