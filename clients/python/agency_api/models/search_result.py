from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.meta import Meta
  from ..models.offer import Offer
  from ..models.offer_passenger import OfferPassenger
  from ..models.requested_slice import RequestedSlice





T = TypeVar("T", bound="SearchResult")



@_attrs_define
class SearchResult:
    """ 
        Attributes:
            id (str):
            offers (list[Offer]):
            slices (list[RequestedSlice]):
            passengers (list[OfferPassenger]):
            field_meta (Meta | Unset): Present on every answer to a test key (`sk_test_…`), errors included.
     """

    id: str
    offers: list[Offer]
    slices: list[RequestedSlice]
    passengers: list[OfferPassenger]
    field_meta: Meta | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.offer import Offer # noqa: PLC0415
        from ..models.offer_passenger import OfferPassenger # noqa: PLC0415
        from ..models.requested_slice import RequestedSlice # noqa: PLC0415
        id = self.id

        offers = []
        for offers_item_data in self.offers:
            offers_item = offers_item_data.to_dict()
            offers.append(offers_item)



        slices = []
        for slices_item_data in self.slices:
            slices_item = slices_item_data.to_dict()
            slices.append(slices_item)



        passengers = []
        for passengers_item_data in self.passengers:
            passengers_item = passengers_item_data.to_dict()
            passengers.append(passengers_item)



        field_meta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_meta, Unset):
            field_meta = self.field_meta.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "offers": offers,
            "slices": slices,
            "passengers": passengers,
        })
        if field_meta is not UNSET:
            field_dict["_meta"] = field_meta

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.offer import Offer # noqa: PLC0415
        from ..models.offer_passenger import OfferPassenger # noqa: PLC0415
        from ..models.requested_slice import RequestedSlice # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        offers = []
        _offers = d.pop("offers")
        for offers_item_data in (_offers):
            offers_item = Offer.from_dict(offers_item_data)



            offers.append(offers_item)


        slices = []
        _slices = d.pop("slices")
        for slices_item_data in (_slices):
            slices_item = RequestedSlice.from_dict(slices_item_data)



            slices.append(slices_item)


        passengers = []
        _passengers = d.pop("passengers")
        for passengers_item_data in (_passengers):
            passengers_item = OfferPassenger.from_dict(passengers_item_data)



            passengers.append(passengers_item)


        _field_meta = d.pop("_meta", UNSET)
        field_meta: Meta | Unset
        if isinstance(_field_meta,  Unset):
            field_meta = UNSET
        else:
            field_meta = Meta.from_dict(_field_meta)




        search_result = cls(
            id=id,
            offers=offers,
            slices=slices,
            passengers=passengers,
            field_meta=field_meta,
        )


        search_result.additional_properties = d
        return search_result

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
