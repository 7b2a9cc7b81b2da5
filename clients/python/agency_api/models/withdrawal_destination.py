from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.pix_key_type_enum import PixKeyTypeEnum
from ..models.withdrawal_destination_type_enum import WithdrawalDestinationTypeEnum
from typing import cast






T = TypeVar("T", bound="WithdrawalDestination")



@_attrs_define
class WithdrawalDestination:
    """ 
        Attributes:
            type_ (WithdrawalDestinationTypeEnum): * `pix` - pix
            pix_key_type (PixKeyTypeEnum): * `cpf` - cpf
                * `cnpj` - cnpj
                * `email` - email
                * `phone` - phone
                * `evp` - evp
            pix_key (str): The team's payout PIX key when it was requested.
            holder_name (None | str): The key's holder, as the payment provider reports it.
            holder_tax_id (None | str): The holder's CNPJ or CPF as the provider reports it (it may mask digits).
     """

    type_: WithdrawalDestinationTypeEnum
    pix_key_type: PixKeyTypeEnum
    pix_key: str
    holder_name: None | str
    holder_tax_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        pix_key_type = self.pix_key_type.value

        pix_key = self.pix_key

        holder_name: None | str
        holder_name = self.holder_name

        holder_tax_id: None | str
        holder_tax_id = self.holder_tax_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "pix_key_type": pix_key_type,
            "pix_key": pix_key,
            "holder_name": holder_name,
            "holder_tax_id": holder_tax_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = WithdrawalDestinationTypeEnum(d.pop("type"))




        pix_key_type = PixKeyTypeEnum(d.pop("pix_key_type"))




        pix_key = d.pop("pix_key")

        def _parse_holder_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        holder_name = _parse_holder_name(d.pop("holder_name"))


        def _parse_holder_tax_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        holder_tax_id = _parse_holder_tax_id(d.pop("holder_tax_id"))


        withdrawal_destination = cls(
            type_=type_,
            pix_key_type=pix_key_type,
            pix_key=pix_key,
            holder_name=holder_name,
            holder_tax_id=holder_tax_id,
        )


        withdrawal_destination.additional_properties = d
        return withdrawal_destination

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
