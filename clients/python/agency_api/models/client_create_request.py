from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.client_create_request_metadata_type_0 import ClientCreateRequestMetadataType0





T = TypeVar("T", bound="ClientCreateRequest")



@_attrs_define
class ClientCreateRequest:
    """ Unknown keys are ignored.

        Attributes:
            full_name (str): The client's name: a person's (as on their documents) or a company's.
            email (str): Unique among the team's clients of this mode; kept in lower case. Bookings whose lead passenger has
                this e-mail are linked to this client.
            phone_number (None | str | Unset): Country code and ASCII digits: +5511987654321.
            tax_id (None | str | Unset): CPF (a person's) or CNPJ (a company's), with valid check digits, with or without
                its punctuation. Answered formatted (390.533.447-05), stored as digits.
            country (str | Unset): ISO 3166-1 alpha-2 code of the address's country; BR when not given.
            postal_code (None | str | Unset): In Brazil a CEP, 8 digits with or without the dash (01310-100), answered with
                it.
            street (None | str | Unset): Street (logradouro).
            street_number (None | str | Unset): Number on the street (or S/N).
            complement (None | str | Unset): Apartment, suite, floor.
            district (None | str | Unset): District (bairro).
            city (None | str | Unset): City.
            state (None | str | Unset): In Brazil the UF, two letters (SP, RJ), kept in capitals; elsewhere as written.
            metadata (ClientCreateRequestMetadataType0 | None | Unset): The agency's own data: at most 50 keys of at most 40
                characters, string values of at most 500. A key given "" is removed (an update keeps the keys it does not name;
                null removes them all).
     """

    full_name: str
    email: str
    phone_number: None | str | Unset = UNSET
    tax_id: None | str | Unset = UNSET
    country: str | Unset = UNSET
    postal_code: None | str | Unset = UNSET
    street: None | str | Unset = UNSET
    street_number: None | str | Unset = UNSET
    complement: None | str | Unset = UNSET
    district: None | str | Unset = UNSET
    city: None | str | Unset = UNSET
    state: None | str | Unset = UNSET
    metadata: ClientCreateRequestMetadataType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.client_create_request_metadata_type_0 import ClientCreateRequestMetadataType0 # noqa: PLC0415
        full_name = self.full_name

        email = self.email

        phone_number: None | str | Unset
        if isinstance(self.phone_number, Unset):
            phone_number = UNSET
        else:
            phone_number = self.phone_number

        tax_id: None | str | Unset
        if isinstance(self.tax_id, Unset):
            tax_id = UNSET
        else:
            tax_id = self.tax_id

        country = self.country

        postal_code: None | str | Unset
        if isinstance(self.postal_code, Unset):
            postal_code = UNSET
        else:
            postal_code = self.postal_code

        street: None | str | Unset
        if isinstance(self.street, Unset):
            street = UNSET
        else:
            street = self.street

        street_number: None | str | Unset
        if isinstance(self.street_number, Unset):
            street_number = UNSET
        else:
            street_number = self.street_number

        complement: None | str | Unset
        if isinstance(self.complement, Unset):
            complement = UNSET
        else:
            complement = self.complement

        district: None | str | Unset
        if isinstance(self.district, Unset):
            district = UNSET
        else:
            district = self.district

        city: None | str | Unset
        if isinstance(self.city, Unset):
            city = UNSET
        else:
            city = self.city

        state: None | str | Unset
        if isinstance(self.state, Unset):
            state = UNSET
        else:
            state = self.state

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, ClientCreateRequestMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "full_name": full_name,
            "email": email,
        })
        if phone_number is not UNSET:
            field_dict["phone_number"] = phone_number
        if tax_id is not UNSET:
            field_dict["tax_id"] = tax_id
        if country is not UNSET:
            field_dict["country"] = country
        if postal_code is not UNSET:
            field_dict["postal_code"] = postal_code
        if street is not UNSET:
            field_dict["street"] = street
        if street_number is not UNSET:
            field_dict["street_number"] = street_number
        if complement is not UNSET:
            field_dict["complement"] = complement
        if district is not UNSET:
            field_dict["district"] = district
        if city is not UNSET:
            field_dict["city"] = city
        if state is not UNSET:
            field_dict["state"] = state
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.client_create_request_metadata_type_0 import ClientCreateRequestMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        full_name = d.pop("full_name")

        email = d.pop("email")

        def _parse_phone_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_number = _parse_phone_number(d.pop("phone_number", UNSET))


        def _parse_tax_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tax_id = _parse_tax_id(d.pop("tax_id", UNSET))


        country = d.pop("country", UNSET)

        def _parse_postal_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        postal_code = _parse_postal_code(d.pop("postal_code", UNSET))


        def _parse_street(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        street = _parse_street(d.pop("street", UNSET))


        def _parse_street_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        street_number = _parse_street_number(d.pop("street_number", UNSET))


        def _parse_complement(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        complement = _parse_complement(d.pop("complement", UNSET))


        def _parse_district(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        district = _parse_district(d.pop("district", UNSET))


        def _parse_city(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        city = _parse_city(d.pop("city", UNSET))


        def _parse_state(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        state = _parse_state(d.pop("state", UNSET))


        def _parse_metadata(data: object) -> ClientCreateRequestMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ClientCreateRequestMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClientCreateRequestMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        client_create_request = cls(
            full_name=full_name,
            email=email,
            phone_number=phone_number,
            tax_id=tax_id,
            country=country,
            postal_code=postal_code,
            street=street,
            street_number=street_number,
            complement=complement,
            district=district,
            city=city,
            state=state,
            metadata=metadata,
        )


        client_create_request.additional_properties = d
        return client_create_request

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
