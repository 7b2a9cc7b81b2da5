from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.pagination import Pagination
  from ..models.transaction import Transaction
  from ..models.transaction_summary import TransactionSummary





T = TypeVar("T", bound="TransactionPage")



@_attrs_define
class TransactionPage:
    """ 
        Attributes:
            transactions (list[Transaction]):
            pagination (Pagination):
            summary (TransactionSummary):
     """

    transactions: list[Transaction]
    pagination: Pagination
    summary: TransactionSummary
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.pagination import Pagination # noqa: PLC0415
        from ..models.transaction import Transaction # noqa: PLC0415
        from ..models.transaction_summary import TransactionSummary # noqa: PLC0415
        transactions = []
        for transactions_item_data in self.transactions:
            transactions_item = transactions_item_data.to_dict()
            transactions.append(transactions_item)



        pagination = self.pagination.to_dict()

        summary = self.summary.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "transactions": transactions,
            "pagination": pagination,
            "summary": summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pagination import Pagination # noqa: PLC0415
        from ..models.transaction import Transaction # noqa: PLC0415
        from ..models.transaction_summary import TransactionSummary # noqa: PLC0415
        d = dict(src_dict)
        transactions = []
        _transactions = d.pop("transactions")
        for transactions_item_data in (_transactions):
            transactions_item = Transaction.from_dict(transactions_item_data)



            transactions.append(transactions_item)


        pagination = Pagination.from_dict(d.pop("pagination"))




        summary = TransactionSummary.from_dict(d.pop("summary"))




        transaction_page = cls(
            transactions=transactions,
            pagination=pagination,
            summary=summary,
        )


        transaction_page.additional_properties = d
        return transaction_page

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
