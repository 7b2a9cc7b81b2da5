from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.tax_id_type_enum import TaxIdTypeEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.client_metadata import ClientMetadata





T = TypeVar("T", bound="Client")



@_attrs_define
class Client:
    """ 
        Attributes:
            id (str): cli_…
            live_mode (bool):
            full_name (str):
            email (str):
            phone_number (None | str):
            tax_id (None | str): Formatted: 390.533.447-05 (CPF) or 11.222.333/0001-81 (CNPJ).
            tax_id_type (None | TaxIdTypeEnum):
            postal_code (None | str): A CEP as 01310-100.
            street (None | str):
            street_number (None | str):
            complement (None | str):
            district (None | str):
            city (None | str):
            state (None | str):
            country (str): ISO 3166-1 alpha-2.
            metadata (ClientMetadata):
            created_at (datetime.datetime):
     """

    id: str
    live_mode: bool
    full_name: str
    email: str
    phone_number: None | str
    tax_id: None | str
    tax_id_type: None | TaxIdTypeEnum
    postal_code: None | str
    street: None | str
    street_number: None | str
    complement: None | str
    district: None | str
    city: None | str
    state: None | str
    country: str
    metadata: ClientMetadata
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.client_metadata import ClientMetadata # noqa: PLC0415
        id = self.id

        live_mode = self.live_mode

        full_name = self.full_name

        email = self.email

        phone_number: None | str
        phone_number = self.phone_number

        tax_id: None | str
        tax_id = self.tax_id

        tax_id_type: None | str
        if isinstance(self.tax_id_type, TaxIdTypeEnum):
            tax_id_type = self.tax_id_type.value
        else:
            tax_id_type = self.tax_id_type

        postal_code: None | str
        postal_code = self.postal_code

        street: None | str
        street = self.street

        street_number: None | str
        street_number = self.street_number

        complement: None | str
        complement = self.complement

        district: None | str
        district = self.district

        city: None | str
        city = self.city

        state: None | str
        state = self.state

        country = self.country

        metadata = self.metadata.to_dict()

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "live_mode": live_mode,
            "full_name": full_name,
            "email": email,
            "phone_number": phone_number,
            "tax_id": tax_id,
            "tax_id_type": tax_id_type,
            "postal_code": postal_code,
            "street": street,
            "street_number": street_number,
            "complement": complement,
            "district": district,
            "city": city,
            "state": state,
            "country": country,
            "metadata": metadata,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.client_metadata import ClientMetadata # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        live_mode = d.pop("live_mode")

        full_name = d.pop("full_name")

        email = d.pop("email")

        def _parse_phone_number(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone_number = _parse_phone_number(d.pop("phone_number"))


        def _parse_tax_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tax_id = _parse_tax_id(d.pop("tax_id"))


        def _parse_tax_id_type(data: object) -> None | TaxIdTypeEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tax_id_type_type_0 = TaxIdTypeEnum(data)



                return tax_id_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaxIdTypeEnum, data)

        tax_id_type = _parse_tax_id_type(d.pop("tax_id_type"))


        def _parse_postal_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        postal_code = _parse_postal_code(d.pop("postal_code"))


        def _parse_street(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        street = _parse_street(d.pop("street"))


        def _parse_street_number(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        street_number = _parse_street_number(d.pop("street_number"))


        def _parse_complement(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        complement = _parse_complement(d.pop("complement"))


        def _parse_district(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        district = _parse_district(d.pop("district"))


        def _parse_city(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        city = _parse_city(d.pop("city"))


        def _parse_state(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        state = _parse_state(d.pop("state"))


        country = d.pop("country")

        metadata = ClientMetadata.from_dict(d.pop("metadata"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        client = cls(
            id=id,
            live_mode=live_mode,
            full_name=full_name,
            email=email,
            phone_number=phone_number,
            tax_id=tax_id,
            tax_id_type=tax_id_type,
            postal_code=postal_code,
            street=street,
            street_number=street_number,
            complement=complement,
            district=district,
            city=city,
            state=state,
            country=country,
            metadata=metadata,
            created_at=created_at,
        )


        client.additional_properties = d
        return client

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
