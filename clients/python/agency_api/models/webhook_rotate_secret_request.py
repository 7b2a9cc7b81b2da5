from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="WebhookRotateSecretRequest")



@_attrs_define
class WebhookRotateSecretRequest:
    """ Unknown keys are ignored.

        Attributes:
            expire_previous_in_hours (int | Unset): How long the secret being replaced keeps signing deliveries beside the
                new one, in hours: 0 to 168, 24 when absent; 0 stops it at once.
     """

    expire_previous_in_hours: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        expire_previous_in_hours = self.expire_previous_in_hours


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if expire_previous_in_hours is not UNSET:
            field_dict["expire_previous_in_hours"] = expire_previous_in_hours

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expire_previous_in_hours = d.pop("expire_previous_in_hours", UNSET)

        webhook_rotate_secret_request = cls(
            expire_previous_in_hours=expire_previous_in_hours,
        )


        webhook_rotate_secret_request.additional_properties = d
        return webhook_rotate_secret_request

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
