from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.meta import Meta
  from ..models.pagination import Pagination
  from ..models.withdrawal import Withdrawal





T = TypeVar("T", bound="WithdrawalListEnvelope")



@_attrs_define
class WithdrawalListEnvelope:
    """ 
        Attributes:
            data (list[Withdrawal]):
            pagination (Pagination):
            success (bool | Unset):  Default: True.
            field_meta (Meta | Unset): Present on every answer to a test key (`sk_test_…`), errors included.
     """

    data: list[Withdrawal]
    pagination: Pagination
    success: bool | Unset = True
    field_meta: Meta | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.pagination import Pagination # noqa: PLC0415
        from ..models.withdrawal import Withdrawal # noqa: PLC0415
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)



        pagination = self.pagination.to_dict()

        success = self.success

        field_meta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_meta, Unset):
            field_meta = self.field_meta.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
            "pagination": pagination,
        })
        if success is not UNSET:
            field_dict["success"] = success
        if field_meta is not UNSET:
            field_dict["_meta"] = field_meta

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.pagination import Pagination # noqa: PLC0415
        from ..models.withdrawal import Withdrawal # noqa: PLC0415
        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            data_item = Withdrawal.from_dict(data_item_data)



            data.append(data_item)


        pagination = Pagination.from_dict(d.pop("pagination"))




        success = d.pop("success", UNSET)

        _field_meta = d.pop("_meta", UNSET)
        field_meta: Meta | Unset
        if isinstance(_field_meta,  Unset):
            field_meta = UNSET
        else:
            field_meta = Meta.from_dict(_field_meta)




        withdrawal_list_envelope = cls(
            data=data,
            pagination=pagination,
            success=success,
            field_meta=field_meta,
        )


        withdrawal_list_envelope.additional_properties = d
        return withdrawal_list_envelope

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
