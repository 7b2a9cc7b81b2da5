from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.api_key_revoked_event_type import ApiKeyRevokedEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.api_key_revoked_event_data import ApiKeyRevokedEventData





T = TypeVar("T", bound="ApiKeyRevokedEvent")



@_attrs_define
class ApiKeyRevokedEvent:
    """ The body of a `api_key.revoked` delivery (signed; see docs/webhooks.md).

        Example:
            {'id': 'evt_01m8j0gv9gp8qhrvfe55myp3ex', 'type': 'api_key.revoked', 'api_version': '2026-11-28', 'created_at':
                '2026-11-28T21:21:01.744Z', 'data': {'object': {'id': 'key_01m8j0grse0mayjkxshxape0fb', 'object': 'api_key',
                'name': 'Default live key', 'live_mode': True, 'display_prefix': 'sk_live_W2fCERwm', 'permissions': None,
                'created_at': '2026-11-28T21:20:59.182Z', 'last_used_at': None, 'revoked_at': '2026-11-28T21:21:01.734Z'},
                'previous_attributes': {'revoked_at': None}}, 'team_id': 'team_01m8j0grmk82xbn588d0qrnyek', 'webhook_id':
                'wh_01m84tymf0example0000000000', 'live_mode': False}

        Attributes:
            id (str): evt_…
            type_ (ApiKeyRevokedEventType):
            api_version (str):
            created_at (datetime.datetime):
            data (ApiKeyRevokedEventData):
            team_id (str):
            webhook_id (None | str):
            live_mode (bool): true for the live mode's events, false for the test mode's.
     """

    id: str
    type_: ApiKeyRevokedEventType
    api_version: str
    created_at: datetime.datetime
    data: ApiKeyRevokedEventData
    team_id: str
    webhook_id: None | str
    live_mode: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.api_key_revoked_event_data import ApiKeyRevokedEventData # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        api_version = self.api_version

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        team_id = self.team_id

        webhook_id: None | str
        webhook_id = self.webhook_id

        live_mode = self.live_mode


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "api_version": api_version,
            "created_at": created_at,
            "data": data,
            "team_id": team_id,
            "webhook_id": webhook_id,
            "live_mode": live_mode,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_key_revoked_event_data import ApiKeyRevokedEventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = ApiKeyRevokedEventType(d.pop("type"))




        api_version = d.pop("api_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = ApiKeyRevokedEventData.from_dict(d.pop("data"))




        team_id = d.pop("team_id")

        def _parse_webhook_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id"))


        live_mode = d.pop("live_mode")

        api_key_revoked_event = cls(
            id=id,
            type_=type_,
            api_version=api_version,
            created_at=created_at,
            data=data,
            team_id=team_id,
            webhook_id=webhook_id,
            live_mode=live_mode,
        )


        api_key_revoked_event.additional_properties = d
        return api_key_revoked_event

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
