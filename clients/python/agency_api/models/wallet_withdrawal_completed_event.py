from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.wallet_withdrawal_completed_event_type import WalletWithdrawalCompletedEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.wallet_withdrawal_completed_event_data import WalletWithdrawalCompletedEventData





T = TypeVar("T", bound="WalletWithdrawalCompletedEvent")



@_attrs_define
class WalletWithdrawalCompletedEvent:
    """ The body of a `wallet.withdrawal.completed` delivery (signed; see docs/webhooks.md).

        Example:
            {'id': 'evt_01m8j0t8reffmtqa8g67brq81z', 'type': 'wallet.withdrawal.completed', 'api_version': '2026-11-28',
                'created_at': '2026-11-28T21:26:10.479Z', 'data': {'object': {'id': 'wdr_01m8j0t8ns29vq32vc9te0f20h', 'amount':
                '150.00', 'currency': 'BRL', 'status': 'completed', 'destination': {'type': 'pix', 'pix_key_type': 'cnpj',
                'pix_key': '11222333000181', 'holder_name': 'Demo Travel', 'holder_tax_id': '11.222.333/0001-81'},
                'failure_code': None, 'failure_reason': None, 'transaction_id': 'txn_01m8j0t8nssmec4pcjr927wmev',
                'refund_transaction_id': None, 'created_at': '2026-11-28T21:26:10.360Z', 'completed_at':
                '2026-11-28T21:26:10.445Z', 'failed_at': None}, 'previous_attributes': {'status': 'pending', 'completed_at':
                None}}, 'team_id': 'team_01m8j0t4nwezgxakxz7yxps941', 'webhook_id': 'wh_01m84tymf0example0000000000',
                'live_mode': False}

        Attributes:
            id (str): evt_…
            type_ (WalletWithdrawalCompletedEventType):
            api_version (str):
            created_at (datetime.datetime):
            data (WalletWithdrawalCompletedEventData):
            team_id (str):
            webhook_id (None | str):
            live_mode (bool): true for the live mode's events, false for the test mode's.
     """

    id: str
    type_: WalletWithdrawalCompletedEventType
    api_version: str
    created_at: datetime.datetime
    data: WalletWithdrawalCompletedEventData
    team_id: str
    webhook_id: None | str
    live_mode: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.wallet_withdrawal_completed_event_data import WalletWithdrawalCompletedEventData # noqa: PLC0415
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
        from ..models.wallet_withdrawal_completed_event_data import WalletWithdrawalCompletedEventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = WalletWithdrawalCompletedEventType(d.pop("type"))




        api_version = d.pop("api_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = WalletWithdrawalCompletedEventData.from_dict(d.pop("data"))




        team_id = d.pop("team_id")

        def _parse_webhook_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id"))


        live_mode = d.pop("live_mode")

        wallet_withdrawal_completed_event = cls(
            id=id,
            type_=type_,
            api_version=api_version,
            created_at=created_at,
            data=data,
            team_id=team_id,
            webhook_id=webhook_id,
            live_mode=live_mode,
        )


        wallet_withdrawal_completed_event.additional_properties = d
        return wallet_withdrawal_completed_event

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
