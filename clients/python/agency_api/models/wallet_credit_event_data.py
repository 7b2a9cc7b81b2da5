from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.transaction import Transaction
  from ..models.wallet_credit_event_data_previous_attributes import WalletCreditEventDataPreviousAttributes





T = TypeVar("T", bound="WalletCreditEventData")



@_attrs_define
class WalletCreditEventData:
    """ 
        Attributes:
            object_ (Transaction):
            previous_attributes (WalletCreditEventDataPreviousAttributes): What changed (update-type events), e.g. status.
     """

    object_: Transaction
    previous_attributes: WalletCreditEventDataPreviousAttributes
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.transaction import Transaction # noqa: PLC0415
        from ..models.wallet_credit_event_data_previous_attributes import WalletCreditEventDataPreviousAttributes # noqa: PLC0415
        object_ = self.object_.to_dict()

        previous_attributes = self.previous_attributes.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "previous_attributes": previous_attributes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.transaction import Transaction # noqa: PLC0415
        from ..models.wallet_credit_event_data_previous_attributes import WalletCreditEventDataPreviousAttributes # noqa: PLC0415
        d = dict(src_dict)
        object_ = Transaction.from_dict(d.pop("object"))




        previous_attributes = WalletCreditEventDataPreviousAttributes.from_dict(d.pop("previous_attributes"))




        wallet_credit_event_data = cls(
            object_=object_,
            previous_attributes=previous_attributes,
        )


        wallet_credit_event_data.additional_properties = d
        return wallet_credit_event_data

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
