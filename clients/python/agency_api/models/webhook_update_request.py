from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.api_version_enum import ApiVersionEnum
from ..models.event_type_enum import EventTypeEnum
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookUpdateRequest")



@_attrs_define
class WebhookUpdateRequest:
    """ Unknown keys are ignored.

        Attributes:
            url (str | Unset): Probed again when it changes.
            events (list[EventTypeEnum] | Unset):
            active (bool | Unset): true reactivates and resets the failure count.
            api_version (ApiVersionEnum | Unset): * `2026-11-22` - 2026-11-22
                * `2026-11-28` - 2026-11-28
     """

    url: str | Unset = UNSET
    events: list[EventTypeEnum] | Unset = UNSET
    active: bool | Unset = UNSET
    api_version: ApiVersionEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)



        active = self.active

        api_version: str | Unset = UNSET
        if not isinstance(self.api_version, Unset):
            api_version = self.api_version.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if url is not UNSET:
            field_dict["url"] = url
        if events is not UNSET:
            field_dict["events"] = events
        if active is not UNSET:
            field_dict["active"] = active
        if api_version is not UNSET:
            field_dict["api_version"] = api_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _events = d.pop("events", UNSET)
        events: list[EventTypeEnum] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = EventTypeEnum(events_item_data)



                events.append(events_item)


        active = d.pop("active", UNSET)

        _api_version = d.pop("api_version", UNSET)
        api_version: ApiVersionEnum | Unset
        if isinstance(_api_version,  Unset):
            api_version = UNSET
        else:
            api_version = ApiVersionEnum(_api_version)




        webhook_update_request = cls(
            url=url,
            events=events,
            active=active,
            api_version=api_version,
        )


        webhook_update_request.additional_properties = d
        return webhook_update_request

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
