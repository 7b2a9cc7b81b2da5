from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cancel_result_status_enum import CancelResultStatusEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.refund import Refund





T = TypeVar("T", bound="CancelResult")



@_attrs_define
class CancelResult:
    """ 
        Attributes:
            id (str):
            status (CancelResultStatusEnum): * `cancelled` - cancelled
            refund (Refund):
     """

    id: str
    status: CancelResultStatusEnum
    refund: Refund
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.refund import Refund # noqa: PLC0415
        id = self.id

        status = self.status.value

        refund = self.refund.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "status": status,
            "refund": refund,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.refund import Refund # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        status = CancelResultStatusEnum(d.pop("status"))




        refund = Refund.from_dict(d.pop("refund"))




        cancel_result = cls(
            id=id,
            status=status,
            refund=refund,
        )


        cancel_result.additional_properties = d
        return cancel_result

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
