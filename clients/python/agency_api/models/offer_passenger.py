from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.passenger_type_enum import PassengerTypeEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.offer_passenger_loyalty_programme_accounts_item import OfferPassengerLoyaltyProgrammeAccountsItem





T = TypeVar("T", bound="OfferPassenger")



@_attrs_define
class OfferPassenger:
    """ 
        Attributes:
            id (str):
            type_ (PassengerTypeEnum): * `adult` - adult
                * `child` - child
                * `infant_without_seat` - infant_without_seat
            fare_brand_name (None | str):
            loyalty_programme_accounts (list[OfferPassengerLoyaltyProgrammeAccountsItem]):
     """

    id: str
    type_: PassengerTypeEnum
    fare_brand_name: None | str
    loyalty_programme_accounts: list[OfferPassengerLoyaltyProgrammeAccountsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.offer_passenger_loyalty_programme_accounts_item import OfferPassengerLoyaltyProgrammeAccountsItem # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        fare_brand_name: None | str
        fare_brand_name = self.fare_brand_name

        loyalty_programme_accounts = []
        for loyalty_programme_accounts_item_data in self.loyalty_programme_accounts:
            loyalty_programme_accounts_item = loyalty_programme_accounts_item_data.to_dict()
            loyalty_programme_accounts.append(loyalty_programme_accounts_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "fare_brand_name": fare_brand_name,
            "loyalty_programme_accounts": loyalty_programme_accounts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.offer_passenger_loyalty_programme_accounts_item import OfferPassengerLoyaltyProgrammeAccountsItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = PassengerTypeEnum(d.pop("type"))




        def _parse_fare_brand_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        fare_brand_name = _parse_fare_brand_name(d.pop("fare_brand_name"))


        loyalty_programme_accounts = []
        _loyalty_programme_accounts = d.pop("loyalty_programme_accounts")
        for loyalty_programme_accounts_item_data in (_loyalty_programme_accounts):
            loyalty_programme_accounts_item = OfferPassengerLoyaltyProgrammeAccountsItem.from_dict(loyalty_programme_accounts_item_data)



            loyalty_programme_accounts.append(loyalty_programme_accounts_item)


        offer_passenger = cls(
            id=id,
            type_=type_,
            fare_brand_name=fare_brand_name,
            loyalty_programme_accounts=loyalty_programme_accounts,
        )


        offer_passenger.additional_properties = d
        return offer_passenger

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
