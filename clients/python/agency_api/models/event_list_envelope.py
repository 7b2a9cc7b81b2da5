from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.api_key_created_event import ApiKeyCreatedEvent
  from ..models.api_key_revoked_event import ApiKeyRevokedEvent
  from ..models.booking_airline_change_detected_event import BookingAirlineChangeDetectedEvent
  from ..models.booking_cancelled_event import BookingCancelledEvent
  from ..models.booking_confirmed_event import BookingConfirmedEvent
  from ..models.booking_created_event import BookingCreatedEvent
  from ..models.booking_expired_event import BookingExpiredEvent
  from ..models.booking_failed_event import BookingFailedEvent
  from ..models.booking_ticketed_event import BookingTicketedEvent
  from ..models.booking_updated_event import BookingUpdatedEvent
  from ..models.event_pagination import EventPagination
  from ..models.integration_connected_event import IntegrationConnectedEvent
  from ..models.integration_disconnected_event import IntegrationDisconnectedEvent
  from ..models.meta import Meta
  from ..models.wallet_credit_event import WalletCreditEvent
  from ..models.wallet_debit_event import WalletDebitEvent
  from ..models.wallet_low_balance_event import WalletLowBalanceEvent
  from ..models.wallet_recharge_completed_event import WalletRechargeCompletedEvent
  from ..models.wallet_recharge_expired_event import WalletRechargeExpiredEvent
  from ..models.wallet_recharge_pending_event import WalletRechargePendingEvent
  from ..models.wallet_reversal_event import WalletReversalEvent
  from ..models.wallet_withdrawal_completed_event import WalletWithdrawalCompletedEvent
  from ..models.wallet_withdrawal_created_event import WalletWithdrawalCreatedEvent
  from ..models.wallet_withdrawal_failed_event import WalletWithdrawalFailedEvent





T = TypeVar("T", bound="EventListEnvelope")



