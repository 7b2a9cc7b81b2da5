from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cabin_class_enum import CabinClassEnum
from ..models.trip_type_enum import TripTypeEnum
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.search_passenger_input_request import SearchPassengerInputRequest
  from ..models.search_slice_input_request import SearchSliceInputRequest





T = TypeVar("T", bound="SearchInputRequest")



@_attrs_define
class SearchInputRequest:
    """ Unknown keys are ignored.

        Attributes:
            type_ (TripTypeEnum): * `one_way` - one_way
                * `round_trip` - round_trip
                * `multi_city` - multi_city
            slices (list[SearchSliceInputRequest]):
            passengers (list[SearchPassengerInputRequest]): At least one adult; adults + children at most 9; at most one
                infant per adult.
            cabin_class (CabinClassEnum | Unset): * `economy` - economy
                * `premium_economy` - premium_economy
                * `business` - business
                * `first` - first Default: CabinClassEnum.ECONOMY.
     """

    type_: TripTypeEnum
    slices: list[SearchSliceInputRequest]
    passengers: list[SearchPassengerInputRequest]
    cabin_class: CabinClassEnum | Unset = CabinClassEnum.ECONOMY
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.search_passenger_input_request import SearchPassengerInputRequest # noqa: PLC0415
        from ..models.search_slice_input_request import SearchSliceInputRequest # noqa: PLC0415
        type_ = self.type_.value

        slices = []
        for slices_item_data in self.slices:
            slices_item = slices_item_data.to_dict()
            slices.append(slices_item)



        passengers = []
        for passengers_item_data in self.passengers:
            passengers_item = passengers_item_data.to_dict()
            passengers.append(passengers_item)



        cabin_class: str | Unset = UNSET
        if not isinstance(self.cabin_class, Unset):
            cabin_class = self.cabin_class.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "slices": slices,
            "passengers": passengers,
        })
        if cabin_class is not UNSET:
            field_dict["cabinClass"] = cabin_class

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_passenger_input_request import SearchPassengerInputRequest # noqa: PLC0415
        from ..models.search_slice_input_request import SearchSliceInputRequest # noqa: PLC0415
        d = dict(src_dict)
        type_ = TripTypeEnum(d.pop("type"))




        slices = []
        _slices = d.pop("slices")
        for slices_item_data in (_slices):
            slices_item = SearchSliceInputRequest.from_dict(slices_item_data)



            slices.append(slices_item)


        passengers = []
        _passengers = d.pop("passengers")
        for passengers_item_data in (_passengers):
            passengers_item = SearchPassengerInputRequest.from_dict(passengers_item_data)



            passengers.append(passengers_item)


        _cabin_class = d.pop("cabinClass", UNSET)
        cabin_class: CabinClassEnum | Unset
        if isinstance(_cabin_class,  Unset):
            cabin_class = UNSET
        else:
            cabin_class = CabinClassEnum(_cabin_class)




        search_input_request = cls(
            type_=type_,
            slices=slices,
            passengers=passengers,
            cabin_class=cabin_class,
        )


        search_input_request.additional_properties = d
        return search_input_request

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
