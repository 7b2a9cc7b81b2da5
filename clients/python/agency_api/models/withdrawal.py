from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.failure_code_enum import FailureCodeEnum
from ..models.withdrawal_status_enum import WithdrawalStatusEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.withdrawal_destination import WithdrawalDestination





T = TypeVar("T", bound="Withdrawal")



@_attrs_define
class Withdrawal:
    """ 
        Attributes:
            id (str): wdr_…
            amount (str):
            currency (str):
            status (WithdrawalStatusEnum): * `pending` - pending
                * `completed` - completed
                * `failed` - failed
                * `cancelled` - cancelled
            destination (WithdrawalDestination):
            failure_code (FailureCodeEnum | None): Why it failed or was cancelled (credited back): `holder_mismatch` (the
                key's holder is not the team's CNPJ/CPF), `refused` (the provider refused the request), `transfer_failed`,
                `transfer_cancelled`.

                * `holder_mismatch` - holder_mismatch
                * `refused` - refused
                * `transfer_failed` - transfer_failed
                * `transfer_cancelled` - transfer_cancelled
            failure_reason (None | str): The failure in words: the provider's, or ours.
            transaction_id (str): The wallet's debit (txn_…).
            refund_transaction_id (None | str): The credit back of a failed or cancelled withdrawal.
            created_at (datetime.datetime):
            completed_at (datetime.datetime | None):
            failed_at (datetime.datetime | None):
     """

    id: str
    amount: str
    currency: str
    status: WithdrawalStatusEnum
    destination: WithdrawalDestination
    failure_code: FailureCodeEnum | None
    failure_reason: None | str
    transaction_id: str
    refund_transaction_id: None | str
    created_at: datetime.datetime
    completed_at: datetime.datetime | None
    failed_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.withdrawal_destination import WithdrawalDestination # noqa: PLC0415
        id = self.id

        amount = self.amount

        currency = self.currency

        status = self.status.value

        destination = self.destination.to_dict()

        failure_code: None | str
        if isinstance(self.failure_code, FailureCodeEnum):
            failure_code = self.failure_code.value
        else:
            failure_code = self.failure_code

        failure_reason: None | str
        failure_reason = self.failure_reason

        transaction_id = self.transaction_id

        refund_transaction_id: None | str
        refund_transaction_id = self.refund_transaction_id

        created_at = self.created_at.isoformat()

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        failed_at: None | str
        if isinstance(self.failed_at, datetime.datetime):
            failed_at = self.failed_at.isoformat()
        else:
            failed_at = self.failed_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "amount": amount,
            "currency": currency,
            "status": status,
            "destination": destination,
            "failure_code": failure_code,
            "failure_reason": failure_reason,
            "transaction_id": transaction_id,
            "refund_transaction_id": refund_transaction_id,
            "created_at": created_at,
            "completed_at": completed_at,
            "failed_at": failed_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.withdrawal_destination import WithdrawalDestination # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        amount = d.pop("amount")

        currency = d.pop("currency")

        status = WithdrawalStatusEnum(d.pop("status"))




        destination = WithdrawalDestination.from_dict(d.pop("destination"))




        def _parse_failure_code(data: object) -> FailureCodeEnum | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failure_code_type_0 = FailureCodeEnum(data)



                return failure_code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FailureCodeEnum | None, data)

        failure_code = _parse_failure_code(d.pop("failure_code"))


        def _parse_failure_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason"))


        transaction_id = d.pop("transaction_id")

        def _parse_refund_transaction_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        refund_transaction_id = _parse_refund_transaction_id(d.pop("refund_transaction_id"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)



                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        def _parse_failed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failed_at_type_0 = datetime.datetime.fromisoformat(data)



                return failed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failed_at = _parse_failed_at(d.pop("failed_at"))


        withdrawal = cls(
            id=id,
            amount=amount,
            currency=currency,
            status=status,
            destination=destination,
            failure_code=failure_code,
            failure_reason=failure_reason,
            transaction_id=transaction_id,
            refund_transaction_id=refund_transaction_id,
            created_at=created_at,
            completed_at=completed_at,
            failed_at=failed_at,
        )


        withdrawal.additional_properties = d
        return withdrawal

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
