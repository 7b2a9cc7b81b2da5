from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.event_type_enum import EventTypeEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.event_data import EventData





T = TypeVar("T", bound="Event")



@_attrs_define
class Event:
    """ An event exactly as it is delivered (`webhook_id` null: read here, not delivered).

        Attributes:
            id (str): evt_…
            type_ (EventTypeEnum): * `api_key.created` - api_key.created
                * `api_key.revoked` - api_key.revoked
                * `booking.airline_change_detected` - booking.airline_change_detected
                * `booking.cancelled` - booking.cancelled
                * `booking.confirmed` - booking.confirmed
                * `booking.created` - booking.created
                * `booking.expired` - booking.expired
                * `booking.failed` - booking.failed
                * `booking.ticketed` - booking.ticketed
                * `booking.updated` - booking.updated
                * `integration.connected` - integration.connected
                * `integration.disconnected` - integration.disconnected
                * `wallet.credit` - wallet.credit
                * `wallet.debit` - wallet.debit
                * `wallet.low_balance` - wallet.low_balance
                * `wallet.recharge.completed` - wallet.recharge.completed
                * `wallet.recharge.expired` - wallet.recharge.expired
                * `wallet.recharge.pending` - wallet.recharge.pending
                * `wallet.reversal` - wallet.reversal
                * `wallet.withdrawal.completed` - wallet.withdrawal.completed
                * `wallet.withdrawal.created` - wallet.withdrawal.created
                * `wallet.withdrawal.failed` - wallet.withdrawal.failed
            api_version (str): API version date, YYYY-MM-DD.
            created_at (datetime.datetime):
            data (EventData):
            team_id (str):
            webhook_id (None | str):
     """

    id: str
    type_: EventTypeEnum
    api_version: str
    created_at: datetime.datetime
    data: EventData
    team_id: str
    webhook_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_data import EventData # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        api_version = self.api_version

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        team_id = self.team_id

        webhook_id: None | str
        webhook_id = self.webhook_id


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
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_data import EventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = EventTypeEnum(d.pop("type"))




        api_version = d.pop("api_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = EventData.from_dict(d.pop("data"))




        team_id = d.pop("team_id")

        def _parse_webhook_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id"))


        event = cls(
            id=id,
            type_=type_,
            api_version=api_version,
            created_at=created_at,
            data=data,
            team_id=team_id,
            webhook_id=webhook_id,
        )


        event.additional_properties = d
        return event

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
