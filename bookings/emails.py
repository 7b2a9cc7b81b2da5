"""The automatic e-mails of the spec: booking confirmation, ticket issued, payment reminder,
booking cancelled. Each is a BookingEmail row written in the transaction of its trigger, then
sent by a Celery task exactly once (the row's `sent_at`)."""

from datetime import datetime
from decimal import Decimal
from types import SimpleNamespace
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

from bookings.itinerary import itinerary
from bookings.models import Booking, BookingAirlineChange, BookingEmail
from core.emails import email_message
from core.i18n import SAO_PAULO, date_for_people, sao_paulo_time_for_people
from core.money import money_display, q

SUBJECTS: "dict[str, StrPromise]" = {
    BookingEmail.Kind.CREATED: _("Booking %(ref)s received"),
    BookingEmail.Kind.TICKETED: _("Your e-tickets for booking %(ref)s"),
    BookingEmail.Kind.REMINDER: _("Payment due for booking %(ref)s"),
    BookingEmail.Kind.CANCELLED: _("Booking %(ref)s cancelled"),
    BookingEmail.Kind.FAILED: _("Booking %(ref)s failed: nothing was issued"),
    BookingEmail.Kind.SERVICES_ADDED: _("Extras added to booking %(ref)s"),
    BookingEmail.Kind.CHANGED: _("Booking %(ref)s: your flights were changed"),
}
# The airline changed the flights (not a BookingEmail kind: one e-mail per change, its row's
# `email_sent_at`).
AIRLINE_CHANGE = "airline_change"
AIRLINE_CHANGE_SUBJECT = _("New flight times for booking %(ref)s")
CUSTOMER_ONLY = {BookingEmail.Kind.REMINDER}
# The agency tells its customer and books again: the traveller gets no e-mail of a failure.
AGENCY_ONLY = {BookingEmail.Kind.FAILED}


def email_queue(*, booking: Booking, kind: str) -> None:
    """Record the e-mail (once per booking and kind) and send it after commit. Call inside the
    transaction of the change that triggers it."""
    try:
        with transaction.atomic():
            email = BookingEmail.objects.create(booking=booking, kind=kind)
    except IntegrityError:
        return  # already queued for this booking: e-mails are sent once per trigger
    from bookings.tasks import send_booking_email

    send_booking_email.delay_on_commit(email.pk)  # type: ignore[attr-defined]  # DjangoTask


def email_queue_each_time(*, booking: Booking, kind: str) -> None:
    """`email_queue` for kinds sent again on each change of their kind (a flight change, extras
    added after the sale): the one row per booking and kind is marked unsent again, and the
    task sends the booking as it is then (two changes in quick succession: one e-mail with both)."""
    from bookings.tasks import send_booking_email

    email, created = BookingEmail.objects.get_or_create(booking=booking, kind=kind)
    if not created:  # queued again: it goes out after what was queued before it
        BookingEmail.objects.filter(pk=email.pk).update(sent_at=None, queued_at=timezone.now())
    send_booking_email.delay_on_commit(email.pk)  # type: ignore[attr-defined]  # DjangoTask


def emails_queue(*, booking: Booking, kinds: list[str]) -> None:
    """`email_queue` for several kinds of one change, in that order: one INSERT in one savepoint
    when none of them is queued yet (an instant booking ticketed at once), else each kind on its
    own (those already queued are not queued again)."""
    from bookings.tasks import send_booking_email

    try:
        with transaction.atomic():
            emails = BookingEmail.objects.bulk_create(
                [BookingEmail(booking=booking, kind=kind) for kind in kinds]
            )
    except IntegrityError:
        for kind in kinds:
            email_queue(booking=booking, kind=kind)
        return
    for email in emails:
        send_booking_email.delay_on_commit(email.pk)  # type: ignore[attr-defined]  # DjangoTask


def traveller_recipients(booking: Booking, kind: str) -> list[str]:
    """Who gets the travellers' e-mail. Live mode: the passengers (none for agency-only kinds).
    Test mode: only the team's own addresses (its notification address and its active panel
    users), whatever the kind: a test key must not e-mail real people text its caller chose."""
    team = booking.team
    if kind in AGENCY_ONLY:
        return []
    if not booking.live_mode:
        users = team.users.filter(is_active=True).exclude(email="").order_by("pk")
        addresses = [team.notification_email, *users.values_list("email", flat=True)]
        return list(dict.fromkeys(a.lower() for a in addresses if a))
    return list(dict.fromkeys(p.email.lower() for p in booking.passengers.all()))


