from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="WebhookSecretRotated")



@_attrs_define
class WebhookSecretRotated:
    """ 
        Attributes:
            id (str):
            secret (str): The new whsec_…; shown only in this response.
            previous_secret_expires_at (datetime.datetime | None): Until when deliveries also carry X-Service-Signature-
                Previous; null: the previous secret no longer signs.
            rotated_at (datetime.datetime):
     """

    id: str
    secret: str
    previous_secret_expires_at: datetime.datetime | None
    rotated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        secret = self.secret

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        rotated_at = self.rotated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "secret": secret,
            "previous_secret_expires_at": previous_secret_expires_at,
            "rotated_at": rotated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        secret = d.pop("secret")

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(d.pop("previous_secret_expires_at"))


        rotated_at = datetime.datetime.fromisoformat(d.pop("rotated_at"))




        webhook_secret_rotated = cls(
            id=id,
            secret=secret,
            previous_secret_expires_at=previous_secret_expires_at,
            rotated_at=rotated_at,
        )


        webhook_secret_rotated.additional_properties = d
        return webhook_secret_rotated

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
