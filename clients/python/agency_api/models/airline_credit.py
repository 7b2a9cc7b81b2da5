from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="AirlineCredit")



@_attrs_define
class AirlineCredit:
    """ 
        Attributes:
            id (str): The supplier's id of the credit (Duffel's acd_…).
            credit_amount (str): The credit's value. Decimal string.
            credit_currency (str): ISO 4217 currency code.
            credit_code (None | str): What the airline redeems the credit with.
            credit_name (str): e.g. Future Flight Credit.
            type_ (str): eticket or mco.
            passenger_id (None | str): The supplier's passenger the credit is for, if one.
            issued_on (datetime.date | None):
            expires_at (datetime.datetime | None):
     """

    id: str
    credit_amount: str
    credit_currency: str
    credit_code: None | str
    credit_name: str
    type_: str
    passenger_id: None | str
    issued_on: datetime.date | None
    expires_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        credit_amount = self.credit_amount

        credit_currency = self.credit_currency

        credit_code: None | str
        credit_code = self.credit_code

        credit_name = self.credit_name

        type_ = self.type_

        passenger_id: None | str
        passenger_id = self.passenger_id

        issued_on: None | str
        if isinstance(self.issued_on, datetime.date):
            issued_on = self.issued_on.isoformat()
        else:
            issued_on = self.issued_on

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "credit_amount": credit_amount,
            "credit_currency": credit_currency,
            "credit_code": credit_code,
            "credit_name": credit_name,
            "type": type_,
            "passenger_id": passenger_id,
            "issued_on": issued_on,
            "expires_at": expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        credit_amount = d.pop("credit_amount")

        credit_currency = d.pop("credit_currency")

        def _parse_credit_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        credit_code = _parse_credit_code(d.pop("credit_code"))


        credit_name = d.pop("credit_name")

        type_ = d.pop("type")

        def _parse_passenger_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        passenger_id = _parse_passenger_id(d.pop("passenger_id"))


        def _parse_issued_on(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                issued_on_type_0 = datetime.date.fromisoformat(data)



                return issued_on_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        issued_on = _parse_issued_on(d.pop("issued_on"))


        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))


        airline_credit = cls(
            id=id,
            credit_amount=credit_amount,
            credit_currency=credit_currency,
            credit_code=credit_code,
            credit_name=credit_name,
            type_=type_,
            passenger_id=passenger_id,
            issued_on=issued_on,
            expires_at=expires_at,
        )


        airline_credit.additional_properties = d
        return airline_credit

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
