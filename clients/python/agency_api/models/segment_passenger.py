from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.baggage import Baggage





T = TypeVar("T", bound="SegmentPassenger")



@_attrs_define
class SegmentPassenger:
    """ 
        Attributes:
            passenger_id (str):
            cabin_class (str):
            cabin_class_marketing_name (str):
            fare_basis_code (str):
            baggages (list[Baggage]):
     """

    passenger_id: str
    cabin_class: str
    cabin_class_marketing_name: str
    fare_basis_code: str
    baggages: list[Baggage]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.baggage import Baggage # noqa: PLC0415
        passenger_id = self.passenger_id

        cabin_class = self.cabin_class

        cabin_class_marketing_name = self.cabin_class_marketing_name

        fare_basis_code = self.fare_basis_code

        baggages = []
        for baggages_item_data in self.baggages:
            baggages_item = baggages_item_data.to_dict()
            baggages.append(baggages_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "passenger_id": passenger_id,
            "cabin_class": cabin_class,
            "cabin_class_marketing_name": cabin_class_marketing_name,
            "fare_basis_code": fare_basis_code,
            "baggages": baggages,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.baggage import Baggage # noqa: PLC0415
        d = dict(src_dict)
        passenger_id = d.pop("passenger_id")

        cabin_class = d.pop("cabin_class")

        cabin_class_marketing_name = d.pop("cabin_class_marketing_name")

        fare_basis_code = d.pop("fare_basis_code")

        baggages = []
        _baggages = d.pop("baggages")
        for baggages_item_data in (_baggages):
            baggages_item = Baggage.from_dict(baggages_item_data)



            baggages.append(baggages_item)


        segment_passenger = cls(
            passenger_id=passenger_id,
            cabin_class=cabin_class,
            cabin_class_marketing_name=cabin_class_marketing_name,
            fare_basis_code=fare_basis_code,
            baggages=baggages,
        )


        segment_passenger.additional_properties = d
        return segment_passenger

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
