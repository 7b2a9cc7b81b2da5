from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.gender_enum import GenderEnum
from ..models.passenger_type_enum import PassengerTypeEnum
from typing import cast
import datetime






T = TypeVar("T", bound="BookingPassenger")



@_attrs_define
class BookingPassenger:
    """ 
        Attributes:
            id (str): pas_…
            type_ (PassengerTypeEnum): * `adult` - adult
                * `child` - child
                * `infant_without_seat` - infant_without_seat
            given_name (str):
            family_name (str):
            gender (GenderEnum): * `m` - m
                * `f` - f
            born_on (datetime.date):
            email (str):
            phone_number (str):
     """

    id: str
    type_: PassengerTypeEnum
    given_name: str
    family_name: str
    gender: GenderEnum
    born_on: datetime.date
    email: str
    phone_number: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        given_name = self.given_name

        family_name = self.family_name

        gender = self.gender.value

        born_on = self.born_on.isoformat()

        email = self.email

        phone_number = self.phone_number


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "given_name": given_name,
            "family_name": family_name,
            "gender": gender,
            "born_on": born_on,
            "email": email,
            "phone_number": phone_number,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = PassengerTypeEnum(d.pop("type"))




        given_name = d.pop("given_name")

        family_name = d.pop("family_name")

        gender = GenderEnum(d.pop("gender"))




        born_on = datetime.date.fromisoformat(d.pop("born_on"))




        email = d.pop("email")

        phone_number = d.pop("phone_number")

        booking_passenger = cls(
            id=id,
            type_=type_,
            given_name=given_name,
            family_name=family_name,
            gender=gender,
            born_on=born_on,
            email=email,
            phone_number=phone_number,
        )


        booking_passenger.additional_properties = d
        return booking_passenger

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
