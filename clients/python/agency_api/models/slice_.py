from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.place import Place
  from ..models.segment import Segment





T = TypeVar("T", bound="Slice")



@_attrs_define
class Slice:
    """ 
        Attributes:
            id (str):
            origin (Place):
            destination (Place):
            duration (str):
            fare_brand_name (str):
            segments (list[Segment]):
     """

    id: str
    origin: Place
    destination: Place
    duration: str
    fare_brand_name: str
    segments: list[Segment]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.place import Place # noqa: PLC0415
        from ..models.segment import Segment # noqa: PLC0415
        id = self.id

        origin = self.origin.to_dict()

        destination = self.destination.to_dict()

        duration = self.duration

        fare_brand_name = self.fare_brand_name

        segments = []
        for segments_item_data in self.segments:
            segments_item = segments_item_data.to_dict()
            segments.append(segments_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "origin": origin,
            "destination": destination,
            "duration": duration,
            "fare_brand_name": fare_brand_name,
            "segments": segments,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.place import Place # noqa: PLC0415
        from ..models.segment import Segment # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        origin = Place.from_dict(d.pop("origin"))




        destination = Place.from_dict(d.pop("destination"))




        duration = d.pop("duration")

        fare_brand_name = d.pop("fare_brand_name")

        segments = []
        _segments = d.pop("segments")
        for segments_item_data in (_segments):
            segments_item = Segment.from_dict(segments_item_data)



            segments.append(segments_item)


        slice_ = cls(
            id=id,
            origin=origin,
            destination=destination,
            duration=duration,
            fare_brand_name=fare_brand_name,
            segments=segments,
        )


        slice_.additional_properties = d
        return slice_

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
