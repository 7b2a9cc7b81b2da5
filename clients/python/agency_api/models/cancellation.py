from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cancellation_status_enum import CancellationStatusEnum
from ..models.refund_to_enum import RefundToEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.airline_credit import AirlineCredit





T = TypeVar("T", bound="Cancellation")



@_attrs_define
class Cancellation:
    """ 
        Attributes:
            id (str): bcn_…
            booking_id (str):
            status (CancellationStatusEnum): * `quoted` - quoted
                * `confirming` - confirming
                * `unknown` - unknown
                * `confirmed` - confirmed
                * `expired` - expired
            refund_amount (None | str): The supplier's refund: quoted, then the confirmed one (which wins). Null when the
                supplier could not tell. Decimal string.
            refund_currency (str): ISO 4217 currency code.
            refund_to (RefundToEnum): * `balance` - balance
                * `original_form_of_payment` - original_form_of_payment
                * `arc_bsp_cash` - arc_bsp_cash
                * `card` - card
                * `voucher` - voucher
                * `airline_credits` - airline_credits
                * `awaiting_payment` - awaiting_payment
            penalty_amount (None | str): What the supplier keeps: the booking's total_amount minus refund_amount (null for a
                booking not paid). Decimal string.
            penalty_currency (None | str): ISO 4217 currency code.
            airline_credits (list[AirlineCredit]):
            quoted_refund_amount (None | str): The quote's refund, as first quoted. Decimal string.
            wallet_credit_amount (str): What the wallet will be (quoted) or was (confirmed) credited: the cash refund at the
                booking's exchange rate, never more than the booking debited. Decimal string.
            wallet_credit_currency (str): Always BRL.
            transaction_id (None | str): The wallet's credit (txn_…) once confirmed; null otherwise.
            expires_at (datetime.datetime | None): Confirm before this instant.
            confirmed_at (datetime.datetime | None):
            created_at (datetime.datetime):
     """

    id: str
    booking_id: str
    status: CancellationStatusEnum
    refund_amount: None | str
    refund_currency: str
    refund_to: RefundToEnum
    penalty_amount: None | str
    penalty_currency: None | str
    airline_credits: list[AirlineCredit]
    quoted_refund_amount: None | str
    wallet_credit_amount: str
    wallet_credit_currency: str
    transaction_id: None | str
    expires_at: datetime.datetime | None
    confirmed_at: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.airline_credit import AirlineCredit # noqa: PLC0415
        id = self.id

        booking_id = self.booking_id

        status = self.status.value

        refund_amount: None | str
        refund_amount = self.refund_amount

        refund_currency = self.refund_currency

        refund_to = self.refund_to.value

        penalty_amount: None | str
        penalty_amount = self.penalty_amount

        penalty_currency: None | str
        penalty_currency = self.penalty_currency

        airline_credits = []
        for airline_credits_item_data in self.airline_credits:
            airline_credits_item = airline_credits_item_data.to_dict()
            airline_credits.append(airline_credits_item)



        quoted_refund_amount: None | str
        quoted_refund_amount = self.quoted_refund_amount

        wallet_credit_amount = self.wallet_credit_amount

        wallet_credit_currency = self.wallet_credit_currency

        transaction_id: None | str
        transaction_id = self.transaction_id

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        confirmed_at: None | str
        if isinstance(self.confirmed_at, datetime.datetime):
            confirmed_at = self.confirmed_at.isoformat()
        else:
            confirmed_at = self.confirmed_at

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "booking_id": booking_id,
            "status": status,
            "refund_amount": refund_amount,
            "refund_currency": refund_currency,
            "refund_to": refund_to,
            "penalty_amount": penalty_amount,
            "penalty_currency": penalty_currency,
            "airline_credits": airline_credits,
            "quoted_refund_amount": quoted_refund_amount,
            "wallet_credit_amount": wallet_credit_amount,
            "wallet_credit_currency": wallet_credit_currency,
            "transaction_id": transaction_id,
            "expires_at": expires_at,
            "confirmed_at": confirmed_at,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.airline_credit import AirlineCredit # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        booking_id = d.pop("booking_id")

        status = CancellationStatusEnum(d.pop("status"))




        def _parse_refund_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        refund_amount = _parse_refund_amount(d.pop("refund_amount"))


        refund_currency = d.pop("refund_currency")

        refund_to = RefundToEnum(d.pop("refund_to"))




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


        airline_credits = []
        _airline_credits = d.pop("airline_credits")
        for airline_credits_item_data in (_airline_credits):
            airline_credits_item = AirlineCredit.from_dict(airline_credits_item_data)



            airline_credits.append(airline_credits_item)


        def _parse_quoted_refund_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        quoted_refund_amount = _parse_quoted_refund_amount(d.pop("quoted_refund_amount"))


        wallet_credit_amount = d.pop("wallet_credit_amount")

        wallet_credit_currency = d.pop("wallet_credit_currency")

        def _parse_transaction_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transaction_id = _parse_transaction_id(d.pop("transaction_id"))


        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))


        def _parse_confirmed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confirmed_at_type_0 = datetime.datetime.fromisoformat(data)



                return confirmed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        confirmed_at = _parse_confirmed_at(d.pop("confirmed_at"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        cancellation = cls(
            id=id,
            booking_id=booking_id,
            status=status,
            refund_amount=refund_amount,
            refund_currency=refund_currency,
            refund_to=refund_to,
            penalty_amount=penalty_amount,
            penalty_currency=penalty_currency,
            airline_credits=airline_credits,
            quoted_refund_amount=quoted_refund_amount,
            wallet_credit_amount=wallet_credit_amount,
            wallet_credit_currency=wallet_credit_currency,
            transaction_id=transaction_id,
            expires_at=expires_at,
            confirmed_at=confirmed_at,
            created_at=created_at,
        )


        cancellation.additional_properties = d
        return cancellation

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
