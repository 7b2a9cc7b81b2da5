from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.api_key_object_object import ApiKeyObjectObject
from ..models.api_key_object_permissions_type_0_item import ApiKeyObjectPermissionsType0Item
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ApiKeyObject")



@_attrs_define
class ApiKeyObject:
    """ The key's display prefix only, never the key.

        Attributes:
            id (str):
            object_ (ApiKeyObjectObject):
            name (str):
            live_mode (bool):
            display_prefix (str):
            permissions (list[ApiKeyObjectPermissionsType0Item] | None): What a restricted key may do; null: full access.
                Example: ['flights:read', 'bookings:read', 'bookings:write'].
            created_at (datetime.datetime):
            last_used_at (datetime.datetime | None | Unset):
            revoked_at (datetime.datetime | None | Unset):
     """

    id: str
    object_: ApiKeyObjectObject
    name: str
    live_mode: bool
    display_prefix: str
    permissions: list[ApiKeyObjectPermissionsType0Item] | None
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None | Unset = UNSET
    revoked_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_.value

        name = self.name

        live_mode = self.live_mode

        display_prefix = self.display_prefix

        permissions: list[str] | None
        if isinstance(self.permissions, list):
            permissions = []
            for permissions_type_0_item_data in self.permissions:
                permissions_type_0_item = permissions_type_0_item_data.value
                permissions.append(permissions_type_0_item)


        else:
            permissions = self.permissions

        created_at = self.created_at.isoformat()

        last_used_at: None | str | Unset
        if isinstance(self.last_used_at, Unset):
            last_used_at = UNSET
        elif isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        revoked_at: None | str | Unset
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        elif isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "name": name,
            "live_mode": live_mode,
            "display_prefix": display_prefix,
            "permissions": permissions,
            "created_at": created_at,
        })
        if last_used_at is not UNSET:
            field_dict["last_used_at"] = last_used_at
        if revoked_at is not UNSET:
            field_dict["revoked_at"] = revoked_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = ApiKeyObjectObject(d.pop("object"))




        name = d.pop("name")

        live_mode = d.pop("live_mode")

        display_prefix = d.pop("display_prefix")

        def _parse_permissions(data: object) -> list[ApiKeyObjectPermissionsType0Item] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                permissions_type_0 = []
                _permissions_type_0 = data
                for permissions_type_0_item_data in (_permissions_type_0):
                    permissions_type_0_item = ApiKeyObjectPermissionsType0Item(permissions_type_0_item_data)



                    permissions_type_0.append(permissions_type_0_item)

                return permissions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ApiKeyObjectPermissionsType0Item] | None, data)

        permissions = _parse_permissions(d.pop("permissions"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_last_used_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at", UNSET))


        def _parse_revoked_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)



                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at", UNSET))


        api_key_object = cls(
            id=id,
            object_=object_,
            name=name,
            live_mode=live_mode,
            display_prefix=display_prefix,
            permissions=permissions,
            created_at=created_at,
            last_used_at=last_used_at,
            revoked_at=revoked_at,
        )


        api_key_object.additional_properties = d
        return api_key_object

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
