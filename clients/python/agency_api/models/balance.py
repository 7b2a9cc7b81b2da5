from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Balance")



@_attrs_define
class Balance:
    """ 
        Attributes:
            balance (str): Balance in BRL (5000.00, constant, in test mode).
            currency (str):
            available_credit (str): balance - pending_amount, at least 0.
            pending_amount (str): BRL cost of pending hold bookings.
            last_transaction_at (datetime.datetime | None):
            debt_amount (str): What reversed recharges (refunds, chargebacks) took that the balance could not cover: paid
                first by the next credits. "0.00" when none (always in test mode).
            restricted (bool): True while debt_amount is above 0.00: new bookings, hold confirmations, flight changes that
                cost something, extras and withdrawals answer 422 wallet_restricted.
     """

    balance: str
    currency: str
    available_credit: str
    pending_amount: str
    last_transaction_at: datetime.datetime | None
    debt_amount: str
    restricted: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        balance = self.balance

        currency = self.currency

        available_credit = self.available_credit

        pending_amount = self.pending_amount

        last_transaction_at: None | str
        if isinstance(self.last_transaction_at, datetime.datetime):
            last_transaction_at = self.last_transaction_at.isoformat()
        else:
            last_transaction_at = self.last_transaction_at

        debt_amount = self.debt_amount

        restricted = self.restricted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "balance": balance,
            "currency": currency,
            "available_credit": available_credit,
            "pending_amount": pending_amount,
            "last_transaction_at": last_transaction_at,
            "debt_amount": debt_amount,
            "restricted": restricted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        balance = d.pop("balance")

        currency = d.pop("currency")

        available_credit = d.pop("available_credit")

        pending_amount = d.pop("pending_amount")

        def _parse_last_transaction_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_transaction_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_transaction_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_transaction_at = _parse_last_transaction_at(d.pop("last_transaction_at"))


        debt_amount = d.pop("debt_amount")

        restricted = d.pop("restricted")

        balance = cls(
            balance=balance,
            currency=currency,
            available_credit=available_credit,
            pending_amount=pending_amount,
            last_transaction_at=last_transaction_at,
            debt_amount=debt_amount,
            restricted=restricted,
        )


        balance.additional_properties = d
        return balance

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
