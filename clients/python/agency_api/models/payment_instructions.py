from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="PaymentInstructions")



@_attrs_define
class PaymentInstructions:
    """ 
        Attributes:
            expires_at (datetime.datetime):
            pix_copy_paste (str | Unset):
            pix_qrcode_url (str | Unset):
            boleto_barcode (str | Unset):
            boleto_linha_digitavel (str | Unset):
            boleto_url (str | Unset):
            boleto_pdf_url (str | Unset):
            due_date (datetime.date | None | Unset):
     """

    expires_at: datetime.datetime
    pix_copy_paste: str | Unset = UNSET
    pix_qrcode_url: str | Unset = UNSET
    boleto_barcode: str | Unset = UNSET
    boleto_linha_digitavel: str | Unset = UNSET
    boleto_url: str | Unset = UNSET
    boleto_pdf_url: str | Unset = UNSET
    due_date: datetime.date | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at.isoformat()

        pix_copy_paste = self.pix_copy_paste

        pix_qrcode_url = self.pix_qrcode_url

        boleto_barcode = self.boleto_barcode

        boleto_linha_digitavel = self.boleto_linha_digitavel

        boleto_url = self.boleto_url

        boleto_pdf_url = self.boleto_pdf_url

        due_date: None | str | Unset
        if isinstance(self.due_date, Unset):
            due_date = UNSET
        elif isinstance(self.due_date, datetime.date):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "expires_at": expires_at,
        })
        if pix_copy_paste is not UNSET:
            field_dict["pix_copy_paste"] = pix_copy_paste
        if pix_qrcode_url is not UNSET:
            field_dict["pix_qrcode_url"] = pix_qrcode_url
        if boleto_barcode is not UNSET:
            field_dict["boleto_barcode"] = boleto_barcode
        if boleto_linha_digitavel is not UNSET:
            field_dict["boleto_linha_digitavel"] = boleto_linha_digitavel
        if boleto_url is not UNSET:
            field_dict["boleto_url"] = boleto_url
        if boleto_pdf_url is not UNSET:
            field_dict["boleto_pdf_url"] = boleto_pdf_url
        if due_date is not UNSET:
            field_dict["due_date"] = due_date

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        pix_copy_paste = d.pop("pix_copy_paste", UNSET)

        pix_qrcode_url = d.pop("pix_qrcode_url", UNSET)

        boleto_barcode = d.pop("boleto_barcode", UNSET)

        boleto_linha_digitavel = d.pop("boleto_linha_digitavel", UNSET)

        boleto_url = d.pop("boleto_url", UNSET)

        boleto_pdf_url = d.pop("boleto_pdf_url", UNSET)

        def _parse_due_date(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_type_0 = datetime.date.fromisoformat(data)



                return due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        due_date = _parse_due_date(d.pop("due_date", UNSET))


        payment_instructions = cls(
            expires_at=expires_at,
            pix_copy_paste=pix_copy_paste,
            pix_qrcode_url=pix_qrcode_url,
            boleto_barcode=boleto_barcode,
            boleto_linha_digitavel=boleto_linha_digitavel,
            boleto_url=boleto_url,
            boleto_pdf_url=boleto_pdf_url,
            due_date=due_date,
        )


        payment_instructions.additional_properties = d
        return payment_instructions

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
