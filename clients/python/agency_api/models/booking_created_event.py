from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_created_event_type import BookingCreatedEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.booking_created_event_data import BookingCreatedEventData





T = TypeVar("T", bound="BookingCreatedEvent")



@_attrs_define
class BookingCreatedEvent:
    """ The body of a `booking.created` delivery (signed; see docs/webhooks.md).

        Example:
            {'id': 'evt_01m8j0gv5yg3r43fkeh5ttbph3', 'type': 'booking.created', 'api_version': '2026-11-28', 'created_at':
                '2026-11-28T21:21:01.630Z', 'data': {'object': {'id': 'ord_01m8j0gv59j0pg0b6sswe5ayc3', 'booking_reference': '',
                'status': 'pending', 'total_amount': '777.29', 'total_currency': 'BRL', 'documents': [], 'passengers': [{'id':
                'pas_01m8j0gsqpet60qa2wdrmq2ckh', 'type': 'adult', 'given_name': 'Ana', 'family_name': 'Issuancefail', 'gender':
                'f', 'born_on': '1990-05-01', 'email': 'ana@example.com', 'phone_number': '+5511987654321'}], 'slices': [{'id':
                'sli_01m8j0gsqphe8xhxd5ypxk2p98', 'origin': {'iata_code': 'CGH', 'name': 'Congonhas Airport', 'city_name': 'Sao
                Paulo', 'iata_city_code': 'SAO', 'time_zone': 'America/Sao_Paulo'}, 'destination': {'iata_code': 'GIG', 'name':
                'Galeao - Antonio Carlos Jobim International Airport', 'city_name': 'Rio de Janeiro', 'iata_city_code': 'RIO',
                'time_zone': 'America/Sao_Paulo'}, 'duration': 'PT55M', 'fare_brand_name': 'Light', 'segments': [{'id':
                'seg_01m8j0gsqpmfss1xd24h5hk9ej', 'origin': {'iata_code': 'CGH', 'name': 'Congonhas Airport', 'terminal': None},
                'destination': {'iata_code': 'GIG', 'name': 'Galeao - Antonio Carlos Jobim International Airport', 'terminal':
                '2'}, 'departing_at': '2027-01-27T08:30:00', 'arriving_at': '2027-01-27T09:25:00', 'operating_carrier':
                {'iata_code': 'G3', 'name': 'GOL Linhas Aéreas', 'logo_symbol_url': 'https://assets.duffel.com/img/airlines/for-
                light-background/full-color-logo/G3.svg'}, 'marketing_carrier': {'iata_code': 'G3', 'name': 'GOL Linhas
                Aéreas'}, 'operating_carrier_flight_number': '4737', 'marketing_carrier_flight_number': '4737', 'aircraft':
                {'iata_code': '738', 'name': 'Boeing 737-800'}, 'duration': 'PT55M', 'distance': '359.7', 'passengers':
                [{'passenger_id': 'pas_01m8j0gsqpet60qa2wdrmq2ckh', 'cabin_class': 'economy', 'seat': None, 'baggages':
                [{'type': 'carry_on', 'quantity': 1}, {'type': 'checked', 'quantity': 0}]}]}]}, {'id':
                'sli_01m8j0gsqpgweh51dvrcnyscs5', 'origin': {'iata_code': 'GIG', 'name': 'Galeao - Antonio Carlos Jobim
                International Airport', 'city_name': 'Rio de Janeiro', 'iata_city_code': 'RIO', 'time_zone':
                'America/Sao_Paulo'}, 'destination': {'iata_code': 'CGH', 'name': 'Congonhas Airport', 'city_name': 'Sao Paulo',
                'iata_city_code': 'SAO', 'time_zone': 'America/Sao_Paulo'}, 'duration': 'PT55M', 'fare_brand_name': 'Light',
                'segments': [{'id': 'seg_01m8j0gsqp9ynvpz6snmr6xa34', 'origin': {'iata_code': 'GIG', 'name': 'Galeao - Antonio
                Carlos Jobim International Airport', 'terminal': '2'}, 'destination': {'iata_code': 'CGH', 'name': 'Congonhas
                Airport', 'terminal': None}, 'departing_at': '2027-02-10T08:10:00', 'arriving_at': '2027-02-10T09:05:00',
                'operating_carrier': {'iata_code': 'G3', 'name': 'GOL Linhas Aéreas', 'logo_symbol_url':
                'https://assets.duffel.com/img/airlines/for-light-background/full-color-logo/G3.svg'}, 'marketing_carrier':
                {'iata_code': 'G3', 'name': 'GOL Linhas Aéreas'}, 'operating_carrier_flight_number': '2214',
                'marketing_carrier_flight_number': '2214', 'aircraft': {'iata_code': '7M8', 'name': 'Boeing 737 MAX 8'},
                'duration': 'PT55M', 'distance': '359.7', 'passengers': [{'passenger_id': 'pas_01m8j0gsqpet60qa2wdrmq2ckh',
                'cabin_class': 'economy', 'seat': None, 'baggages': [{'type': 'carry_on', 'quantity': 1}, {'type': 'checked',
                'quantity': 0}]}]}]}], 'created_at': '2026-11-28T21:21:01.610Z'}, 'previous_attributes': {}}, 'team_id':
                'team_01m8j0grmk82xbn588d0qrnyek', 'webhook_id': 'wh_01m84tymf0example0000000000', 'live_mode': False}

        Attributes:
            id (str): evt_…
            type_ (BookingCreatedEventType):
            api_version (str):
            created_at (datetime.datetime):
            data (BookingCreatedEventData):
            team_id (str):
            webhook_id (None | str):
            live_mode (bool): true for the live mode's events, false for the test mode's.
     """

    id: str
    type_: BookingCreatedEventType
    api_version: str
    created_at: datetime.datetime
    data: BookingCreatedEventData
    team_id: str
    webhook_id: None | str
    live_mode: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_created_event_data import BookingCreatedEventData # noqa: PLC0415
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
        from ..models.booking_created_event_data import BookingCreatedEventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = BookingCreatedEventType(d.pop("type"))




        api_version = d.pop("api_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = BookingCreatedEventData.from_dict(d.pop("data"))




        team_id = d.pop("team_id")

        def _parse_webhook_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id"))


        live_mode = d.pop("live_mode")

        booking_created_event = cls(
            id=id,
            type_=type_,
            api_version=api_version,
            created_at=created_at,
            data=data,
            team_id=team_id,
            webhook_id=webhook_id,
            live_mode=live_mode,
        )


        booking_created_event.additional_properties = d
        return booking_created_event

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
