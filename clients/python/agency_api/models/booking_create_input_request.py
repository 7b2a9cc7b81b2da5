from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_type_enum import BookingTypeEnum
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.balance_payment_input_request import BalancePaymentInputRequest
  from ..models.booking_create_input_request_metadata import BookingCreateInputRequestMetadata
  from ..models.passenger_input_request import PassengerInputRequest
  from ..models.service_input_request import ServiceInputRequest





T = TypeVar("T", bound="BookingCreateInputRequest")



@_attrs_define
class BookingCreateInputRequest:
    """ Unknown keys are ignored.

        Attributes:
            offer_id (str): off_… from a search, not expired.
            type_ (BookingTypeEnum): * `hold` - hold
                * `instant` - instant
            passengers (list[PassengerInputRequest]): Every passenger of the offer, once.
            payments (list[BalancePaymentInputRequest] | Unset): Required for instant (exactly one); ignored for hold.
            services (list[ServiceInputRequest] | Unset): Extras bought with an instant booking (bags from the offer's
                available_services, seats from its seat_maps); the payment is then the offer's total plus theirs.
            metadata (BookingCreateInputRequestMetadata | Unset): Free-form: at most 50 keys of at most 40 characters,
                values of at most 500. `client_id` (cli_…) here links the booking to that client too (the body's `client_id` is
                the way to; if both are given they must be the same).
            client_id (None | str | Unset): cli_… of an existing client of the team in this mode (POST /clients): the
                booking is made for it. Not given: the client whose e-mail is the lead adult passenger's (created from the
                passenger if new). Unknown: 404 client_not_found.
     """

    offer_id: str
    type_: BookingTypeEnum
    passengers: list[PassengerInputRequest]
    payments: list[BalancePaymentInputRequest] | Unset = UNSET
    services: list[ServiceInputRequest] | Unset = UNSET
    metadata: BookingCreateInputRequestMetadata | Unset = UNSET
    client_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.balance_payment_input_request import BalancePaymentInputRequest # noqa: PLC0415
        from ..models.booking_create_input_request_metadata import BookingCreateInputRequestMetadata # noqa: PLC0415
        from ..models.passenger_input_request import PassengerInputRequest # noqa: PLC0415
        from ..models.service_input_request import ServiceInputRequest # noqa: PLC0415
        offer_id = self.offer_id

        type_ = self.type_.value

        passengers = []
        for passengers_item_data in self.passengers:
            passengers_item = passengers_item_data.to_dict()
            passengers.append(passengers_item)



        payments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.payments, Unset):
            payments = []
            for payments_item_data in self.payments:
                payments_item = payments_item_data.to_dict()
                payments.append(payments_item)



        services: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.services, Unset):
            services = []
            for services_item_data in self.services:
                services_item = services_item_data.to_dict()
                services.append(services_item)



        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "offerId": offer_id,
            "type": type_,
            "passengers": passengers,
        })
        if payments is not UNSET:
            field_dict["payments"] = payments
        if services is not UNSET:
            field_dict["services"] = services
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if client_id is not UNSET:
            field_dict["client_id"] = client_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balance_payment_input_request import BalancePaymentInputRequest # noqa: PLC0415
        from ..models.booking_create_input_request_metadata import BookingCreateInputRequestMetadata # noqa: PLC0415
        from ..models.passenger_input_request import PassengerInputRequest # noqa: PLC0415
        from ..models.service_input_request import ServiceInputRequest # noqa: PLC0415
        d = dict(src_dict)
        offer_id = d.pop("offerId")

        type_ = BookingTypeEnum(d.pop("type"))




        passengers = []
        _passengers = d.pop("passengers")
        for passengers_item_data in (_passengers):
            passengers_item = PassengerInputRequest.from_dict(passengers_item_data)



            passengers.append(passengers_item)


        _payments = d.pop("payments", UNSET)
        payments: list[BalancePaymentInputRequest] | Unset = UNSET
        if _payments is not UNSET:
            payments = []
            for payments_item_data in _payments:
                payments_item = BalancePaymentInputRequest.from_dict(payments_item_data)



                payments.append(payments_item)


        _services = d.pop("services", UNSET)
        services: list[ServiceInputRequest] | Unset = UNSET
        if _services is not UNSET:
            services = []
            for services_item_data in _services:
                services_item = ServiceInputRequest.from_dict(services_item_data)



                services.append(services_item)


        _metadata = d.pop("metadata", UNSET)
        metadata: BookingCreateInputRequestMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = BookingCreateInputRequestMetadata.from_dict(_metadata)




        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("client_id", UNSET))


        booking_create_input_request = cls(
            offer_id=offer_id,
            type_=type_,
            passengers=passengers,
            payments=payments,
            services=services,
            metadata=metadata,
            client_id=client_id,
        )


        booking_create_input_request.additional_properties = d
        return booking_create_input_request

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
