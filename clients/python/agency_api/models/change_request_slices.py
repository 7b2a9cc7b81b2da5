from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.change_remove import ChangeRemove
  from ..models.change_slice import ChangeSlice





T = TypeVar("T", bound="ChangeRequestSlices")



@_attrs_define
class ChangeRequestSlices:
    """ 
        Attributes:
            remove (list[ChangeRemove]):
            add (list[ChangeSlice]):
     """

    remove: list[ChangeRemove]
    add: list[ChangeSlice]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.change_remove import ChangeRemove # noqa: PLC0415
        from ..models.change_slice import ChangeSlice # noqa: PLC0415
        remove = []
        for remove_item_data in self.remove:
            remove_item = remove_item_data.to_dict()
            remove.append(remove_item)



        add = []
        for add_item_data in self.add:
            add_item = add_item_data.to_dict()
            add.append(add_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "remove": remove,
            "add": add,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.change_remove import ChangeRemove # noqa: PLC0415
        from ..models.change_slice import ChangeSlice # noqa: PLC0415
        d = dict(src_dict)
        remove = []
        _remove = d.pop("remove")
        for remove_item_data in (_remove):
            remove_item = ChangeRemove.from_dict(remove_item_data)



            remove.append(remove_item)


        add = []
        _add = d.pop("add")
        for add_item_data in (_add):
            add_item = ChangeSlice.from_dict(add_item_data)



            add.append(add_item)


        change_request_slices = cls(
            remove=remove,
            add=add,
        )


        change_request_slices.additional_properties = d
        return change_request_slices

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
