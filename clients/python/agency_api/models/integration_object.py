from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.integration_object_object import IntegrationObjectObject
from ..models.integration_object_provider import IntegrationObjectProvider
from ..models.integration_object_status import IntegrationObjectStatus
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="IntegrationObject")



@_attrs_define
class IntegrationObject:
    """ Never the supplier's access token.

        Attributes:
            id (str):
            object_ (IntegrationObjectObject):
            provider (IntegrationObjectProvider):
            status (IntegrationObjectStatus):
            live_mode (bool):
            connected_at (datetime.datetime):
            disconnected_at (datetime.datetime | None | Unset):
     """

    id: str
    object_: IntegrationObjectObject
    provider: IntegrationObjectProvider
    status: IntegrationObjectStatus
    live_mode: bool
    connected_at: datetime.datetime
    disconnected_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_.value

        provider = self.provider.value

        status = self.status.value

        live_mode = self.live_mode

        connected_at = self.connected_at.isoformat()

        disconnected_at: None | str | Unset
        if isinstance(self.disconnected_at, Unset):
            disconnected_at = UNSET
        elif isinstance(self.disconnected_at, datetime.datetime):
            disconnected_at = self.disconnected_at.isoformat()
        else:
            disconnected_at = self.disconnected_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "provider": provider,
            "status": status,
            "live_mode": live_mode,
            "connected_at": connected_at,
        })
        if disconnected_at is not UNSET:
            field_dict["disconnected_at"] = disconnected_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = IntegrationObjectObject(d.pop("object"))




        provider = IntegrationObjectProvider(d.pop("provider"))




        status = IntegrationObjectStatus(d.pop("status"))




        live_mode = d.pop("live_mode")

        connected_at = datetime.datetime.fromisoformat(d.pop("connected_at"))




        def _parse_disconnected_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disconnected_at_type_0 = datetime.datetime.fromisoformat(data)



                return disconnected_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        disconnected_at = _parse_disconnected_at(d.pop("disconnected_at", UNSET))


        integration_object = cls(
            id=id,
            object_=object_,
            provider=provider,
            status=status,
            live_mode=live_mode,
            connected_at=connected_at,
            disconnected_at=disconnected_at,
        )


        integration_object.additional_properties = d
        return integration_object

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