def agency_recipients(booking: Booking, kind: str) -> list[str]:
    """Who gets the agency's own e-mail: the team's notification address (none for the kinds
    only the customer gets, and none without that address)."""
    team = booking.team
    if kind in CUSTOMER_ONLY or not team.notification_email:
        return []
    return [team.notification_email]


def credit_expiry_for_people(credit: dict) -> str:
    """The last day an airline credit can be used (São Paulo's calendar), "" when not said."""
    if not credit.get("expires_at"):
        return ""
    moment = datetime.fromisoformat(credit["expires_at"].replace("Z", "+00:00"))
    return date_for_people(moment.astimezone(SAO_PAULO).date())


def customer_refund(booking: Booking) -> dict:
    """What the customer gets back when the booking is cancelled (docs/emails.md "Refund"), in
    BRL, from the price they pay (`client_amount`), never from the airline's fare, and from
    what the airline *confirmed* refunding (the booking's confirmed cancellation):

    - not paid (a hold cancelled before its confirmation): nothing was charged, nothing refunded;
    - paid, and the airline refunds money: the same share of the client price as the airline
      refunds of its fare, `client_amount × refund ÷ total_amount` (cents, half up); a full
      refund (or an airline never paid) is the whole `client_amount`;
    - paid, and the airline refunds to a voucher or airline credits: no money, the credits
      listed (`credits`);
    - paid, and the fare does not refund: nothing.
    """
    if booking.confirmed_at is None:
        return {"paid": False, "amount": Decimal("0.00"), "full": False, "credits": []}
    cancellation = (
        None  # an unsaved booking (the e-mail samples) has no cancellation recorded
        if booking._state.adding
        else booking.cancellations.filter(status="confirmed").first()
    )
    credits: list[dict] = []
    if cancellation is None:  # cancelled before cancellations were recorded
        from bookings.services import refund_due

        refund = refund_due(booking) or Decimal("0")
    elif cancellation.refund_to == "awaiting_payment":
        refund = booking.total_amount
    elif cancellation.refund_to in ("voucher", "airline_credits"):
        refund = Decimal("0")
        credits = [
            {
                "name": credit["credit_name"],
                "amount": money_display(
                    Decimal(credit["credit_amount"]), credit["credit_currency"]
                ),
                "code": credit["credit_code"] or "",
                "expires": credit_expiry_for_people(credit),
            }
            for credit in cancellation.airline_credits
        ]
    else:
        refund = cancellation.refund_amount or Decimal("0")
    if refund >= booking.total_amount:
        amount = booking.client_amount
    else:
        amount = q(booking.client_amount * refund / booking.total_amount)
    return {
        "paid": True,
        "amount": amount,
        "full": amount == booking.client_amount,
        "credits": credits,
    }


def extras_lines(booking: Booking, passengers: list) -> list[dict]:
    """The extras bought after the sale, as the e-mail lists them: what, for whom, on which
    flights, and the customer's price (R$)."""
    names = {p.passenger_id: f"{p.given_name} {p.family_name}" for p in passengers}
    bought_later = [s for s in booking.services if s.get("purchase_id")]
    return service_lines(booking, bought_later, names)


def service_lines(booking: Booking, services: list[dict], names: dict[str, str]) -> list[dict]:
    """Extras (the booking's service records) as people read them: what, for whom (`names`:
    passenger id to name), on which flights, and the customer's price (R$)."""
    routes = {
        segment.get(
            "id"
        ): f"{segment['origin']['iata_code']} → {segment['destination']['iata_code']}"
        for slice_ in booking.slices
        for segment in slice_["segments"]
    }
    lines = []
    for service in services:
        metadata = service.get("metadata") or {}
        if service["type"] == "seat":
            what = _("Seat %(seat)s") % {"seat": metadata.get("designator") or ""}
        else:
            what = ngettext(
                "%(count)s checked bag of up to %(kg)s kg",
                "%(count)s checked bags of up to %(kg)s kg",
                service["quantity"],
            ) % {"count": service["quantity"], "kg": metadata.get("maximum_weight_kg") or ""}
        lines.append(
            {
                "what": what,
                "who": ", ".join(names.get(p, p) for p in service["passenger_ids"]),
                "flights": ", ".join(routes.get(s, s) for s in service["segment_ids"]),
                "price": money_display(Decimal(service["client_amount"]), "BRL"),
            }
        )
    return lines


