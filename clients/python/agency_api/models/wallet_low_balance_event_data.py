from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.low_balance_object import LowBalanceObject
  from ..models.wallet_low_balance_event_data_previous_attributes import WalletLowBalanceEventDataPreviousAttributes





T = TypeVar("T", bound="WalletLowBalanceEventData")



@_attrs_define
class WalletLowBalanceEventData:
    """ 
        Attributes:
            object_ (LowBalanceObject):
            previous_attributes (WalletLowBalanceEventDataPreviousAttributes): What changed (update-type events), e.g.
                status.
     """

    object_: LowBalanceObject
    previous_attributes: WalletLowBalanceEventDataPreviousAttributes
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.low_balance_object import LowBalanceObject # noqa: PLC0415
        from ..models.wallet_low_balance_event_data_previous_attributes import WalletLowBalanceEventDataPreviousAttributes # noqa: PLC0415
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
        from ..models.low_balance_object import LowBalanceObject # noqa: PLC0415
        from ..models.wallet_low_balance_event_data_previous_attributes import WalletLowBalanceEventDataPreviousAttributes # noqa: PLC0415
        d = dict(src_dict)
        object_ = LowBalanceObject.from_dict(d.pop("object"))




        previous_attributes = WalletLowBalanceEventDataPreviousAttributes.from_dict(d.pop("previous_attributes"))




        wallet_low_balance_event_data = cls(
            object_=object_,
            previous_attributes=previous_attributes,
        )


        wallet_low_balance_event_data.additional_properties = d
        return wallet_low_balance_event_data

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
