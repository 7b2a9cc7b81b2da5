from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.gender_enum import GenderEnum
from ..models.title_enum import TitleEnum
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.identity_document_input_request import IdentityDocumentInputRequest
  from ..models.loyalty_account_input_request import LoyaltyAccountInputRequest





T = TypeVar("T", bound="PassengerInputRequest")



@_attrs_define
class PassengerInputRequest:
    """ 
        Attributes:
            id (str): pas_… of the offer's passenger; each exactly once.
            given_name (str): As on the identity document.
            family_name (str): As on the identity document.
            gender (GenderEnum): * `m` - m
                * `f` - f
            born_on (datetime.date): YYYY-MM-DD. Age on the first departure: adult 12+, child 2-11, infant 0-1.
            email (str):
            phone_number (str): Country code and ASCII digits: +5511987654321.
            title (TitleEnum | Unset): * `mr` - mr
                * `mrs` - mrs
                * `ms` - ms
                * `miss` - miss
                * `dr` - dr
            identity_documents (list[IdentityDocumentInputRequest] | Unset): Required (a passport) for every passenger of an
                international itinerary, and one of the offer's allowed_passenger_identity_document_types for every passenger
                when its passenger_identity_documents_required is true. A tax_id issued in BR is a CPF with valid check digits.
                Documents of types the airline does not take are kept, not sent.
            loyalty_programme_accounts (list[LoyaltyAccountInputRequest] | Unset): Frequent-flyer accounts, sent with the
                passenger in the airline's order.
            infant_passenger_id (str | Unset): pas_… of the infant_without_seat this adult travels with: required, once per
                infant, on exactly one adult.
     """

    id: str
    given_name: str
    family_name: str
    gender: GenderEnum
    born_on: datetime.date
    email: str
    phone_number: str
    title: TitleEnum | Unset = UNSET
    identity_documents: list[IdentityDocumentInputRequest] | Unset = UNSET
    loyalty_programme_accounts: list[LoyaltyAccountInputRequest] | Unset = UNSET
    infant_passenger_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.identity_document_input_request import IdentityDocumentInputRequest # noqa: PLC0415
        from ..models.loyalty_account_input_request import LoyaltyAccountInputRequest # noqa: PLC0415
        id = self.id

        given_name = self.given_name

        family_name = self.family_name

        gender = self.gender.value

        born_on = self.born_on.isoformat()

        email = self.email

        phone_number = self.phone_number

        title: str | Unset = UNSET
        if not isinstance(self.title, Unset):
            title = self.title.value


        identity_documents: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.identity_documents, Unset):
            identity_documents = []
            for identity_documents_item_data in self.identity_documents:
                identity_documents_item = identity_documents_item_data.to_dict()
                identity_documents.append(identity_documents_item)



        loyalty_programme_accounts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.loyalty_programme_accounts, Unset):
            loyalty_programme_accounts = []
            for loyalty_programme_accounts_item_data in self.loyalty_programme_accounts:
                loyalty_programme_accounts_item = loyalty_programme_accounts_item_data.to_dict()
                loyalty_programme_accounts.append(loyalty_programme_accounts_item)



        infant_passenger_id = self.infant_passenger_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "given_name": given_name,
            "family_name": family_name,
            "gender": gender,
            "born_on": born_on,
            "email": email,
            "phone_number": phone_number,
        })
        if title is not UNSET:
            field_dict["title"] = title
        if identity_documents is not UNSET:
            field_dict["identity_documents"] = identity_documents
        if loyalty_programme_accounts is not UNSET:
            field_dict["loyalty_programme_accounts"] = loyalty_programme_accounts
        if infant_passenger_id is not UNSET:
            field_dict["infant_passenger_id"] = infant_passenger_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.identity_document_input_request import IdentityDocumentInputRequest # noqa: PLC0415
        from ..models.loyalty_account_input_request import LoyaltyAccountInputRequest # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        given_name = d.pop("given_name")

        family_name = d.pop("family_name")

        gender = GenderEnum(d.pop("gender"))




        born_on = datetime.date.fromisoformat(d.pop("born_on"))




        email = d.pop("email")

        phone_number = d.pop("phone_number")

        _title = d.pop("title", UNSET)
        title: TitleEnum | Unset
        if isinstance(_title,  Unset):
            title = UNSET
        else:
            title = TitleEnum(_title)




        _identity_documents = d.pop("identity_documents", UNSET)
        identity_documents: list[IdentityDocumentInputRequest] | Unset = UNSET
        if _identity_documents is not UNSET:
            identity_documents = []
            for identity_documents_item_data in _identity_documents:
                identity_documents_item = IdentityDocumentInputRequest.from_dict(identity_documents_item_data)



                identity_documents.append(identity_documents_item)


        _loyalty_programme_accounts = d.pop("loyalty_programme_accounts", UNSET)
        loyalty_programme_accounts: list[LoyaltyAccountInputRequest] | Unset = UNSET
        if _loyalty_programme_accounts is not UNSET:
            loyalty_programme_accounts = []
            for loyalty_programme_accounts_item_data in _loyalty_programme_accounts:
                loyalty_programme_accounts_item = LoyaltyAccountInputRequest.from_dict(loyalty_programme_accounts_item_data)



                loyalty_programme_accounts.append(loyalty_programme_accounts_item)


        infant_passenger_id = d.pop("infant_passenger_id", UNSET)

        passenger_input_request = cls(
            id=id,
            given_name=given_name,
            family_name=family_name,
            gender=gender,
            born_on=born_on,
            email=email,
            phone_number=phone_number,
            title=title,
            identity_documents=identity_documents,
            loyalty_programme_accounts=loyalty_programme_accounts,
            infant_passenger_id=infant_passenger_id,
        )


        passenger_input_request.additional_properties = d
        return passenger_input_request

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
