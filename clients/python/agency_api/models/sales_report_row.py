from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_status_enum import BookingStatusEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.sales_report_client import SalesReportClient





T = TypeVar("T", bound="SalesReportRow")



@_attrs_define
class SalesReportRow:
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
            booking_id (str): The booking (`ord_…`).
            booking_reference (None | str): The airline's locator; null until the booking has one.
            status (BookingStatusEnum): * `pending` - pending
                * `confirmed` - confirmed
                * `ticketed` - ticketed
                * `cancelled` - cancelled
                * `expired` - expired
                * `failed` - failed
            client (SalesReportClient):
            route (str): The airports in order, e.g. "GRU → LIS → GRU".
            travel_date (datetime.date | None): The first flight's day, at its airport.
            sold_at (datetime.datetime | None): The sale's debit, when it is in the period (UTC).
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
    booking_id: str
    booking_reference: None | str
    status: BookingStatusEnum
    client: SalesReportClient
    route: str
    travel_date: datetime.date | None
    sold_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sales_report_client import SalesReportClient # noqa: PLC0415
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

        booking_id = self.booking_id

        booking_reference: None | str
        booking_reference = self.booking_reference

        status = self.status.value

        client = self.client.to_dict()

        route = self.route

        travel_date: None | str
        if isinstance(self.travel_date, datetime.date):
            travel_date = self.travel_date.isoformat()
        else:
            travel_date = self.travel_date

        sold_at: None | str
        if isinstance(self.sold_at, datetime.datetime):
            sold_at = self.sold_at.isoformat()
        else:
            sold_at = self.sold_at


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
            "booking_id": booking_id,
            "booking_reference": booking_reference,
            "status": status,
            "client": client,
            "route": route,
            "travel_date": travel_date,
            "sold_at": sold_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sales_report_client import SalesReportClient # noqa: PLC0415
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

        booking_id = d.pop("booking_id")

        def _parse_booking_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        booking_reference = _parse_booking_reference(d.pop("booking_reference"))


        status = BookingStatusEnum(d.pop("status"))




        client = SalesReportClient.from_dict(d.pop("client"))




        route = d.pop("route")

        def _parse_travel_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                travel_date_type_0 = datetime.date.fromisoformat(data)



                return travel_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        travel_date = _parse_travel_date(d.pop("travel_date"))


        def _parse_sold_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sold_at_type_0 = datetime.datetime.fromisoformat(data)



                return sold_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        sold_at = _parse_sold_at(d.pop("sold_at"))


        sales_report_row = cls(
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
            booking_id=booking_id,
            booking_reference=booking_reference,
            status=status,
            client=client,
            route=route,
            travel_date=travel_date,
            sold_at=sold_at,
        )


        sales_report_row.additional_properties = d
        return sales_report_row

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