def booking_email_context(booking: Booking, kind: str, passengers: list, documents: list) -> dict:
    """What the e-mail shows, written for people in the active language."""
    team = booking.team
    tickets: dict[str, list[str]] = {}
    for document in documents:
        tickets.setdefault(document.passenger_id, []).append(document.unique_identifier)
    refund = customer_refund(booking) if kind == BookingEmail.Kind.CANCELLED else None
    deadline = booking.payment_required_by
    return {
        "booking": booking,
        "kind": kind,
        "reference": booking.booking_reference or booking.id,
        "agency": team.name,
        "agency_email": team.notification_email,
        "airline": (booking.owner or {}).get("name", ""),
        "itinerary": itinerary(booking),  # as the booking page words it
        "travellers": [
            {"name": f"{p.given_name} {p.family_name}", "tickets": tickets.get(p.passenger_id, [])}
            for p in passengers
        ],
        "price": money_display(booking.client_amount, "BRL"),
        "awaiting_payment": booking.status == Booking.Status.PENDING and deadline is not None,
        "deadline": sao_paulo_time_for_people(deadline) if deadline else "",
        "refund": refund,
        "refund_amount": money_display(refund["amount"], "BRL") if refund else "",
        "extras": extras_lines(booking, passengers)
        if kind == BookingEmail.Kind.SERVICES_ADDED
        else [],
        "change_amount": _change_amount(booking) if kind == BookingEmail.Kind.CHANGED else "",
    }


def agency_context(booking: Booking, sent_to: list[str]) -> dict:
    """What only the agency's copy says: where the booking is in the panel, who got the
    travellers' e-mail, and the costs behind the customer's price (never in the travellers')."""
    return {
        "for_agency": True,
        "sent_to": sent_to,
        "panel_url": settings.PUBLIC_BASE_URL.rstrip("/")
        + reverse("admin:bookings_booking_change", args=[booking.pk or "0"]),
        "fare": money_display(booking.total_amount, booking.total_currency),
        "cost": money_display(booking.base_cost_brl, "BRL"),
        "markup": money_display(booking.markup_amount, "BRL"),
        "fee": money_display(booking.fee_amount, "BRL"),
    }


def _change_amount(booking: Booking) -> str:
    """The client price of the booking's latest change (docs/after-sale.md), for people."""
    if booking._state.adding:  # an unsaved booking (the e-mail samples) has no change recorded
        return ""
    change = booking.change_offers.filter(status="confirmed").order_by("-confirmed_at").first()
    return money_display(change.client_change_amount, "BRL") if change else ""


def booking_email_message(
    *,
    booking: Booking,
    kind: str,
    passengers: list,
    documents: list,
    to: list[str],
    for_agency: bool = False,
    sent_to: list[str] | None = None,
) -> EmailMultiAlternatives:
    """The e-mail of `kind` for the booking, built and not sent (the samples command and the
    tests read it the way `email_send` sends it). The travellers' comes under the agency's
    name; the agency's own (`for_agency`: the panel link and the costs, `sent_to` the
    travellers' addresses) from the service, answered to support."""
    subject = SUBJECTS[kind]
    own_copy = for_agency and kind not in AGENCY_ONLY
    return email_message(
        template=kind,
        subject=lambda: _subject(subject, booking, own_copy),
        context=lambda: {
            **booking_email_context(booking, kind, passengers, documents),
            **(agency_context(booking, sent_to or []) if for_agency else {}),
        },
        to=to,
        team=booking.team,
        test_mode=not booking.live_mode,
        from_service=for_agency,
    )


def _subject(subject: "StrPromise | str", booking: Booking, agency_copy: bool) -> str:
    text = str(subject) % {"ref": booking.booking_reference or booking.id}
    return gettext("Agency copy: %(subject)s") % {"subject": text} if agency_copy else text


