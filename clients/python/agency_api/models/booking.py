from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.booking_status_enum import BookingStatusEnum
from ..models.booking_type_enum import BookingTypeEnum
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.booking_metadata import BookingMetadata
  from ..models.booking_passenger import BookingPassenger
  from ..models.booking_service import BookingService
  from ..models.booking_slice import BookingSlice
  from ..models.carrier import Carrier
  from ..models.conditions import Conditions
  from ..models.document import Document
  from ..models.meta import Meta
  from ..models.payment_status import PaymentStatus





T = TypeVar("T", bound="Booking")



@_attrs_define
class Booking:
    """ 
        Attributes:
            id (str): ord_…
            booking_reference (str): The airline's locator; empty until the supplier confirms the booking.
            status (BookingStatusEnum): * `pending` - pending
                * `confirmed` - confirmed
                * `ticketed` - ticketed
                * `cancelled` - cancelled
                * `expired` - expired
                * `failed` - failed
            type_ (BookingTypeEnum): * `hold` - hold
                * `instant` - instant
            live_mode (bool):
            synced_at (datetime.datetime | None):
            created_at (datetime.datetime):
            total_amount (str): Original total, airline currency. Decimal string.
            total_currency (str): ISO 4217 currency code.
            tax_amount (str): Taxes, airline currency. Decimal string.
            tax_currency (str): ISO 4217 currency code.
            base_amount (str): Base fare, airline currency. Decimal string.
            base_currency (str): ISO 4217 currency code.
            owner (Carrier):
            slices (list[BookingSlice]):
            passengers (list[BookingPassenger]):
            documents (list[Document]): Issued tickets; empty until ticketed.
            conditions (Conditions):
            payment_status (PaymentStatus):
            services (list[BookingService]): Extras bought (bags, seats); their prices are in total_amount.
            metadata (BookingMetadata): The request's metadata, echoed.
            field_meta (Meta | Unset): Present on every answer to a test key (`sk_test_…`), errors included.
     """

    id: str
    booking_reference: str
    status: BookingStatusEnum
    type_: BookingTypeEnum
    live_mode: bool
    synced_at: datetime.datetime | None
    created_at: datetime.datetime
    total_amount: str
    total_currency: str
    tax_amount: str
    tax_currency: str
    base_amount: str
    base_currency: str
    owner: Carrier
    slices: list[BookingSlice]
    passengers: list[BookingPassenger]
    documents: list[Document]
    conditions: Conditions
    payment_status: PaymentStatus
    services: list[BookingService]
    metadata: BookingMetadata
    field_meta: Meta | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.booking_metadata import BookingMetadata # noqa: PLC0415
        from ..models.booking_passenger import BookingPassenger # noqa: PLC0415
        from ..models.booking_service import BookingService # noqa: PLC0415
        from ..models.booking_slice import BookingSlice # noqa: PLC0415
        from ..models.carrier import Carrier # noqa: PLC0415
        from ..models.conditions import Conditions # noqa: PLC0415
        from ..models.document import Document # noqa: PLC0415
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.payment_status import PaymentStatus # noqa: PLC0415
        id = self.id

        booking_reference = self.booking_reference

        status = self.status.value

        type_ = self.type_.value

        live_mode = self.live_mode

        synced_at: None | str
        if isinstance(self.synced_at, datetime.datetime):
            synced_at = self.synced_at.isoformat()
        else:
            synced_at = self.synced_at

        created_at = self.created_at.isoformat()

        total_amount = self.total_amount

        total_currency = self.total_currency

        tax_amount = self.tax_amount

        tax_currency = self.tax_currency

        base_amount = self.base_amount

        base_currency = self.base_currency

        owner = self.owner.to_dict()

        slices = []
        for slices_item_data in self.slices:
            slices_item = slices_item_data.to_dict()
            slices.append(slices_item)



        passengers = []
        for passengers_item_data in self.passengers:
            passengers_item = passengers_item_data.to_dict()
            passengers.append(passengers_item)



        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)



        conditions = self.conditions.to_dict()

        payment_status = self.payment_status.to_dict()

        services = []
        for services_item_data in self.services:
            services_item = services_item_data.to_dict()
            services.append(services_item)



        metadata = self.metadata.to_dict()

        field_meta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_meta, Unset):
            field_meta = self.field_meta.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "booking_reference": booking_reference,
            "status": status,
            "type": type_,
            "live_mode": live_mode,
            "synced_at": synced_at,
            "created_at": created_at,
            "total_amount": total_amount,
            "total_currency": total_currency,
            "tax_amount": tax_amount,
            "tax_currency": tax_currency,
            "base_amount": base_amount,
            "base_currency": base_currency,
            "owner": owner,
            "slices": slices,
            "passengers": passengers,
            "documents": documents,
            "conditions": conditions,
            "payment_status": payment_status,
            "services": services,
            "metadata": metadata,
        })
        if field_meta is not UNSET:
            field_dict["_meta"] = field_meta

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.booking_metadata import BookingMetadata # noqa: PLC0415
        from ..models.booking_passenger import BookingPassenger # noqa: PLC0415
        from ..models.booking_service import BookingService # noqa: PLC0415
        from ..models.booking_slice import BookingSlice # noqa: PLC0415
        from ..models.carrier import Carrier # noqa: PLC0415
        from ..models.conditions import Conditions # noqa: PLC0415
        from ..models.document import Document # noqa: PLC0415
        from ..models.meta import Meta # noqa: PLC0415
        from ..models.payment_status import PaymentStatus # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        booking_reference = d.pop("booking_reference")

        status = BookingStatusEnum(d.pop("status"))




        type_ = BookingTypeEnum(d.pop("type"))




        live_mode = d.pop("live_mode")

        def _parse_synced_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                synced_at_type_0 = datetime.datetime.fromisoformat(data)



                return synced_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        synced_at = _parse_synced_at(d.pop("synced_at"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        total_amount = d.pop("total_amount")

        total_currency = d.pop("total_currency")

        tax_amount = d.pop("tax_amount")

        tax_currency = d.pop("tax_currency")

        base_amount = d.pop("base_amount")

        base_currency = d.pop("base_currency")

        owner = Carrier.from_dict(d.pop("owner"))




        slices = []
        _slices = d.pop("slices")
        for slices_item_data in (_slices):
            slices_item = BookingSlice.from_dict(slices_item_data)



            slices.append(slices_item)


        passengers = []
        _passengers = d.pop("passengers")
        for passengers_item_data in (_passengers):
            passengers_item = BookingPassenger.from_dict(passengers_item_data)



            passengers.append(passengers_item)


        documents = []
        _documents = d.pop("documents")
        for documents_item_data in (_documents):
            documents_item = Document.from_dict(documents_item_data)



            documents.append(documents_item)


        conditions = Conditions.from_dict(d.pop("conditions"))




        payment_status = PaymentStatus.from_dict(d.pop("payment_status"))




        services = []
        _services = d.pop("services")
        for services_item_data in (_services):
            services_item = BookingService.from_dict(services_item_data)



            services.append(services_item)


        metadata = BookingMetadata.from_dict(d.pop("metadata"))




        _field_meta = d.pop("_meta", UNSET)
        field_meta: Meta | Unset
        if isinstance(_field_meta,  Unset):
            field_meta = UNSET
        else:
            field_meta = Meta.from_dict(_field_meta)




        booking = cls(
            id=id,
            booking_reference=booking_reference,
            status=status,
            type_=type_,
            live_mode=live_mode,
            synced_at=synced_at,
            created_at=created_at,
            total_amount=total_amount,
            total_currency=total_currency,
            tax_amount=tax_amount,
            tax_currency=tax_currency,
            base_amount=base_amount,
            base_currency=base_currency,
            owner=owner,
            slices=slices,
            passengers=passengers,
            documents=documents,
            conditions=conditions,
            payment_status=payment_status,
            services=services,
            metadata=metadata,
            field_meta=field_meta,
        )


        booking.additional_properties = d
        return booking

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
