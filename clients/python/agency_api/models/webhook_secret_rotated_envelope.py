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
  from ..models.webhook_secret_rotated import WebhookSecretRotated





T = TypeVar("T", bound="WebhookSecretRotatedEnvelope")



@_attrs_define
class WebhookSecretRotatedEnvelope:
    """ 
        Attributes:
            data (WebhookSecretRotated):
            success (bool | Unset):  Default: True.
            field_meta (Meta | Unset): Present on every answer to a test key (`sk_test_…`), errors included.
     """

    data: WebhookSecretRotated
    success: bool | Unset = True
    field_meta: Meta | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.webhook_secret_rotated import WebhookSecretRotated # noqa: PLC0415
        data = self.data.to_dict()

        success = self.success

        field_meta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_meta, Unset):
            field_meta = self.field_meta.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
        })
        if success is not UNSET:
            field_dict["success"] = success
        if field_meta is not UNSET:
            field_dict["_meta"] = field_meta

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.webhook_secret_rotated import WebhookSecretRotated # noqa: PLC0415
        d = dict(src_dict)
        data = WebhookSecretRotated.from_dict(d.pop("data"))




        success = d.pop("success", UNSET)

        _field_meta = d.pop("_meta", UNSET)
        field_meta: Meta | Unset
        if isinstance(_field_meta,  Unset):
            field_meta = UNSET
        else:
            field_meta = Meta.from_dict(_field_meta)




        webhook_secret_rotated_envelope = cls(
            data=data,
            success=success,
            field_meta=field_meta,
        )


        webhook_secret_rotated_envelope.additional_properties = d
        return webhook_secret_rotated_envelope

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
