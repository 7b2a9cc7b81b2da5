from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="TransactionSummary")



@_attrs_define
class TransactionSummary:
    """ 
        Attributes:
            total_credits (str):
            total_debits (str):
            period_start (datetime.date | None):
            period_end (datetime.date | None):
     """

    total_credits: str
    total_debits: str
    period_start: datetime.date | None
    period_end: datetime.date | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        total_credits = self.total_credits

        total_debits = self.total_debits

        period_start: None | str
        if isinstance(self.period_start, datetime.date):
            period_start = self.period_start.isoformat()
        else:
            period_start = self.period_start

        period_end: None | str
        if isinstance(self.period_end, datetime.date):
            period_end = self.period_end.isoformat()
        else:
            period_end = self.period_end


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "total_credits": total_credits,
            "total_debits": total_debits,
            "period_start": period_start,
            "period_end": period_end,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total_credits = d.pop("total_credits")

        total_debits = d.pop("total_debits")

        def _parse_period_start(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                period_start_type_0 = datetime.date.fromisoformat(data)



                return period_start_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        period_start = _parse_period_start(d.pop("period_start"))


        def _parse_period_end(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                period_end_type_0 = datetime.date.fromisoformat(data)



                return period_end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        period_end = _parse_period_end(d.pop("period_end"))


        transaction_summary = cls(
            total_credits=total_credits,
            total_debits=total_debits,
            period_start=period_start,
            period_end=period_end,
        )


        transaction_summary.additional_properties = d
        return transaction_summary

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