def booking_email_messages(
    *, booking: Booking, kind: str, passengers: list, documents: list
) -> list[EmailMultiAlternatives]:
    """The travellers' e-mail and the agency's own, each to its own people (either may have
    nobody to go to)."""
    travellers = traveller_recipients(booking, kind)
    agency = agency_recipients(booking, kind)
    messages = []
    if travellers:
        messages.append(
            booking_email_message(
                booking=booking,
                kind=kind,
                passengers=passengers,
                documents=documents,
                to=travellers,
            )
        )
    if agency:
        messages.append(
            booking_email_message(
                booking=booking,
                kind=kind,
                passengers=passengers,
                documents=documents,
                to=agency,
                for_agency=True,
                sent_to=travellers,
            )
        )
    return messages


def email_send(*, email_id: int) -> bool:
    """Send a queued e-mail unless it was sent already, after any of its booking's e-mails
    queued before it and not sent yet: each trigger queues its own task, and Celery runs them
    concurrently, retries them and may lose one, so the tasks may run in any order; the
    travellers still read "booking received" before "tickets issued". The booking's e-mail rows
    are locked (in primary-key order, as every sender does) for the sending. Returns whether
    this one was sent now."""
    with transaction.atomic():
        email = BookingEmail.objects.filter(pk=email_id).only("booking_id").get()
        rows = list(
            BookingEmail.objects.select_for_update(of=("self",))
            .select_related("booking__team")
            .filter(booking_id=email.booking_id)
            .order_by("pk")
        )
        email = next(row for row in rows if row.pk == email_id)
        if email.sent_at is not None:
            return False
        due = sorted(
            (row for row in rows if row.sent_at is None and _order(row) <= _order(email)),
            key=_order,
        )
        booking = email.booking
        passengers, documents = list(booking.passengers.all()), list(booking.documents.all())
        for row in due:
            for message in booking_email_messages(
                booking=booking, kind=row.kind, passengers=passengers, documents=documents
            ):
                message.send()
            row.sent_at = timezone.now()
            row.save(update_fields=["sent_at"])
    return True


def _order(email: BookingEmail) -> tuple:
    return (email.queued_at, email.pk)


# --- The airline changed the flights -----------------------------------------------------------


def airline_change_email_message(
    *,
    change: BookingAirlineChange,
    passengers: list,
    documents: list,
    to: list[str],
    for_agency: bool = False,
    sent_to: list[str] | None = None,
) -> EmailMultiAlternatives:
    """The e-mail of an airline's change: the flights as booked and as the airline moved them
    (local times), and the journey with the change; the agency's own as `booking_email_message`
    makes it."""
    booking = change.booking

    def context() -> dict:
        from bookings.services import moved_slices

        journey = moved_slices(booking.slices or [], change.removed, change.added)
        return {
            **booking_email_context(booking, AIRLINE_CHANGE, passengers, documents),
            "itinerary": itinerary(SimpleNamespace(slices=journey)),  # type: ignore[arg-type]
            "before": itinerary(SimpleNamespace(slices=change.removed)),  # type: ignore[arg-type]
            "after": itinerary(SimpleNamespace(slices=change.added)),  # type: ignore[arg-type]
            "accepted": change.action_taken == BookingAirlineChange.ActionTaken.ACCEPTED,
            **(agency_context(booking, sent_to or []) if for_agency else {}),
        }

    return email_message(
        template=AIRLINE_CHANGE,
        subject=lambda: _subject(AIRLINE_CHANGE_SUBJECT, booking, for_agency),
        context=context,
        to=to,
        team=booking.team,
        test_mode=not booking.live_mode,
        from_service=for_agency,
    )


def airline_change_email_send(*, change_id: str) -> bool:
    """Send a change's e-mail unless it was sent already. Returns whether it was sent now."""
    with transaction.atomic():
        change = (
            BookingAirlineChange.objects.select_for_update(of=("self",))
            .select_related("booking__team")
            .get(pk=change_id)
        )
        if change.email_sent_at is not None:
            return False
        booking = change.booking
        passengers, documents = list(booking.passengers.all()), list(booking.documents.all())
        travellers = traveller_recipients(booking, AIRLINE_CHANGE)
        agency = agency_recipients(booking, AIRLINE_CHANGE)
        if travellers:
            airline_change_email_message(
                change=change, passengers=passengers, documents=documents, to=travellers
            ).send()
        if agency:
            airline_change_email_message(
                change=change,
                passengers=passengers,
                documents=documents,
                to=agency,
                for_agency=True,
                sent_to=travellers,
            ).send()
        change.email_sent_at = timezone.now()
        change.save(update_fields=["email_sent_at"])
    return True
