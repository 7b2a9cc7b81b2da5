from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_taken_enum import ActionTakenEnum
from ..models.available_actions_enum import AvailableActionsEnum
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.booking_slice import BookingSlice





T = TypeVar("T", bound="AirlineChange")



@_attrs_define
class AirlineChange:
    """ 
        Attributes:
            id (str): aic_…
            booking_id (str):
            added (list[BookingSlice]): The slices as the airline changed them (the booking's slice shape; times are the
                airports' local times). Accepting the change makes them the booking's.
            removed (list[BookingSlice]): The slices as they were booked.
            available_actions (list[AvailableActionsEnum]): What the airline allows (Duffel's names): accept (POST
                …/airline_changes/:id/accept), cancel (the booking's cancellations, the airline's involuntary refund); change
                and update are done with the airline.
            action_taken (ActionTakenEnum | None): Null while unanswered.

                * `accepted` - accepted
                * `cancelled` - cancelled
                * `changed` - changed
            action_taken_at (datetime.datetime | None):
            created_at (datetime.datetime): When the change was detected.
     """

    id: str
    booking_id: str
    added: list[BookingSlice]
    removed: list[BookingSlice]
    available_actions: list[AvailableActionsEnum]
    action_taken: ActionTakenEnum | None
    action_taken_at: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_slice import BookingSlice # noqa: PLC0415
        id = self.id

        booking_id = self.booking_id

        added = []
        for added_item_data in self.added:
            added_item = added_item_data.to_dict()
            added.append(added_item)



        removed = []
        for removed_item_data in self.removed:
            removed_item = removed_item_data.to_dict()
            removed.append(removed_item)



        available_actions = []
        for available_actions_item_data in self.available_actions:
            available_actions_item = available_actions_item_data.value
            available_actions.append(available_actions_item)



        action_taken: None | str
        if isinstance(self.action_taken, ActionTakenEnum):
            action_taken = self.action_taken.value
        else:
            action_taken = self.action_taken

        action_taken_at: None | str
        if isinstance(self.action_taken_at, datetime.datetime):
            action_taken_at = self.action_taken_at.isoformat()
        else:
            action_taken_at = self.action_taken_at

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "booking_id": booking_id,
            "added": added,
            "removed": removed,
            "available_actions": available_actions,
            "action_taken": action_taken,
            "action_taken_at": action_taken_at,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.booking_slice import BookingSlice # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        booking_id = d.pop("booking_id")

        added = []
        _added = d.pop("added")
        for added_item_data in (_added):
            added_item = BookingSlice.from_dict(added_item_data)



            added.append(added_item)


        removed = []
        _removed = d.pop("removed")
        for removed_item_data in (_removed):
            removed_item = BookingSlice.from_dict(removed_item_data)



            removed.append(removed_item)


        available_actions = []
        _available_actions = d.pop("available_actions")
        for available_actions_item_data in (_available_actions):
            available_actions_item = AvailableActionsEnum(available_actions_item_data)



            available_actions.append(available_actions_item)


        def _parse_action_taken(data: object) -> ActionTakenEnum | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                action_taken_type_0 = ActionTakenEnum(data)



                return action_taken_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ActionTakenEnum | None, data)

        action_taken = _parse_action_taken(d.pop("action_taken"))


        def _parse_action_taken_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                action_taken_at_type_0 = datetime.datetime.fromisoformat(data)



                return action_taken_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        action_taken_at = _parse_action_taken_at(d.pop("action_taken_at"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        airline_change = cls(
            id=id,
            booking_id=booking_id,
            added=added,
            removed=removed,
            available_actions=available_actions,
            action_taken=action_taken,
            action_taken_at=action_taken_at,
            created_at=created_at,
        )


        airline_change.additional_properties = d
        return airline_change

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
