from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SalesReportTotals")



@_attrs_define
class SalesReportTotals:
    """ 
        Attributes:
            client_amount (str): The sale: what the customer paid (cost + markup + fee). BRL decimal string.
            base_cost_brl (str): The sale: what the wallet was debited. BRL decimal string.
            markup_amount (str): The sale: the agency's markup. BRL decimal string.
            fee_amount (str): The sale: the agency's fee. BRL decimal string.
            changes_extras_client_amount (str): Changes of flights and extras bought after the sale: what the customer paid
                (negative: a cheaper change the customer gets back). BRL decimal string.
            changes_extras_cost_brl (str): Their wallet movements: debits less credits (negative: refunded). BRL decimal
                string.
            changes_extras_revenue (str): Their markup and fee. BRL decimal string.
            refund_amount (str): The booking's refunds credited to the wallet. BRL decimal string.
            refunded_revenue (str): The markup and fee given back to the customer with those refunds. BRL decimal string.
            net_revenue (str): What the agency keeps: markup + fee + changes_extras_revenue − refunded_revenue. BRL decimal
                string.
            bookings (int): Bookings in the report.
            sales (int): Of them, those sold in the period.
            wallet_debits (str): The wallet's booking debits of the period (the statement's). BRL decimal string.
            wallet_credits (str): The wallet's booking credits of the period. BRL decimal string.
            currency (str): Always BRL.
     """

    client_amount: str
    base_cost_brl: str
    markup_amount: str
    fee_amount: str
    changes_extras_client_amount: str
    changes_extras_cost_brl: str
    changes_extras_revenue: str
    refund_amount: str
    refunded_revenue: str
    net_revenue: str
    bookings: int
    sales: int
    wallet_debits: str
    wallet_credits: str
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        client_amount = self.client_amount

        base_cost_brl = self.base_cost_brl

        markup_amount = self.markup_amount

        fee_amount = self.fee_amount

        changes_extras_client_amount = self.changes_extras_client_amount

        changes_extras_cost_brl = self.changes_extras_cost_brl

        changes_extras_revenue = self.changes_extras_revenue

        refund_amount = self.refund_amount

        refunded_revenue = self.refunded_revenue

        net_revenue = self.net_revenue

        bookings = self.bookings

        sales = self.sales

        wallet_debits = self.wallet_debits

        wallet_credits = self.wallet_credits

        currency = self.currency


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "client_amount": client_amount,
            "base_cost_brl": base_cost_brl,
            "markup_amount": markup_amount,
            "fee_amount": fee_amount,
            "changes_extras_client_amount": changes_extras_client_amount,
            "changes_extras_cost_brl": changes_extras_cost_brl,
            "changes_extras_revenue": changes_extras_revenue,
            "refund_amount": refund_amount,
            "refunded_revenue": refunded_revenue,
            "net_revenue": net_revenue,
            "bookings": bookings,
            "sales": sales,
            "wallet_debits": wallet_debits,
            "wallet_credits": wallet_credits,
            "currency": currency,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_amount = d.pop("client_amount")

        base_cost_brl = d.pop("base_cost_brl")

        markup_amount = d.pop("markup_amount")

        fee_amount = d.pop("fee_amount")

        changes_extras_client_amount = d.pop("changes_extras_client_amount")

        changes_extras_cost_brl = d.pop("changes_extras_cost_brl")

        changes_extras_revenue = d.pop("changes_extras_revenue")

        refund_amount = d.pop("refund_amount")

        refunded_revenue = d.pop("refunded_revenue")

        net_revenue = d.pop("net_revenue")

        bookings = d.pop("bookings")

        sales = d.pop("sales")

        wallet_debits = d.pop("wallet_debits")

        wallet_credits = d.pop("wallet_credits")

        currency = d.pop("currency")

        sales_report_totals = cls(
            client_amount=client_amount,
            base_cost_brl=base_cost_brl,
            markup_amount=markup_amount,
            fee_amount=fee_amount,
            changes_extras_client_amount=changes_extras_client_amount,
            changes_extras_cost_brl=changes_extras_cost_brl,
            changes_extras_revenue=changes_extras_revenue,
            refund_amount=refund_amount,
            refunded_revenue=refunded_revenue,
            net_revenue=net_revenue,
            bookings=bookings,
            sales=sales,
            wallet_debits=wallet_debits,
            wallet_credits=wallet_credits,
            currency=currency,
        )


        sales_report_totals.additional_properties = d
        return sales_report_totals

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
