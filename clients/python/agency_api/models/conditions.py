from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.condition import Condition





T = TypeVar("T", bound="Conditions")



@_attrs_define
class Conditions:
    """ 
        Attributes:
            refund_before_departure (Condition):
            change_before_departure (Condition):
     """

    refund_before_departure: Condition
    change_before_departure: Condition
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.condition import Condition # noqa: PLC0415
        refund_before_departure = self.refund_before_departure.to_dict()

        change_before_departure = self.change_before_departure.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "refund_before_departure": refund_before_departure,
            "change_before_departure": change_before_departure,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.condition import Condition # noqa: PLC0415
        d = dict(src_dict)
        refund_before_departure = Condition.from_dict(d.pop("refund_before_departure"))




        change_before_departure = Condition.from_dict(d.pop("change_before_departure"))




        conditions = cls(
            refund_before_departure=refund_before_departure,
            change_before_departure=change_before_departure,
        )


        conditions.additional_properties = d
        return conditions

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
