from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.reversal_object_currency import ReversalObjectCurrency
from ..models.reversal_object_object import ReversalObjectObject
from ..models.reversal_object_reason import ReversalObjectReason
from ..models.reversal_object_status import ReversalObjectStatus
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.recharge import Recharge
  from ..models.reversal_object_wallet import ReversalObjectWallet
  from ..models.transaction import Transaction





T = TypeVar("T", bound="ReversalObject")



@_attrs_define
class ReversalObject:
    """ A recharge taken back after it was credited (docs/reversals.md): refunded or charged back. The wallet was debited
    what its balance covered (`transaction`, null when the balance was 0.00); the rest is debt, which restricts the
    wallet until credits pay it. A chargeback later decided in the agency's favour comes again as `cancelled`, with what
    it had taken credited back (`credit_transaction`).

        Attributes:
            id (str): rvs_…
            object_ (ReversalObjectObject):
            reason (ReversalObjectReason):
            status (ReversalObjectStatus):
            amount (str): What was taken back by this reversal.
            currency (ReversalObjectCurrency):
            recharge (Recharge):
            transaction (None | Transaction): The debit (`reference_type` `reversal`) of what the balance covered.
            debt_created (str): What the balance could not cover.
            debt_outstanding (str): What of it is still owed.
            credit_transaction (None | Transaction): A cancelled chargeback's credit back.
            wallet (ReversalObjectWallet): The wallet's debt and restriction after this change.
            created_at (datetime.datetime):
            cancelled_at (datetime.datetime | None):
     """

    id: str
    object_: ReversalObjectObject
    reason: ReversalObjectReason
    status: ReversalObjectStatus
    amount: str
    currency: ReversalObjectCurrency
    recharge: Recharge
    transaction: None | Transaction
    debt_created: str
    debt_outstanding: str
    credit_transaction: None | Transaction
    wallet: ReversalObjectWallet
    created_at: datetime.datetime
    cancelled_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.recharge import Recharge # noqa: PLC0415
        from ..models.reversal_object_wallet import ReversalObjectWallet # noqa: PLC0415
        from ..models.transaction import Transaction # noqa: PLC0415
        id = self.id

        object_ = self.object_.value

        reason = self.reason.value

        status = self.status.value

        amount = self.amount

        currency = self.currency.value

        recharge = self.recharge.to_dict()

        transaction: dict[str, Any] | None
        if isinstance(self.transaction, Transaction):
            transaction = self.transaction.to_dict()
        else:
            transaction = self.transaction

        debt_created = self.debt_created

        debt_outstanding = self.debt_outstanding

        credit_transaction: dict[str, Any] | None
        if isinstance(self.credit_transaction, Transaction):
            credit_transaction = self.credit_transaction.to_dict()
        else:
            credit_transaction = self.credit_transaction

        wallet = self.wallet.to_dict()

        created_at = self.created_at.isoformat()

        cancelled_at: None | str
        if isinstance(self.cancelled_at, datetime.datetime):
            cancelled_at = self.cancelled_at.isoformat()
        else:
            cancelled_at = self.cancelled_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "reason": reason,
            "status": status,
            "amount": amount,
            "currency": currency,
            "recharge": recharge,
            "transaction": transaction,
            "debt_created": debt_created,
            "debt_outstanding": debt_outstanding,
            "credit_transaction": credit_transaction,
            "wallet": wallet,
            "created_at": created_at,
            "cancelled_at": cancelled_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.recharge import Recharge # noqa: PLC0415
        from ..models.reversal_object_wallet import ReversalObjectWallet # noqa: PLC0415
        from ..models.transaction import Transaction # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = ReversalObjectObject(d.pop("object"))




        reason = ReversalObjectReason(d.pop("reason"))




        status = ReversalObjectStatus(d.pop("status"))




        amount = d.pop("amount")

        currency = ReversalObjectCurrency(d.pop("currency"))




        recharge = Recharge.from_dict(d.pop("recharge"))




        def _parse_transaction(data: object) -> None | Transaction:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                transaction_type_1 = Transaction.from_dict(data)



                return transaction_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Transaction, data)

        transaction = _parse_transaction(d.pop("transaction"))


        debt_created = d.pop("debt_created")

        debt_outstanding = d.pop("debt_outstanding")

        def _parse_credit_transaction(data: object) -> None | Transaction:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                credit_transaction_type_1 = Transaction.from_dict(data)



                return credit_transaction_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Transaction, data)

        credit_transaction = _parse_credit_transaction(d.pop("credit_transaction"))


        wallet = ReversalObjectWallet.from_dict(d.pop("wallet"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_cancelled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancelled_at_type_0 = datetime.datetime.fromisoformat(data)



                return cancelled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        cancelled_at = _parse_cancelled_at(d.pop("cancelled_at"))


        reversal_object = cls(
            id=id,
            object_=object_,
            reason=reason,
            status=status,
            amount=amount,
            currency=currency,
            recharge=recharge,
            transaction=transaction,
            debt_created=debt_created,
            debt_outstanding=debt_outstanding,
            credit_transaction=credit_transaction,
            wallet=wallet,
            created_at=created_at,
            cancelled_at=cancelled_at,
        )


        reversal_object.additional_properties = d
        return reversal_object

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
