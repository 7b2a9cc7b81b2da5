from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.change_offer_refund_to_enum import ChangeOfferRefundToEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.change_offer_slices import ChangeOfferSlices





T = TypeVar("T", bound="ChangeOffer")



@_attrs_define
class ChangeOffer:
    """ 
        Attributes:
            id (str): oco_…: confirm it with POST /bookings/:id/changes.
            slices (ChangeOfferSlices):
            change_total_amount (str): What the change costs at the airline (fare difference plus penalty), in its currency;
                negative when the airline refunds the difference. Decimal string.
            change_total_currency (str): ISO 4217 currency code.
            penalty_amount (None | str): The airline's change penalty. Decimal string.
            penalty_currency (None | str): ISO 4217 currency code.
            new_total_amount (str): The booking's total_amount once changed. Decimal string.
            new_total_currency (str): ISO 4217 currency code.
            refund_to (ChangeOfferRefundToEnum | None): Where a negative difference goes: balance, original_form_of_payment
                and arc_bsp_cash are cash (credited to the wallet); voucher and airline_credits are not (0.00 credited). Null
                when nothing is refunded.

                * `arc_bsp_cash` - arc_bsp_cash
                * `balance` - balance
                * `original_form_of_payment` - original_form_of_payment
                * `voucher` - voucher
                * `airline_credits` - airline_credits
            expires_at (datetime.datetime | None): Confirm it before this.
            change_cost_brl (str): change_total_amount × exchange_rate_used (the booking's own rate), rounded as offers are:
                what the wallet is debited (positive) or, refunded in cash, credited (negative). Decimal string.
            client_change_amount (str): The agency's price of the change to its customer (docs/after-sale.md "Pricing a
                change"): the cost, the team's markup on a positive cost, and the team's fee. Decimal string.
            client_currency (str): Always BRL.
            exchange_rate_used (float): The booking's own rate (BRL per unit), the FX margin it was booked with already in
                it.
            fx_reference_rate (float): The reference rate the booking's rate was quoted from (BRL per unit), before its FX
                margin.
            fx_margin_percent (str): The FX margin in the booking's rate (bank spread, IOF), a percentage with two decimals
                ("2.50"); "0.00" for a booking in BRL or booked without one.
     """

    id: str
    slices: ChangeOfferSlices
    change_total_amount: str
    change_total_currency: str
    penalty_amount: None | str
    penalty_currency: None | str
    new_total_amount: str
    new_total_currency: str
    refund_to: ChangeOfferRefundToEnum | None
    expires_at: datetime.datetime | None
    change_cost_brl: str
    client_change_amount: str
    client_currency: str
    exchange_rate_used: float
    fx_reference_rate: float
    fx_margin_percent: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.change_offer_slices import ChangeOfferSlices # noqa: PLC0415
        id = self.id

        slices = self.slices.to_dict()

        change_total_amount = self.change_total_amount

        change_total_currency = self.change_total_currency

        penalty_amount: None | str
        penalty_amount = self.penalty_amount

        penalty_currency: None | str
        penalty_currency = self.penalty_currency

        new_total_amount = self.new_total_amount

        new_total_currency = self.new_total_currency

        refund_to: None | str
        if isinstance(self.refund_to, ChangeOfferRefundToEnum):
            refund_to = self.refund_to.value
        else:
            refund_to = self.refund_to

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        change_cost_brl = self.change_cost_brl

        client_change_amount = self.client_change_amount

        client_currency = self.client_currency

        exchange_rate_used = self.exchange_rate_used

        fx_reference_rate = self.fx_reference_rate

        fx_margin_percent = self.fx_margin_percent


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "slices": slices,
            "change_total_amount": change_total_amount,
            "change_total_currency": change_total_currency,
            "penalty_amount": penalty_amount,
            "penalty_currency": penalty_currency,
            "new_total_amount": new_total_amount,
            "new_total_currency": new_total_currency,
            "refund_to": refund_to,
            "expires_at": expires_at,
            "change_cost_brl": change_cost_brl,
            "client_change_amount": client_change_amount,
            "client_currency": client_currency,
            "exchange_rate_used": exchange_rate_used,
            "fx_reference_rate": fx_reference_rate,
            "fx_margin_percent": fx_margin_percent,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_offer_slices import ChangeOfferSlices # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        slices = ChangeOfferSlices.from_dict(d.pop("slices"))




        change_total_amount = d.pop("change_total_amount")

        change_total_currency = d.pop("change_total_currency")

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


        new_total_amount = d.pop("new_total_amount")

        new_total_currency = d.pop("new_total_currency")

        def _parse_refund_to(data: object) -> ChangeOfferRefundToEnum | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                refund_to_type_0 = ChangeOfferRefundToEnum(data)



                return refund_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChangeOfferRefundToEnum | None, data)

        refund_to = _parse_refund_to(d.pop("refund_to"))


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


        change_cost_brl = d.pop("change_cost_brl")

        client_change_amount = d.pop("client_change_amount")

        client_currency = d.pop("client_currency")

        exchange_rate_used = d.pop("exchange_rate_used")

        fx_reference_rate = d.pop("fx_reference_rate")

        fx_margin_percent = d.pop("fx_margin_percent")

        change_offer = cls(
            id=id,
            slices=slices,
            change_total_amount=change_total_amount,
            change_total_currency=change_total_currency,
            penalty_amount=penalty_amount,
            penalty_currency=penalty_currency,
            new_total_amount=new_total_amount,
            new_total_currency=new_total_currency,
            refund_to=refund_to,
            expires_at=expires_at,
            change_cost_brl=change_cost_brl,
            client_change_amount=client_change_amount,
            client_currency=client_currency,
            exchange_rate_used=exchange_rate_used,
            fx_reference_rate=fx_reference_rate,
            fx_margin_percent=fx_margin_percent,
        )


        change_offer.additional_properties = d
        return change_offer

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