@_attrs_define
class EventListEnvelope:
    """ 
        Attributes:
            data (list[ApiKeyCreatedEvent | ApiKeyRevokedEvent | BookingAirlineChangeDetectedEvent | BookingCancelledEvent |
                BookingConfirmedEvent | BookingCreatedEvent | BookingExpiredEvent | BookingFailedEvent | BookingTicketedEvent |
                BookingUpdatedEvent | IntegrationConnectedEvent | IntegrationDisconnectedEvent | WalletCreditEvent |
                WalletDebitEvent | WalletLowBalanceEvent | WalletRechargeCompletedEvent | WalletRechargeExpiredEvent |
                WalletRechargePendingEvent | WalletReversalEvent | WalletWithdrawalCompletedEvent | WalletWithdrawalCreatedEvent
                | WalletWithdrawalFailedEvent]):
            pagination (EventPagination): The spec's `pagination` in page mode; `{limit, has_more}` with a cursor (no
                count).
            success (bool | Unset):  Default: True.
            field_meta (Meta | Unset): Present on every answer to a test key (`sk_test_…`), errors included.
     """

    data: list[ApiKeyCreatedEvent | ApiKeyRevokedEvent | BookingAirlineChangeDetectedEvent | BookingCancelledEvent | BookingConfirmedEvent | BookingCreatedEvent | BookingExpiredEvent | BookingFailedEvent | BookingTicketedEvent | BookingUpdatedEvent | IntegrationConnectedEvent | IntegrationDisconnectedEvent | WalletCreditEvent | WalletDebitEvent | WalletLowBalanceEvent | WalletRechargeCompletedEvent | WalletRechargeExpiredEvent | WalletRechargePendingEvent | WalletReversalEvent | WalletWithdrawalCompletedEvent | WalletWithdrawalCreatedEvent | WalletWithdrawalFailedEvent]
    pagination: EventPagination
    success: bool | Unset = True
    field_meta: Meta | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.api_key_created_event import ApiKeyCreatedEvent # noqa: PLC0415
        from ..models.api_key_revoked_event import ApiKeyRevokedEvent # noqa: PLC0415
        from ..models.booking_airline_change_detected_event import BookingAirlineChangeDetectedEvent # noqa: PLC0415
        from ..models.booking_cancelled_event import BookingCancelledEvent # noqa: PLC0415
        from ..models.booking_confirmed_event import BookingConfirmedEvent # noqa: PLC0415
        from ..models.booking_created_event import BookingCreatedEvent # noqa: PLC0415
        from ..models.booking_expired_event import BookingExpiredEvent # noqa: PLC0415
        from ..models.booking_failed_event import BookingFailedEvent # noqa: PLC0415
        from ..models.booking_ticketed_event import BookingTicketedEvent # noqa: PLC0415
        from ..models.booking_updated_event import BookingUpdatedEvent # noqa: PLC0415
        from ..models.event_pagination import EventPagination # noqa: PLC0415
        from ..models.integration_connected_event import IntegrationConnectedEvent # noqa: PLC0415
        from ..models.integration_disconnected_event import IntegrationDisconnectedEvent # noqa: PLC0415
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.wallet_credit_event import WalletCreditEvent # noqa: PLC0415
        from ..models.wallet_debit_event import WalletDebitEvent # noqa: PLC0415
        from ..models.wallet_low_balance_event import WalletLowBalanceEvent # noqa: PLC0415
        from ..models.wallet_recharge_completed_event import WalletRechargeCompletedEvent # noqa: PLC0415
        from ..models.wallet_recharge_expired_event import WalletRechargeExpiredEvent # noqa: PLC0415
        from ..models.wallet_recharge_pending_event import WalletRechargePendingEvent # noqa: PLC0415
        from ..models.wallet_reversal_event import WalletReversalEvent # noqa: PLC0415
        from ..models.wallet_withdrawal_completed_event import WalletWithdrawalCompletedEvent # noqa: PLC0415
        from ..models.wallet_withdrawal_created_event import WalletWithdrawalCreatedEvent # noqa: PLC0415
        from ..models.wallet_withdrawal_failed_event import WalletWithdrawalFailedEvent # noqa: PLC0415
        data = []
        for data_item_data in self.data:
            data_item: dict[str, Any]
            if isinstance(data_item_data, ApiKeyCreatedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, ApiKeyRevokedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingAirlineChangeDetectedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingCancelledEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingConfirmedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingCreatedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingExpiredEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingFailedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingTicketedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BookingUpdatedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, IntegrationConnectedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, IntegrationDisconnectedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletCreditEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletDebitEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletLowBalanceEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletRechargeCompletedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletRechargeExpiredEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletRechargePendingEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletReversalEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletWithdrawalCompletedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WalletWithdrawalCreatedEvent):
                data_item = data_item_data.to_dict()
            else:
                data_item = data_item_data.to_dict()

            data.append(data_item)



        pagination = self.pagination.to_dict()

        success = self.success

        field_meta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_meta, Unset):
            field_meta = self.field_meta.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
            "pagination": pagination,
        })
        if success is not UNSET:
            field_dict["success"] = success
        if field_meta is not UNSET:
            field_dict["_meta"] = field_meta

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_key_created_event import ApiKeyCreatedEvent # noqa: PLC0415
        from ..models.api_key_revoked_event import ApiKeyRevokedEvent # noqa: PLC0415
        from ..models.booking_airline_change_detected_event import BookingAirlineChangeDetectedEvent # noqa: PLC0415
        from ..models.booking_cancelled_event import BookingCancelledEvent # noqa: PLC0415
        from ..models.booking_confirmed_event import BookingConfirmedEvent # noqa: PLC0415
        from ..models.booking_created_event import BookingCreatedEvent # noqa: PLC0415
        from ..models.booking_expired_event import BookingExpiredEvent # noqa: PLC0415
        from ..models.booking_failed_event import BookingFailedEvent # noqa: PLC0415
        from ..models.booking_ticketed_event import BookingTicketedEvent # noqa: PLC0415
        from ..models.booking_updated_event import BookingUpdatedEvent # noqa: PLC0415
        from ..models.event_pagination import EventPagination # noqa: PLC0415
        from ..models.integration_connected_event import IntegrationConnectedEvent # noqa: PLC0415
        from ..models.integration_disconnected_event import IntegrationDisconnectedEvent # noqa: PLC0415
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.wallet_credit_event import WalletCreditEvent # noqa: PLC0415
        from ..models.wallet_debit_event import WalletDebitEvent # noqa: PLC0415
        from ..models.wallet_low_balance_event import WalletLowBalanceEvent # noqa: PLC0415
        from ..models.wallet_recharge_completed_event import WalletRechargeCompletedEvent # noqa: PLC0415
        from ..models.wallet_recharge_expired_event import WalletRechargeExpiredEvent # noqa: PLC0415
        from ..models.wallet_recharge_pending_event import WalletRechargePendingEvent # noqa: PLC0415
        from ..models.wallet_reversal_event import WalletReversalEvent # noqa: PLC0415
        from ..models.wallet_withdrawal_completed_event import WalletWithdrawalCompletedEvent # noqa: PLC0415
        from ..models.wallet_withdrawal_created_event import WalletWithdrawalCreatedEvent # noqa: PLC0415
        from ..models.wallet_withdrawal_failed_event import WalletWithdrawalFailedEvent # noqa: PLC0415
        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            def _parse_data_item(data: object) -> ApiKeyCreatedEvent | ApiKeyRevokedEvent | BookingAirlineChangeDetectedEvent | BookingCancelledEvent | BookingConfirmedEvent | BookingCreatedEvent | BookingExpiredEvent | BookingFailedEvent | BookingTicketedEvent | BookingUpdatedEvent | IntegrationConnectedEvent | IntegrationDisconnectedEvent | WalletCreditEvent | WalletDebitEvent | WalletLowBalanceEvent | WalletRechargeCompletedEvent | WalletRechargeExpiredEvent | WalletRechargePendingEvent | WalletReversalEvent | WalletWithdrawalCompletedEvent | WalletWithdrawalCreatedEvent | WalletWithdrawalFailedEvent:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_0 = ApiKeyCreatedEvent.from_dict(data)



                    return componentsschemas_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_1 = ApiKeyRevokedEvent.from_dict(data)



                    return componentsschemas_event_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_2 = BookingAirlineChangeDetectedEvent.from_dict(data)



                    return componentsschemas_event_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_3 = BookingCancelledEvent.from_dict(data)



                    return componentsschemas_event_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_4 = BookingConfirmedEvent.from_dict(data)



                    return componentsschemas_event_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_5 = BookingCreatedEvent.from_dict(data)



                    return componentsschemas_event_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_6 = BookingExpiredEvent.from_dict(data)



                    return componentsschemas_event_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_7 = BookingFailedEvent.from_dict(data)



                    return componentsschemas_event_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_8 = BookingTicketedEvent.from_dict(data)



                    return componentsschemas_event_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_9 = BookingUpdatedEvent.from_dict(data)



                    return componentsschemas_event_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_10 = IntegrationConnectedEvent.from_dict(data)



                    return componentsschemas_event_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_11 = IntegrationDisconnectedEvent.from_dict(data)



                    return componentsschemas_event_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_12 = WalletCreditEvent.from_dict(data)



                    return componentsschemas_event_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_13 = WalletDebitEvent.from_dict(data)



                    return componentsschemas_event_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_14 = WalletLowBalanceEvent.from_dict(data)



                    return componentsschemas_event_type_14
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_15 = WalletRechargeCompletedEvent.from_dict(data)



                    return componentsschemas_event_type_15
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_16 = WalletRechargeExpiredEvent.from_dict(data)



                    return componentsschemas_event_type_16
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_17 = WalletRechargePendingEvent.from_dict(data)



                    return componentsschemas_event_type_17
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_18 = WalletReversalEvent.from_dict(data)



                    return componentsschemas_event_type_18
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_19 = WalletWithdrawalCompletedEvent.from_dict(data)



                    return componentsschemas_event_type_19
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_20 = WalletWithdrawalCreatedEvent.from_dict(data)



                    return componentsschemas_event_type_20
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_21 = WalletWithdrawalFailedEvent.from_dict(data)



                return componentsschemas_event_type_21

            data_item = _parse_data_item(data_item_data)

            data.append(data_item)


        pagination = EventPagination.from_dict(d.pop("pagination"))




        success = d.pop("success", UNSET)

        _field_meta = d.pop("_meta", UNSET)
        field_meta: Meta | Unset
        if isinstance(_field_meta,  Unset):
            field_meta = UNSET
        else:
            field_meta = Meta.from_dict(_field_meta)




        event_list_envelope = cls(
            data=data,
            pagination=pagination,
            success=success,
            field_meta=field_meta,
        )


        event_list_envelope.additional_properties = d
        return event_list_envelope

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
