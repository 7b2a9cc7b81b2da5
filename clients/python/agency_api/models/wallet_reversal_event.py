from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.wallet_reversal_event_type import WalletReversalEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.wallet_reversal_event_data import WalletReversalEventData





T = TypeVar("T", bound="WalletReversalEvent")



@_attrs_define
class WalletReversalEvent:
    """ The body of a `wallet.reversal` delivery (signed; see docs/webhooks.md).

        Example:
            {'id': 'evt_01m8j0x20jhm87nkx6ev7q9vxe', 'type': 'wallet.reversal', 'api_version': '2026-11-28', 'created_at':
                '2026-11-28T21:27:41.842Z', 'data': {'object': {'id': 'rvs_01m8j0x20afav4d483ahptsa5q', 'object': 'reversal',
                'reason': 'refund', 'status': 'applied', 'amount': '300.00', 'currency': 'BRL', 'recharge': {'id':
                'rch_01m8j0x1yca5hsxspftx6n653y', 'amount': '300.00', 'currency': 'BRL', 'status': 'completed',
                'payment_method': 'pix', 'created_at': '2026-11-28T21:27:41.750Z', 'paid_at': '2026-11-28T21:27:41.806Z',
                'transaction_id': 'txn_01m8j0x1z2pkxn0br408nx7mzm'}, 'transaction': {'id': 'txn_01m8j0x20g47cjrhsnkam2ehv7',
                'type': 'debit', 'amount': '100.00', 'currency': 'BRL', 'description': 'Refund of recharge
                rch_01m8j0x1yca5hsxspftx6n653y', 'reference_type': 'reversal', 'reference_id': 'rvs_01m8j0x20afav4d483ahptsa5q',
                'balance_after': '0.00', 'created_at': '2026-11-28T21:27:41.840Z'}, 'debt_created': '200.00',
                'debt_outstanding': '200.00', 'credit_transaction': None, 'wallet': {'debt_amount': '200.00', 'restricted':
                True}, 'created_at': '2026-11-28T21:27:41.834Z', 'cancelled_at': None}, 'previous_attributes': {}}, 'team_id':
                'team_01m8j0wwwbps45fz8jsgy5ra97', 'webhook_id': 'wh_01m84tymf0example0000000000', 'live_mode': False}

        Attributes:
            id (str): evt_…
            type_ (WalletReversalEventType):
            api_version (str):
            created_at (datetime.datetime):
            data (WalletReversalEventData):
            team_id (str):
            webhook_id (None | str):
            live_mode (bool): true for the live mode's events, false for the test mode's.
     """

    id: str
    type_: WalletReversalEventType
    api_version: str
    created_at: datetime.datetime
    data: WalletReversalEventData
    team_id: str
    webhook_id: None | str
    live_mode: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.wallet_reversal_event_data import WalletReversalEventData # noqa: PLC0415
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
        from ..models.wallet_reversal_event_data import WalletReversalEventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = WalletReversalEventType(d.pop("type"))




        api_version = d.pop("api_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        data = WalletReversalEventData.from_dict(d.pop("data"))




        team_id = d.pop("team_id")

        def _parse_webhook_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id"))


        live_mode = d.pop("live_mode")

        wallet_reversal_event = cls(
            id=id,
            type_=type_,
            api_version=api_version,
            created_at=created_at,
            data=data,
            team_id=team_id,
            webhook_id=webhook_id,
            live_mode=live_mode,
        )


        wallet_reversal_event.additional_properties = d
        return wallet_reversal_event

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
