from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.api_version_enum import ApiVersionEnum
from ..models.event_type_enum import EventTypeEnum
from typing import cast
import datetime






T = TypeVar("T", bound="Webhook")



@_attrs_define
class Webhook:
    """ 
        Attributes:
            id (str):
            url (str):
            events (list[EventTypeEnum]):
            active (bool):
            created_at (datetime.datetime):
            last_triggered_at (datetime.datetime | None):
            success_rate (float): Attempts answered 2xx, percent.
            total_deliveries (int): Attempts made.
            failed_deliveries (int): Attempts that failed.
            api_version (ApiVersionEnum): * `2026-11-22` - 2026-11-22
                * `2026-11-28` - 2026-11-28
     """

    id: str
    url: str
    events: list[EventTypeEnum]
    active: bool
    created_at: datetime.datetime
    last_triggered_at: datetime.datetime | None
    success_rate: float
    total_deliveries: int
    failed_deliveries: int
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

        created_at = self.created_at.isoformat()

        last_triggered_at: None | str
        if isinstance(self.last_triggered_at, datetime.datetime):
            last_triggered_at = self.last_triggered_at.isoformat()
        else:
            last_triggered_at = self.last_triggered_at

        success_rate = self.success_rate

        total_deliveries = self.total_deliveries

        failed_deliveries = self.failed_deliveries

        api_version = self.api_version.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "url": url,
            "events": events,
            "active": active,
            "created_at": created_at,
            "last_triggered_at": last_triggered_at,
            "success_rate": success_rate,
            "total_deliveries": total_deliveries,
            "failed_deliveries": failed_deliveries,
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

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_last_triggered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_triggered_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_triggered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_triggered_at = _parse_last_triggered_at(d.pop("last_triggered_at"))


        success_rate = d.pop("success_rate")

        total_deliveries = d.pop("total_deliveries")

        failed_deliveries = d.pop("failed_deliveries")

        api_version = ApiVersionEnum(d.pop("api_version"))




        webhook = cls(
            id=id,
            url=url,
            events=events,
            active=active,
            created_at=created_at,
            last_triggered_at=last_triggered_at,
            success_rate=success_rate,
            total_deliveries=total_deliveries,
            failed_deliveries=failed_deliveries,
            api_version=api_version,
        )


        webhook.additional_properties = d
        return webhook

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
