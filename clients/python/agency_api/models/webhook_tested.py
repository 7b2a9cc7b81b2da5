from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_tested_status_enum import WebhookTestedStatusEnum
from typing import cast
import datetime






T = TypeVar("T", bound="WebhookTested")



@_attrs_define
class WebhookTested:
    """ 
        Attributes:
            id (str): The webhook's id.
            event_id (str): The test event's evt_…
            status (WebhookTestedStatusEnum): * `succeeded` - succeeded
                * `failed` - failed
            response_status (int | None): The receiver's HTTP status; null: none.
            response_body_excerpt (str): The first 500 characters of the receiver's answer.
            latency_ms (int): From sending to the end of the answer (or the error).
            error (None | str): Why it failed (as in the panel's attempt log); null when it succeeded.
            attempted_at (datetime.datetime):
     """

    id: str
    event_id: str
    status: WebhookTestedStatusEnum
    response_status: int | None
    response_body_excerpt: str
    latency_ms: int
    error: None | str
    attempted_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event_id = self.event_id

        status = self.status.value

        response_status: int | None
        response_status = self.response_status

        response_body_excerpt = self.response_body_excerpt

        latency_ms = self.latency_ms

        error: None | str
        error = self.error

        attempted_at = self.attempted_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "event_id": event_id,
            "status": status,
            "response_status": response_status,
            "response_body_excerpt": response_body_excerpt,
            "latency_ms": latency_ms,
            "error": error,
            "attempted_at": attempted_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        event_id = d.pop("event_id")

        status = WebhookTestedStatusEnum(d.pop("status"))




        def _parse_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status = _parse_response_status(d.pop("response_status"))


        response_body_excerpt = d.pop("response_body_excerpt")

        latency_ms = d.pop("latency_ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))




        webhook_tested = cls(
            id=id,
            event_id=event_id,
            status=status,
            response_status=response_status,
            response_body_excerpt=response_body_excerpt,
            latency_ms=latency_ms,
            error=error,
            attempted_at=attempted_at,
        )


        webhook_tested.additional_properties = d
        return webhook_tested

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
