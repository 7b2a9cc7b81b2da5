from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.api_version_enum import ApiVersionEnum
from ..models.event_type_enum import EventTypeEnum
from typing import cast






T = TypeVar("T", bound="WebhookCreated")



@_attrs_define
class WebhookCreated:
    """ 
        Attributes:
            id (str):
            url (str):
            events (list[EventTypeEnum]):
            active (bool):
            secret (str): whsec_…; shown only in this response.
            api_version (ApiVersionEnum): * `2026-11-22` - 2026-11-22
                * `2026-11-28` - 2026-11-28
     """

    id: str
    url: str
    events: list[EventTypeEnum]
    active: bool
    secret: str
    api_version: ApiVersionEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)



        active = self.active

        secret = self.secret

        api_version = self.api_version.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "url": url,
            "events": events,
            "active": active,
            "secret": secret,
            "api_version": api_version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = EventTypeEnum(events_item_data)



            events.append(events_item)


        active = d.pop("active")

        secret = d.pop("secret")

        api_version = ApiVersionEnum(d.pop("api_version"))




        webhook_created = cls(
            id=id,
            url=url,
            events=events,
            active=active,
            secret=secret,
            api_version=api_version,
        )


        webhook_created.additional_properties = d
        return webhook_created

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
