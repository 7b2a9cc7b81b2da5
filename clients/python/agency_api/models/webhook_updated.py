from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.event_type_enum import EventTypeEnum
from typing import cast
import datetime






T = TypeVar("T", bound="WebhookUpdated")



@_attrs_define
class WebhookUpdated:
    """ 
        Attributes:
            id (str):
            url (str):
            events (list[EventTypeEnum]):
            active (bool):
            api_version (str): The API version its deliveries are in.
            updated_at (datetime.datetime):
     """

    id: str
    url: str
    events: list[EventTypeEnum]
    active: bool
    api_version: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)



        active = self.active

        api_version = self.api_version

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "url": url,
            "events": events,
            "active": active,
            "api_version": api_version,
            "updated_at": updated_at,
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

        api_version = d.pop("api_version")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        webhook_updated = cls(
            id=id,
            url=url,
            events=events,
            active=active,
            api_version=api_version,
            updated_at=updated_at,
        )


        webhook_updated.additional_properties = d
        return webhook_updated

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
