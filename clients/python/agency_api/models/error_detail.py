from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.error_detail_code import ErrorDetailCode
from typing import cast

if TYPE_CHECKING:
  from ..models.error_detail_details_type_0 import ErrorDetailDetailsType0





T = TypeVar("T", bound="ErrorDetail")



@_attrs_define
class ErrorDetail:
    """ 
        Attributes:
            code (ErrorDetailCode): What went wrong, for programs (see docs/errors.md).
            message (str):
            details (ErrorDetailDetailsType0 | None): Field path (`passengers[1].born_on`, `slices[0].origin`, `body`,
                `Idempotency-Key`) → its messages; null when there is nothing to add.
            request_id (str): The request's `X-Request-Id` (quote it to support).
            doc_url (str): The code's entry in the error reference: what to do, and whether sending the same request again
                can succeed.
     """

    code: ErrorDetailCode
    message: str
    details: ErrorDetailDetailsType0 | None
    request_id: str
    doc_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_detail_details_type_0 import ErrorDetailDetailsType0 # noqa: PLC0415
        code = self.code.value

        message = self.message

        details: dict[str, Any] | None
        if isinstance(self.details, ErrorDetailDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        request_id = self.request_id

        doc_url = self.doc_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "message": message,
            "details": details,
            "request_id": request_id,
            "doc_url": doc_url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_detail_details_type_0 import ErrorDetailDetailsType0 # noqa: PLC0415
        d = dict(src_dict)
        code = ErrorDetailCode(d.pop("code"))




        message = d.pop("message")

        def _parse_details(data: object) -> ErrorDetailDetailsType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = ErrorDetailDetailsType0.from_dict(data)



                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorDetailDetailsType0 | None, data)

        details = _parse_details(d.pop("details"))


        request_id = d.pop("request_id")

        doc_url = d.pop("doc_url")

        error_detail = cls(
            code=code,
            message=message,
            details=details,
            request_id=request_id,
            doc_url=doc_url,
        )


        error_detail.additional_properties = d
        return error_detail

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
