from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.aircraft import Aircraft
  from ..models.carrier import Carrier
  from ..models.operating_carrier import OperatingCarrier
  from ..models.segment_end import SegmentEnd
  from ..models.segment_passenger import SegmentPassenger





T = TypeVar("T", bound="Segment")



@_attrs_define
class Segment:
    """ 
        Attributes:
            id (str):
            origin (SegmentEnd):
            destination (SegmentEnd):
            departing_at (str): Local time at the origin, no offset.
            arriving_at (str): Local time at the destination, no offset.
            operating_carrier (OperatingCarrier):
            marketing_carrier (Carrier):
            operating_carrier_flight_number (str):
            marketing_carrier_flight_number (str):
            aircraft (Aircraft):
            duration (str): ISO 8601 duration, e.g. PT2H35M.
            distance (str): Kilometres, decimal string.
            passengers (list[SegmentPassenger]):
     """

    id: str
    origin: SegmentEnd
    destination: SegmentEnd
    departing_at: str
    arriving_at: str
    operating_carrier: OperatingCarrier
    marketing_carrier: Carrier
    operating_carrier_flight_number: str
    marketing_carrier_flight_number: str
    aircraft: Aircraft
    duration: str
    distance: str
    passengers: list[SegmentPassenger]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.aircraft import Aircraft # noqa: PLC0415
        from ..models.carrier import Carrier # noqa: PLC0415
        from ..models.operating_carrier import OperatingCarrier # noqa: PLC0415
        from ..models.segment_end import SegmentEnd # noqa: PLC0415
        from ..models.segment_passenger import SegmentPassenger # noqa: PLC0415
        id = self.id

        origin = self.origin.to_dict()

        destination = self.destination.to_dict()

        departing_at = self.departing_at

        arriving_at = self.arriving_at

        operating_carrier = self.operating_carrier.to_dict()

        marketing_carrier = self.marketing_carrier.to_dict()

        operating_carrier_flight_number = self.operating_carrier_flight_number

        marketing_carrier_flight_number = self.marketing_carrier_flight_number

        aircraft = self.aircraft.to_dict()

        duration = self.duration

        distance = self.distance

        passengers = []
        for passengers_item_data in self.passengers:
            passengers_item = passengers_item_data.to_dict()
            passengers.append(passengers_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "origin": origin,
            "destination": destination,
            "departing_at": departing_at,
            "arriving_at": arriving_at,
            "operating_carrier": operating_carrier,
            "marketing_carrier": marketing_carrier,
            "operating_carrier_flight_number": operating_carrier_flight_number,
            "marketing_carrier_flight_number": marketing_carrier_flight_number,
            "aircraft": aircraft,
            "duration": duration,
            "distance": distance,
            "passengers": passengers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.aircraft import Aircraft # noqa: PLC0415
        from ..models.carrier import Carrier # noqa: PLC0415
        from ..models.operating_carrier import OperatingCarrier # noqa: PLC0415
        from ..models.segment_end import SegmentEnd # noqa: PLC0415
        from ..models.segment_passenger import SegmentPassenger # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        origin = SegmentEnd.from_dict(d.pop("origin"))




        destination = SegmentEnd.from_dict(d.pop("destination"))




        departing_at = d.pop("departing_at")

        arriving_at = d.pop("arriving_at")

        operating_carrier = OperatingCarrier.from_dict(d.pop("operating_carrier"))




        marketing_carrier = Carrier.from_dict(d.pop("marketing_carrier"))




        operating_carrier_flight_number = d.pop("operating_carrier_flight_number")

        marketing_carrier_flight_number = d.pop("marketing_carrier_flight_number")

        aircraft = Aircraft.from_dict(d.pop("aircraft"))




        duration = d.pop("duration")

        distance = d.pop("distance")

        passengers = []
        _passengers = d.pop("passengers")
        for passengers_item_data in (_passengers):
            passengers_item = SegmentPassenger.from_dict(passengers_item_data)



            passengers.append(passengers_item)


        segment = cls(
            id=id,
            origin=origin,
            destination=destination,
            departing_at=departing_at,
            arriving_at=arriving_at,
            operating_carrier=operating_carrier,
            marketing_carrier=marketing_carrier,
            operating_carrier_flight_number=operating_carrier_flight_number,
            marketing_carrier_flight_number=marketing_carrier_flight_number,
            aircraft=aircraft,
            duration=duration,
            distance=distance,
            passengers=passengers,
        )


        segment.additional_properties = d
        return segment

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
