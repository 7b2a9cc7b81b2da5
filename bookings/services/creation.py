"""Bookings: create (hold or instant), with the wallet effects of DESIGN.md "Money".

No lock is ever held across a supplier call: each step that talks to the supplier sits between
two short transactions. The booking row claims its offer first (a unique constraint on
`offer_id`), so an offer is never booked twice."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from agencies.models import Client, Team
from bookings.errors import InstantPaymentRequired, OfferAlreadyBooked, OfferExpired, OfferNotFound
from bookings.inputs import PassengerInput, PaymentInput, payment_check
from bookings.models import Booking, BookingPassenger
from bookings.services.extras import extras_records, offer_extras, service_requests
from bookings.services.recording import record_failure, record_order, record_outcome_unknown
from bookings.services.supplier_orders import (
    claim_check,
    look_up_order,
    order_passengers,
    release_check,
)
from core.exceptions import InvalidRequest
from flights.selectors import BookableOffer, bookable_offer
from flights.services_extras import Extras, slices_with_services
from flights.suppliers import supplier_for, supplier_for_booking
from flights.suppliers.base import FlightSupplier, SupplierError, SupplierOutcomeUnknown
from wallet.models import Transaction
from wallet.selectors import wallet_restricted
from wallet.services import WalletRestricted, wallet_debit


def booking_offer_get(*, team: Team, live_mode: bool, offer_id: str, type: str) -> BookableOffer:
    """The offer a booking of `type` would book: the team's in this mode, not expired, bookable
    so (a hold of an offer that must be paid at once is not), with a supplier to order it from.
    POST /bookings checks the passengers against it (bookings/apis.py)."""
    offer = bookable_offer(team=team, live_mode=live_mode, offer_id=offer_id)
    if offer is None:
        raise OfferNotFound()
    if offer.expires_at <= timezone.now():
        raise OfferExpired()
    if type == Booking.Type.HOLD and offer.requires_instant_payment:
        raise InstantPaymentRequired()
    supplier_for(team=team, live_mode=live_mode)  # live mode without a supplier refuses here
    return offer


def booking_create(
    *,
    team: Team,
    live_mode: bool,
    offer: BookableOffer,
    type: Booking.Type,
    passengers: list[PassengerInput],
    payment: PaymentInput | None = None,
    metadata: dict[str, str],
    idempotency_key: str = "",
    services: list[dict] | None = None,
    client: Client | None = None,
) -> Booking:
    """Book `offer` (from booking_offer_get) for its `passengers`; an instant booking pays
    `payment`, which must be the offer's original total, plus the `services` (extras,
    `[{id, quantity}]`: bookings/services/extras.py) bought with it. The booking is made for
    `client` (the team's, in this mode) when given, otherwise as `_client_for` finds it."""
    # A wallet in debt makes no new booking (docs/reversals.md): an instant one's debit is
    # refused (WalletRestricted, under the wallet's row lock); a hold debits nothing, so asks.
    if (
        type == Booking.Type.HOLD
        and wallet_restricted(team=team, live_mode=live_mode)
        and not _booked_by_the_same_request(offer=offer, team=team, key=idempotency_key)
    ):
        raise WalletRestricted()
    extras = offer_extras(team=team, live_mode=live_mode, offer=offer, type=type, requests=services)
    if type == Booking.Type.INSTANT:
        payment_check(
            payment=payment,
            amount=offer.total_amount + extras.total_amount,
            currency=offer.total_currency,
        )

    try:
        booking = _claim_offer(
            team=team,
            live_mode=live_mode,
            offer=offer,
            type=type,
            people=passengers,
            metadata=metadata,
            idempotency_key=idempotency_key,
            extras=extras,
            client=client,
        )
    except OfferAlreadyBooked:
        # The same request again, whose first attempt died after writing the booking (the
        # Idempotency-Key's stored answer was lost with it): answer with that booking.
        earlier = _booked_by_the_same_request(offer=offer, team=team, key=idempotency_key)
        if earlier is None:
            raise
        return _resume(earlier, offer=offer)
    return _place_order(booking, offer=offer)


def _place_order(
    booking: Booking, *, offer: BookableOffer, supplier: FlightSupplier | None = None
) -> Booking:
    """The supplier's hold or instant order, outside any transaction, and its outcome.
    `supplier`: the booking's (`supplier_for_booking`), from a caller that looked it up already."""
    supplier = supplier or supplier_for_booking(booking)
    instant = booking.type == Booking.Type.INSTANT
    try:
        order = supplier.create_order(
            offer=offer,
            passengers=order_passengers(booking),
            instant=instant,
            amount=booking.total_amount,  # the offer's, plus the services bought with it
            currency=offer.total_currency,
            booking_id=booking.id,
            services=service_requests(booking),
        )
    except SupplierOutcomeUnknown as exc:  # the order may exist: keep the money where it is
        return record_outcome_unknown(booking, exc)
    except SupplierError as exc:
        if instant:  # the wallet was debited: the booking stays, failed and refunded
            return record_failure(booking, exc)
        Booking.objects.filter(pk=booking.pk).delete()  # a refused hold: no booking remains
        raise
    return record_order(booking, order)


def _resume(booking: Booking, *, offer: BookableOffer) -> Booking:
    """The booking of a retried request whose first attempt died after writing it. Left
    pending without a supplier order (the process died before or during the supplier call,
    an instant booking already debited), the supplier is asked first whether the first
    attempt's order exists: found, it is recorded; certainly absent, it is ordered now; if the
    supplier cannot tell, the booking waits for the reconcile job. Otherwise it is answered as
    it is. Only this retry runs: it holds the Idempotency-Key (the others are told it is in
    flight), and the check lease keeps the reconcile job out meanwhile."""
    if booking.status != Booking.Status.PENDING or booking.supplier_order_id:
        return booking
    if not claim_check(booking.pk):
        return booking  # the reconcile job is asking the supplier right now
    try:
        booking.refresh_from_db()
        if booking.status != Booking.Status.PENDING or booking.supplier_order_id:
            return booking
        supplier = supplier_for_booking(booking)
        try:
            order = look_up_order(supplier, booking)
        except SupplierError as exc:
            return record_outcome_unknown(booking, exc)
        if order is None:
            return _place_order(booking, offer=offer, supplier=supplier)
        return record_order(booking, order)
    finally:
        release_check(booking.pk)


def _booked_by_the_same_request(*, offer: BookableOffer, team: Team, key: str) -> Booking | None:
    if not key:
        return None
    return Booking.objects.filter(offer_id=offer.id, team=team, idempotency_key=key).first()


def _claim_offer(
    *,
    team: Team,
    live_mode: bool,
    offer: BookableOffer,
    type: str,
    people: list[PassengerInput],
    metadata: dict,
    idempotency_key: str = "",
    extras: Extras | None = None,
    client: Client | None = None,
) -> Booking:
    """Write the booking and its passengers (and, for instant, debit the wallet) in one short
    transaction. A second booking of the same offer fails on the unique constraint. The
    `extras` bought with it are in its amounts, its `services` and its slices."""
    extras = extras or Extras()
    bought = extras_records(offer, extras)
    supplier_id = dict(
        zip((p["id"] for p in offer.passengers), offer.supplier_passenger_ids, strict=False)
    )
    try:
        with transaction.atomic():
            booking = Booking.objects.create(
                team=team,
                live_mode=live_mode,
                client=client
                or _client_for(team=team, live_mode=live_mode, people=people, metadata=metadata),
                offer_id=offer.id,
                type=type,
                supplier=offer.supplier,
                total_amount=offer.total_amount + extras.total_amount,
                total_currency=offer.total_currency,
                base_amount=offer.base_amount + extras.total_amount,  # services: no tax split
                tax_amount=offer.tax_amount,
                exchange_rate=offer.exchange_rate,  # the FX margin is in it already
                fx_reference_rate=offer.fx_reference_rate,
                fx_margin_percent=offer.fx_margin_percent,
                base_cost_brl=offer.base_cost_brl + extras.base_cost_brl,
                markup_amount=offer.markup_amount + extras.markup_amount,
                fee_amount=offer.fee_amount,
                client_amount=offer.client_amount + extras.client_amount,
                owner=offer.data["owner"],
                slices=slices_with_services(_booking_slices(offer.data["slices"]), bought),
                services=bought,
                conditions=offer.data["conditions"],
                departing_at=offer.first_departure,
                payment_required_by=offer.payment_required_by,
                price_guarantee_expires_at=offer.price_guarantee_expires_at,
                metadata=metadata,
                idempotency_key=idempotency_key,
            )
            BookingPassenger.objects.bulk_create(
                [
                    BookingPassenger(
                        booking=booking,
                        position=position,
                        passenger_id=p.id,
                        type=p.type,
                        title=p.title,
                        given_name=p.given_name,
                        family_name=p.family_name,
                        gender=p.gender,
                        born_on=p.born_on,
                        email=p.email,
                        phone_number=p.phone_number,
                        identity_documents=p.identity_documents,
                        loyalty_programme_accounts=p.loyalty_programme_accounts,
                        infant_passenger_id=p.infant_passenger_id,
                        supplier_passenger_id=supplier_id.get(p.id, ""),
                    )
                    for position, p in enumerate(people)
                ]
            )
            if type == Booking.Type.INSTANT:
                wallet_debit(
                    team=team,
                    live_mode=live_mode,
                    amount=booking.base_cost_brl,  # the offer's, plus the services'
                    reference_type=Transaction.ReferenceType.BOOKING,
                    reference_id=booking.id,
                    description=f"Booking {booking.id} ({offer.owner})"
                    + (f" with {len(bought)} extras" if bought else ""),
                )
    except IntegrityError:
        raise OfferAlreadyBooked() from None
    return booking


def _client_for(
    *, team: Team, live_mode: bool, people: list[PassengerInput], metadata: dict
) -> Client:
    """`metadata.client_id` when given, otherwise the lead passenger, matched by e-mail."""
    client_id = metadata.get("client_id")
    if client_id:
        client = Client.objects.filter(pk=client_id, team=team, live_mode=live_mode).first()
        if client is None:
            raise InvalidRequest(details={"metadata.client_id": "Unknown client."})
        return client
    lead = next(p for p in people if p.type == "adult")
    client, _ = Client.objects.get_or_create(
        team=team,
        live_mode=live_mode,
        email=lead.email.lower(),
        defaults={
            "full_name": f"{lead.given_name} {lead.family_name}",
            "phone_number": lead.phone_number,
            "made_from_booking": True,
        },
    )
    return client


def _booking_slices(slices: list[dict]) -> list[dict]:
    """The offer's slices, each segment passenger as a booking shows it (with its seat)."""
    return [
        {
            **slice_,
            "segments": [
                {
                    **segment,
                    "passengers": [
                        {
                            "passenger_id": p["passenger_id"],
                            "cabin_class": p["cabin_class"],
                            "seat": None,
                            "baggages": p["baggages"],
                        }
                        for p in segment["passengers"]
                    ],
                }
                for segment in slice_["segments"]
            ],
        }
        for slice_ in slices
    ]
