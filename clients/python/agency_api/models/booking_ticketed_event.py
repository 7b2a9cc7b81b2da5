from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_ticketed_event_type import BookingTicketedEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.booking_ticketed_event_data import BookingTicketedEventData





T = TypeVar("T", bound="BookingTicketedEvent")



@_attrs_define
class BookingTicketedEvent:
    """ The body of a `booking.ticketed` delivery (signed; see docs/webhooks.md).

        Example:
            {'id': 'evt_01m8j0gtrajvnqzx57t7y9ter3', 'type': 'booking.ticketed', 'api_version': '2026-11-28', 'created_at':
                '2026-11-28T21:21:01.194Z', 'data': {'object': {'id': 'ord_01m8j0gtqjzkzqe3mqjt069de5', 'booking_reference':
                'HGAUH4', 'status': 'ticketed', 'total_amount': '391.32', 'total_currency': 'BRL', 'documents': [{'type':
                'electronic_ticket', 'unique_identifier': '5774377815713', 'passenger_id': 'pas_01m8j0gtpxp8fwrq80ptxcy2es'}],
                'passengers': [{'id': 'pas_01m8j0gtpxp8fwrq80ptxcy2es', 'type': 'adult', 'given_name': 'Ana', 'family_name':
                'Souza', 'gender': 'f', 'born_on': '1990-05-01', 'email': 'ana@example.com', 'phone_number': '+5511987654321'}],
                'slices': [{'id': 'sli_01m8j0gtpxmth1pfn4scwmrh4g', 'origin': {'iata_code': 'VCP', 'name': 'Viracopos
                International Airport', 'city_name': 'Sao Paulo', 'iata_city_code': 'SAO', 'time_zone': 'America/Sao_Paulo'},
                'destination': {'iata_code': 'SDU', 'name': 'Santos Dumont Airport', 'city_name': 'Rio de Janeiro',
                'iata_city_code': 'RIO', 'time_zone': 'America/Sao_Paulo'}, 'duration': 'PT1H', 'fare_brand_name': 'Azul',
                'segments': [{'id': 'seg_01m8j0gtpx1tnkjpxa6y6qnhcn', 'origin': {'iata_code': 'VCP', 'name': 'Viracopos
                International Airport', 'terminal': None}, 'destination': {'iata_code': 'SDU', 'name': 'Santos Dumont Airport',
                'terminal': None}, 'departing_at': '2027-01-27T07:50:00', 'arriving_at': '2027-01-27T08:50:00',
                'operating_carrier': {'iata_code': 'AD', 'name': 'Azul Linhas Aéreas', 'logo_symbol_url':
                'https://assets.duffel.com/img/airlines/for-light-background/full-color-logo/AD.svg'}, 'marketing_carrier':
                {'iata_code': 'AD', 'name': 'Azul Linhas Aéreas'}, 'operating_carrier_flight_number': '2733',
                'marketing_carrier_flight_number': '2733', 'aircraft': {'iata_code': '32N', 'name': 'Airbus A320neo'},
                'duration': 'PT1H', 'distance': '406.7', 'passengers': [{'passenger_id': 'pas_01m8j0gtpxp8fwrq80ptxcy2es',
                'cabin_class': 'economy', 'seat': None, 'baggages': [{'type': 'carry_on', 'quantity': 1}, {'type': 'checked',
                'quantity': 1}]}]}]}], 'created_at': '2026-11-28T21:21:01.170Z'}, 'previous_attributes': {'status': 'confirmed',
                'documents': []}}, 'team_id': 'team_01m8j0grmk82xbn588d0qrnyek', 'webhook_id': 'wh_01m84tymf0example0000000000',
                'live_mode': False}

        Attributes:
            id (str): evt_…
            type_ (BookingTicketedEventType):
            api_version (str):
            created_at (datetime.datetime):
            data (BookingTicketedEventData):
            team_id (str):
            webhook_id (None | str):
            live_mode (bool): true for the live mode's events, false for the test mode's.
     """

    id: str
    type_: BookingTicketedEventType
    api_version: str
    created_at: datetime.datetime
    data: BookingTicketedEventData
    team_id: str
    webhook_id: None | str
    live_mode: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_ticketed_event_data import BookingTicketedEventData # noqa: PLC0415
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
        from ..models.booking_ticketed_event_data import BookingTicketedEventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = BookingTicketedEventType(d.pop("type"))




        api_version = d.pop("api_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = BookingTicketedEventData.from_dict(d.pop("data"))




        team_id = d.pop("team_id")

        def _parse_webhook_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id"))


        live_mode = d.pop("live_mode")

        booking_ticketed_event = cls(
            id=id,
            type_=type_,
            api_version=api_version,
            created_at=created_at,
            data=data,
            team_id=team_id,
            webhook_id=webhook_id,
            live_mode=live_mode,
        )


        booking_ticketed_event.additional_properties = d
        return booking_ticketed_event

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
