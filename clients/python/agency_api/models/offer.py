from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.identity_document_input_type_enum import IdentityDocumentInputTypeEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.carrier import Carrier
  from ..models.conditions import Conditions
  from ..models.offer_passenger import OfferPassenger
  from ..models.payment_requirements import PaymentRequirements
  from ..models.slice_ import Slice





T = TypeVar("T", bound="Offer")



@_attrs_define
class Offer:
    """ 
        Attributes:
            id (str):
            total_amount (str): Airline currency.
            total_currency (str):
            base_amount (str):
            tax_amount (str):
            client_amount (str): base_cost_brl + markup + fee, in BRL.
            client_currency (str):
            original_amount (float):
            original_currency (str):
            exchange_rate_used (float): BRL per unit of total_currency: fx_reference_rate × (1 + fx_margin_percent / 100), 8
                decimals at most (1 for BRL).
            fx_reference_rate (float): The reference rate, BRL per unit of total_currency (the Banco Central PTAX selling
                rate, or the configured table), before the FX margin (1 for BRL).
            fx_margin_percent (str): The cost of foreign exchange (bank spread, IOF) added to the reference rate, a
                percentage with two decimals ("2.50"); "0.00" for BRL.
            base_cost_brl (str):
            agency_markup_percent (float):
            agency_markup_amount (str):
            agency_fee_amount (str):
            total_agency_commission (str):
            markup_applied (str):
            fee_applied (str):
            expires_at (datetime.datetime):
            owner (Carrier):
            slices (list[Slice]):
            passengers (list[OfferPassenger]):
            conditions (Conditions):
            payment_requirements (PaymentRequirements):
            passenger_identity_documents_required (bool): The airline's rule (Duffel's name): true, every passenger must
                carry an identity document of one of allowed_passenger_identity_document_types when booked.
            allowed_passenger_identity_document_types (list[IdentityDocumentInputTypeEnum]): The identity document types the
                airline takes for this offer (Duffel's name); a passenger's document of another type is kept but not sent to the
                airline. Empty: none is sent.
     """

    id: str
    total_amount: str
    total_currency: str
    base_amount: str
    tax_amount: str
    client_amount: str
    client_currency: str
    original_amount: float
    original_currency: str
    exchange_rate_used: float
    fx_reference_rate: float
    fx_margin_percent: str
    base_cost_brl: str
    agency_markup_percent: float
    agency_markup_amount: str
    agency_fee_amount: str
    total_agency_commission: str
    markup_applied: str
    fee_applied: str
    expires_at: datetime.datetime
    owner: Carrier
    slices: list[Slice]
    passengers: list[OfferPassenger]
    conditions: Conditions
    payment_requirements: PaymentRequirements
    passenger_identity_documents_required: bool
    allowed_passenger_identity_document_types: list[IdentityDocumentInputTypeEnum]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.carrier import Carrier # noqa: PLC0415
        from ..models.conditions import Conditions # noqa: PLC0415
        from ..models.offer_passenger import OfferPassenger # noqa: PLC0415
        from ..models.payment_requirements import PaymentRequirements # noqa: PLC0415
        from ..models.slice_ import Slice # noqa: PLC0415
        id = self.id

        total_amount = self.total_amount

        total_currency = self.total_currency

        base_amount = self.base_amount

        tax_amount = self.tax_amount

        client_amount = self.client_amount

        client_currency = self.client_currency

        original_amount = self.original_amount

        original_currency = self.original_currency

        exchange_rate_used = self.exchange_rate_used

        fx_reference_rate = self.fx_reference_rate

        fx_margin_percent = self.fx_margin_percent

        base_cost_brl = self.base_cost_brl

        agency_markup_percent = self.agency_markup_percent

        agency_markup_amount = self.agency_markup_amount

        agency_fee_amount = self.agency_fee_amount

        total_agency_commission = self.total_agency_commission

        markup_applied = self.markup_applied

        fee_applied = self.fee_applied

        expires_at = self.expires_at.isoformat()

        owner = self.owner.to_dict()

        slices = []
        for slices_item_data in self.slices:
            slices_item = slices_item_data.to_dict()
            slices.append(slices_item)



        passengers = []
        for passengers_item_data in self.passengers:
            passengers_item = passengers_item_data.to_dict()
            passengers.append(passengers_item)



        conditions = self.conditions.to_dict()

        payment_requirements = self.payment_requirements.to_dict()

        passenger_identity_documents_required = self.passenger_identity_documents_required

        allowed_passenger_identity_document_types = []
        for allowed_passenger_identity_document_types_item_data in self.allowed_passenger_identity_document_types:
            allowed_passenger_identity_document_types_item = allowed_passenger_identity_document_types_item_data.value
            allowed_passenger_identity_document_types.append(allowed_passenger_identity_document_types_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "total_amount": total_amount,
            "total_currency": total_currency,
            "base_amount": base_amount,
            "tax_amount": tax_amount,
            "client_amount": client_amount,
            "client_currency": client_currency,
            "original_amount": original_amount,
            "original_currency": original_currency,
            "exchange_rate_used": exchange_rate_used,
            "fx_reference_rate": fx_reference_rate,
            "fx_margin_percent": fx_margin_percent,
            "base_cost_brl": base_cost_brl,
            "agency_markup_percent": agency_markup_percent,
            "agency_markup_amount": agency_markup_amount,
            "agency_fee_amount": agency_fee_amount,
            "total_agency_commission": total_agency_commission,
            "markup_applied": markup_applied,
            "fee_applied": fee_applied,
            "expires_at": expires_at,
            "owner": owner,
            "slices": slices,
            "passengers": passengers,
            "conditions": conditions,
            "payment_requirements": payment_requirements,
            "passenger_identity_documents_required": passenger_identity_documents_required,
            "allowed_passenger_identity_document_types": allowed_passenger_identity_document_types,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.carrier import Carrier # noqa: PLC0415
        from ..models.conditions import Conditions # noqa: PLC0415
        from ..models.offer_passenger import OfferPassenger # noqa: PLC0415
        from ..models.payment_requirements import PaymentRequirements # noqa: PLC0415
        from ..models.slice_ import Slice # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        total_amount = d.pop("total_amount")

        total_currency = d.pop("total_currency")

        base_amount = d.pop("base_amount")

        tax_amount = d.pop("tax_amount")

        client_amount = d.pop("client_amount")

        client_currency = d.pop("client_currency")

        original_amount = d.pop("original_amount")

        original_currency = d.pop("original_currency")

        exchange_rate_used = d.pop("exchange_rate_used")

        fx_reference_rate = d.pop("fx_reference_rate")

        fx_margin_percent = d.pop("fx_margin_percent")

        base_cost_brl = d.pop("base_cost_brl")

        agency_markup_percent = d.pop("agency_markup_percent")

        agency_markup_amount = d.pop("agency_markup_amount")

        agency_fee_amount = d.pop("agency_fee_amount")

        total_agency_commission = d.pop("total_agency_commission")

        markup_applied = d.pop("markup_applied")

        fee_applied = d.pop("fee_applied")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        owner = Carrier.from_dict(d.pop("owner"))




        slices = []
        _slices = d.pop("slices")
        for slices_item_data in (_slices):
            slices_item = Slice.from_dict(slices_item_data)



            slices.append(slices_item)


        passengers = []
        _passengers = d.pop("passengers")
        for passengers_item_data in (_passengers):
            passengers_item = OfferPassenger.from_dict(passengers_item_data)



            passengers.append(passengers_item)


        conditions = Conditions.from_dict(d.pop("conditions"))




        payment_requirements = PaymentRequirements.from_dict(d.pop("payment_requirements"))




        passenger_identity_documents_required = d.pop("passenger_identity_documents_required")

        allowed_passenger_identity_document_types = []
        _allowed_passenger_identity_document_types = d.pop("allowed_passenger_identity_document_types")
        for allowed_passenger_identity_document_types_item_data in (_allowed_passenger_identity_document_types):
            allowed_passenger_identity_document_types_item = IdentityDocumentInputTypeEnum(allowed_passenger_identity_document_types_item_data)



            allowed_passenger_identity_document_types.append(allowed_passenger_identity_document_types_item)


        offer = cls(
            id=id,
            total_amount=total_amount,
            total_currency=total_currency,
            base_amount=base_amount,
            tax_amount=tax_amount,
            client_amount=client_amount,
            client_currency=client_currency,
            original_amount=original_amount,
            original_currency=original_currency,
            exchange_rate_used=exchange_rate_used,
            fx_reference_rate=fx_reference_rate,
            fx_margin_percent=fx_margin_percent,
            base_cost_brl=base_cost_brl,
            agency_markup_percent=agency_markup_percent,
            agency_markup_amount=agency_markup_amount,
            agency_fee_amount=agency_fee_amount,
            total_agency_commission=total_agency_commission,
            markup_applied=markup_applied,
            fee_applied=fee_applied,
            expires_at=expires_at,
            owner=owner,
            slices=slices,
            passengers=passengers,
            conditions=conditions,
            payment_requirements=payment_requirements,
            passenger_identity_documents_required=passenger_identity_documents_required,
            allowed_passenger_identity_document_types=allowed_passenger_identity_document_types,
        )


        offer.additional_properties = d
        return offer

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
