from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="SalesReportPeriod")



@_attrs_define
class SalesReportPeriod:
    """ 
        Attributes:
            start_date (datetime.date):
            end_date (datetime.date):
            time_zone (str): America/Sao_Paulo: the days' zone.
     """

    start_date: datetime.date
    end_date: datetime.date
    time_zone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        start_date = self.start_date.isoformat()

        end_date = self.end_date.isoformat()

        time_zone = self.time_zone


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "start_date": start_date,
            "end_date": end_date,
            "time_zone": time_zone,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        start_date = datetime.date.fromisoformat(d.pop("start_date"))




        end_date = datetime.date.fromisoformat(d.pop("end_date"))




        time_zone = d.pop("time_zone")

        sales_report_period = cls(
            start_date=start_date,
            end_date=end_date,
            time_zone=time_zone,
        )


        sales_report_period.additional_properties = d
        return sales_report_period

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
