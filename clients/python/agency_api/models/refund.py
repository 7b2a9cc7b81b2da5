from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.refund_to_enum import RefundToEnum
from typing import cast

if TYPE_CHECKING:
  from ..models.airline_credit import AirlineCredit





T = TypeVar("T", bound="Refund")



@_attrs_define
class Refund:
    """ 
        Attributes:
            amount (str): Refunded by the supplier (its confirmed refund), in the booking's original currency (0.00 for a
                pending hold). Decimal string.
            currency (str): ISO 4217 currency code.
            penalty_amount (None | str): What the supplier kept: total_amount minus amount.
            penalty_currency (None | str):
            refund_to (RefundToEnum): * `balance` - balance
                * `original_form_of_payment` - original_form_of_payment
                * `arc_bsp_cash` - arc_bsp_cash
                * `card` - card
                * `voucher` - voucher
                * `airline_credits` - airline_credits
                * `awaiting_payment` - awaiting_payment
            airline_credits (list[AirlineCredit]):
            wallet_credit_amount (str): What the wallet was credited: the cash refund at the booking's exchange rate, never
                more than the booking debited; 0.00 for a voucher or airline credits. Decimal string.
            wallet_credit_currency (str): Always BRL.
            transaction_id (None | str): The wallet's credit (txn_…), null when nothing was credited.
            cancellation_id (str): The Cancellation (bcn_…) confirmed.
     """

    amount: str
    currency: str
    penalty_amount: None | str
    penalty_currency: None | str
    refund_to: RefundToEnum
    airline_credits: list[AirlineCredit]
    wallet_credit_amount: str
    wallet_credit_currency: str
    transaction_id: None | str
    cancellation_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.airline_credit import AirlineCredit # noqa: PLC0415
        amount = self.amount

        currency = self.currency

        penalty_amount: None | str
        penalty_amount = self.penalty_amount

        penalty_currency: None | str
        penalty_currency = self.penalty_currency

        refund_to = self.refund_to.value

        airline_credits = []
        for airline_credits_item_data in self.airline_credits:
            airline_credits_item = airline_credits_item_data.to_dict()
            airline_credits.append(airline_credits_item)



        wallet_credit_amount = self.wallet_credit_amount

        wallet_credit_currency = self.wallet_credit_currency

        transaction_id: None | str
        transaction_id = self.transaction_id

        cancellation_id = self.cancellation_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "amount": amount,
            "currency": currency,
            "penalty_amount": penalty_amount,
            "penalty_currency": penalty_currency,
            "refund_to": refund_to,
            "airline_credits": airline_credits,
            "wallet_credit_amount": wallet_credit_amount,
            "wallet_credit_currency": wallet_credit_currency,
            "transaction_id": transaction_id,
            "cancellation_id": cancellation_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.airline_credit import AirlineCredit # noqa: PLC0415
        d = dict(src_dict)
        amount = d.pop("amount")

        currency = d.pop("currency")

        def _parse_penalty_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        penalty_amount = _parse_penalty_amount(d.pop("penalty_amount"))


        def _parse_penalty_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        penalty_currency = _parse_penalty_currency(d.pop("penalty_currency"))


        refund_to = RefundToEnum(d.pop("refund_to"))




        airline_credits = []
        _airline_credits = d.pop("airline_credits")
        for airline_credits_item_data in (_airline_credits):
            airline_credits_item = AirlineCredit.from_dict(airline_credits_item_data)



            airline_credits.append(airline_credits_item)


        wallet_credit_amount = d.pop("wallet_credit_amount")

        wallet_credit_currency = d.pop("wallet_credit_currency")

        def _parse_transaction_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transaction_id = _parse_transaction_id(d.pop("transaction_id"))


        cancellation_id = d.pop("cancellation_id")

        refund = cls(
            amount=amount,
            currency=currency,
            penalty_amount=penalty_amount,
            penalty_currency=penalty_currency,
            refund_to=refund_to,
            airline_credits=airline_credits,
            wallet_credit_amount=wallet_credit_amount,
            wallet_credit_currency=wallet_credit_currency,
            transaction_id=transaction_id,
            cancellation_id=cancellation_id,
        )


        refund.additional_properties = d
        return refund

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
