from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.pagination import Pagination
  from ..models.sales_report_period import SalesReportPeriod
  from ..models.sales_report_row import SalesReportRow
  from ..models.sales_report_totals import SalesReportTotals





T = TypeVar("T", bound="SalesReport")



@_attrs_define
class SalesReport:
    """ 
        Attributes:
            period (SalesReportPeriod):
            live_mode (bool):
            totals (SalesReportTotals):
            rows (list[SalesReportRow]): This page's bookings.
            pagination (Pagination):
     """

    period: SalesReportPeriod
    live_mode: bool
    totals: SalesReportTotals
    rows: list[SalesReportRow]
    pagination: Pagination
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.pagination import Pagination # noqa: PLC0415
        from ..models.sales_report_period import SalesReportPeriod # noqa: PLC0415
        from ..models.sales_report_row import SalesReportRow # noqa: PLC0415
        from ..models.sales_report_totals import SalesReportTotals # noqa: PLC0415
        period = self.period.to_dict()

        live_mode = self.live_mode

        totals = self.totals.to_dict()

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)



        pagination = self.pagination.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "period": period,
            "live_mode": live_mode,
            "totals": totals,
            "rows": rows,
            "pagination": pagination,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pagination import Pagination # noqa: PLC0415
        from ..models.sales_report_period import SalesReportPeriod # noqa: PLC0415
        from ..models.sales_report_row import SalesReportRow # noqa: PLC0415
        from ..models.sales_report_totals import SalesReportTotals # noqa: PLC0415
        d = dict(src_dict)
        period = SalesReportPeriod.from_dict(d.pop("period"))




        live_mode = d.pop("live_mode")

        totals = SalesReportTotals.from_dict(d.pop("totals"))




        rows = []
        _rows = d.pop("rows")
        for rows_item_data in (_rows):
            rows_item = SalesReportRow.from_dict(rows_item_data)



            rows.append(rows_item)


        pagination = Pagination.from_dict(d.pop("pagination"))




        sales_report = cls(
            period=period,
            live_mode=live_mode,
            totals=totals,
            rows=rows,
            pagination=pagination,
        )


        sales_report.additional_properties = d
        return sales_report

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
