from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_expired_event_type import BookingExpiredEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.booking_expired_event_data import BookingExpiredEventData





T = TypeVar("T", bound="BookingExpiredEvent")



@_attrs_define
class BookingExpiredEvent:
    """ The body of a `booking.expired` delivery (signed; see docs/webhooks.md).

        Example:
            {'id': 'evt_01m8j0gv4xj1gygycd9p1qpw64', 'type': 'booking.expired', 'api_version': '2026-11-28', 'created_at':
                '2026-11-28T21:21:01.597Z', 'data': {'object': {'id': 'ord_01m8j0gv38vpbnajjhbm0e4p6w', 'booking_reference':
                'JAC4FA', 'status': 'expired', 'total_amount': '845.41', 'total_currency': 'BRL', 'documents': [], 'passengers':
                [{'id': 'pas_01m8j0gsqpet60qa2wdrmq2ckh', 'type': 'adult', 'given_name': 'Ana', 'family_name': 'Souza',
                'gender': 'f', 'born_on': '1990-05-01', 'email': 'ana@example.com', 'phone_number': '+5511987654321'}],
                'slices': [{'id': 'sli_01m8j0gsqp5pnk030mqm3ddez9', 'origin': {'iata_code': 'CGH', 'name': 'Congonhas Airport',
                'city_name': 'Sao Paulo', 'iata_city_code': 'SAO', 'time_zone': 'America/Sao_Paulo'}, 'destination':
                {'iata_code': 'GIG', 'name': 'Galeao - Antonio Carlos Jobim International Airport', 'city_name': 'Rio de
                Janeiro', 'iata_city_code': 'RIO', 'time_zone': 'America/Sao_Paulo'}, 'duration': 'PT55M', 'fare_brand_name':
                'Light', 'segments': [{'id': 'seg_01m8j0gsqp712w0gydh9d5r04h', 'origin': {'iata_code': 'CGH', 'name': 'Congonhas
                Airport', 'terminal': None}, 'destination': {'iata_code': 'GIG', 'name': 'Galeao - Antonio Carlos Jobim
                International Airport', 'terminal': '2'}, 'departing_at': '2027-01-27T07:35:00', 'arriving_at':
                '2027-01-27T08:30:00', 'operating_carrier': {'iata_code': 'LA', 'name': 'LATAM Airlines', 'logo_symbol_url':
                'https://assets.duffel.com/img/airlines/for-light-background/full-color-logo/LA.svg'}, 'marketing_carrier':
                {'iata_code': 'LA', 'name': 'LATAM Airlines'}, 'operating_carrier_flight_number': '4543',
                'marketing_carrier_flight_number': '4543', 'aircraft': {'iata_code': '321', 'name': 'Airbus A321'}, 'duration':
                'PT55M', 'distance': '359.7', 'passengers': [{'passenger_id': 'pas_01m8j0gsqpet60qa2wdrmq2ckh', 'cabin_class':
                'economy', 'seat': None, 'baggages': [{'type': 'carry_on', 'quantity': 1}, {'type': 'checked', 'quantity':
                1}]}]}]}, {'id': 'sli_01m8j0gsqpddkbc1fskq2s1hd8', 'origin': {'iata_code': 'SDU', 'name': 'Santos Dumont
                Airport', 'city_name': 'Rio de Janeiro', 'iata_city_code': 'RIO', 'time_zone': 'America/Sao_Paulo'},
                'destination': {'iata_code': 'CGH', 'name': 'Congonhas Airport', 'city_name': 'Sao Paulo', 'iata_city_code':
                'SAO', 'time_zone': 'America/Sao_Paulo'}, 'duration': 'PT55M', 'fare_brand_name': 'Light', 'segments': [{'id':
                'seg_01m8j0gsqpks2pt8frz11n9mj8', 'origin': {'iata_code': 'SDU', 'name': 'Santos Dumont Airport', 'terminal':
                None}, 'destination': {'iata_code': 'CGH', 'name': 'Congonhas Airport', 'terminal': None}, 'departing_at':
                '2027-02-10T07:25:00', 'arriving_at': '2027-02-10T08:20:00', 'operating_carrier': {'iata_code': 'LA', 'name':
                'LATAM Airlines', 'logo_symbol_url': 'https://assets.duffel.com/img/airlines/for-light-background/full-color-
                logo/LA.svg'}, 'marketing_carrier': {'iata_code': 'LA', 'name': 'LATAM Airlines'},
                'operating_carrier_flight_number': '4952', 'marketing_carrier_flight_number': '4952', 'aircraft': {'iata_code':
                '32N', 'name': 'Airbus A320neo'}, 'duration': 'PT55M', 'distance': '365.6', 'passengers': [{'passenger_id':
                'pas_01m8j0gsqpet60qa2wdrmq2ckh', 'cabin_class': 'economy', 'seat': None, 'baggages': [{'type': 'carry_on',
                'quantity': 1}, {'type': 'checked', 'quantity': 1}]}]}]}], 'created_at': '2026-11-28T21:21:01.544Z'},
                'previous_attributes': {'status': 'pending'}}, 'team_id': 'team_01m8j0grmk82xbn588d0qrnyek', 'webhook_id':
                'wh_01m84tymf0example0000000000', 'live_mode': False}

        Attributes:
            id (str): evt_…
            type_ (BookingExpiredEventType):
            api_version (str):
            created_at (datetime.datetime):
            data (BookingExpiredEventData):
            team_id (str):
            webhook_id (None | str):
            live_mode (bool): true for the live mode's events, false for the test mode's.
     """

    id: str
    type_: BookingExpiredEventType
    api_version: str
    created_at: datetime.datetime
    data: BookingExpiredEventData
    team_id: str
    webhook_id: None | str
    live_mode: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_expired_event_data import BookingExpiredEventData # noqa: PLC0415
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
        from ..models.booking_expired_event_data import BookingExpiredEventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = BookingExpiredEventType(d.pop("type"))




        api_version = d.pop("api_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = BookingExpiredEventData.from_dict(d.pop("data"))




        team_id = d.pop("team_id")

        def _parse_webhook_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id"))


        live_mode = d.pop("live_mode")

        booking_expired_event = cls(
            id=id,
            type_=type_,
            api_version=api_version,
            created_at=created_at,
            data=data,
            team_id=team_id,
            webhook_id=webhook_id,
            live_mode=live_mode,
        )


        booking_expired_event.additional_properties = d
        return booking_expired_event

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
