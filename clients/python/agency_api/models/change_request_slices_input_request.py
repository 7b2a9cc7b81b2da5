from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.slice_to_add_request import SliceToAddRequest
  from ..models.slice_to_remove_request import SliceToRemoveRequest





T = TypeVar("T", bound="ChangeRequestSlicesInputRequest")



@_attrs_define
class ChangeRequestSlicesInputRequest:
    """ 
        Attributes:
            remove (list[SliceToRemoveRequest]):
            add (list[SliceToAddRequest]):
     """

    remove: list[SliceToRemoveRequest]
    add: list[SliceToAddRequest]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.slice_to_add_request import SliceToAddRequest # noqa: PLC0415
        from ..models.slice_to_remove_request import SliceToRemoveRequest # noqa: PLC0415
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
        from ..models.slice_to_add_request import SliceToAddRequest # noqa: PLC0415
        from ..models.slice_to_remove_request import SliceToRemoveRequest # noqa: PLC0415
        d = dict(src_dict)
        remove = []
        _remove = d.pop("remove")
        for remove_item_data in (_remove):
            remove_item = SliceToRemoveRequest.from_dict(remove_item_data)



            remove.append(remove_item)


        add = []
        _add = d.pop("add")
        for add_item_data in (_add):
            add_item = SliceToAddRequest.from_dict(add_item_data)



            add.append(add_item)


        change_request_slices_input_request = cls(
            remove=remove,
            add=add,
        )


        change_request_slices_input_request.additional_properties = d
        return change_request_slices_input_request

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
