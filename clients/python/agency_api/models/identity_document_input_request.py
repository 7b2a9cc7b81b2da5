from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.identity_document_input_type_enum import IdentityDocumentInputTypeEnum
from typing import cast
import datetime






T = TypeVar("T", bound="IdentityDocumentInputRequest")



@_attrs_define
class IdentityDocumentInputRequest:
    """ 
        Attributes:
            type_ (IdentityDocumentInputTypeEnum): * `passport` - passport
                * `tax_id` - tax_id
                * `known_traveler_number` - known_traveler_number
            unique_identifier (str): The document's number, as printed on it.
            issuing_country_code (str): ISO 3166-1 alpha-2 code of the issuing country.
            expires_on (datetime.date): YYYY-MM-DD; a passport must be valid after the last arrival.
     """

    type_: IdentityDocumentInputTypeEnum
    unique_identifier: str
    issuing_country_code: str
    expires_on: datetime.date
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        unique_identifier = self.unique_identifier

        issuing_country_code = self.issuing_country_code

        expires_on = self.expires_on.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "unique_identifier": unique_identifier,
            "issuing_country_code": issuing_country_code,
            "expires_on": expires_on,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = IdentityDocumentInputTypeEnum(d.pop("type"))




        unique_identifier = d.pop("unique_identifier")

        issuing_country_code = d.pop("issuing_country_code")

        expires_on = datetime.date.fromisoformat(d.pop("expires_on"))




        identity_document_input_request = cls(
            type_=type_,
            unique_identifier=unique_identifier,
            issuing_country_code=issuing_country_code,
            expires_on=expires_on,
        )


        identity_document_input_request.additional_properties = d
        return identity_document_input_request

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
