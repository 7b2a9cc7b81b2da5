"""Extras (bags and seats) over the API against the sandbox: listed and priced for the team,
bought with an instant booking (the wallet debited the offer plus them, once), shown on the
booking; added after the sale (docs/extras.md)."""

from decimal import Decimal

import pytest

from agencies.pricing import price_offer
from bookings.models import Booking
from bookings.tests.helpers import basic_offer, book, offers, paid_seat, seat_maps
from core.money import q
from tests.kit.factories import fund
from tests.kit.passengers import passenger
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time")]

BOOKINGS = "/api/v1/bookings"


@pytest.fixture
def client(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    team.markup_percent = Decimal("10")
    team.save()
    fund(team, "100000.00")
    return live_client


def available(client, offer) -> list[dict]:
    response = client.get(f"/api/v1/offers/{offer['id']}/available_services")
    assert response.status_code == 200, response.content
    return response.json()["data"]


def payment(amount: Decimal, currency: str) -> list[dict]:
    return [{"type": "balance", "amount": f"{amount:.2f}", "currency": currency}]


def debits(booking_id: str) -> list[Transaction]:
    return list(Transaction.objects.filter(reference_id=booking_id, type="debit"))


def test_a_basic_fare_sells_23_kg_bags_priced_per_segment_for_the_team(client, team):
    offer = basic_offer(client)
    bags = available(client, offer)
    passenger_id = offer["passengers"][0]["id"]
    assert bags, "a basic fare sells checked bags"
    bag = bags[0]
    assert bag["id"].startswith("ase_")
    assert bag["type"] == "baggage"
    assert bag["passenger_ids"] == [passenger_id]
    assert bag["segment_ids"] == [s["id"] for s in offer["slices"][0]["segments"]]
    assert bag["maximum_quantity"] == 3
    assert bag["metadata"]["maximum_weight_kg"] == 23
    assert bag["total_currency"] == offer["total_currency"]
    rate = Decimal(str(offer["exchange_rate_used"]))
    price = price_offer(
        total_amount=Decimal(bag["total_amount"]),
        total_currency=bag["total_currency"],
        exchange_rate=rate,
        markup_percent=Decimal("10"),
        fee=Decimal("0"),
    )
    assert bag["base_cost_brl"] == f"{price.base_cost_brl:.2f}"
    assert bag["client_amount"] == f"{price.client_amount:.2f}"
    assert bag["client_currency"] == "BRL"


def test_seat_maps_have_rows_columns_exit_rows_and_paid_seats(client):
    offer = basic_offer(client)
    maps = seat_maps(client, offer)
    segments = [s["id"] for sl in offer["slices"] for s in sl["segments"]]
    assert [m["segment_id"] for m in maps] == segments
    cabin = maps[0]["cabins"][0]
    elements = [
        e for row in cabin["rows"] for section in row["sections"] for e in section["elements"]
    ]
    seats = [e for e in elements if e["type"] == "seat"]
    assert {e["designator"][-1] for e in seats} >= set("ABCDEF")
    assert any(e["type"] == "exit_row" for e in elements)
    exit_seats = [e for e in seats if e["name"] == "Extra legroom"]
    assert exit_seats and all(e["disclosures"] for e in exit_seats)
    _element, service = paid_seat(maps[0])
    assert service["passenger_id"] == offer["passengers"][0]["id"]
    assert Decimal(service["client_amount"]) > Decimal(service["base_cost_brl"]) > 0
    assert any(not e["available_services"] for e in seats), "some seats are taken"


def test_an_instant_booking_with_a_bag_and_a_paid_seat_debits_offer_plus_extras(client, team):
    offer = basic_offer(client)
    bag = available(client, offer)[0]
    seat_map = seat_maps(client, offer)[0]
    element, seat = paid_seat(seat_map)
    total = (
        Decimal(offer["total_amount"])
        + Decimal(bag["total_amount"])
        + Decimal(seat["total_amount"])
    )
    response = book(
        client,
        offer,
        type="instant",
        payments=payment(total, offer["total_currency"]),
        services=[{"id": bag["id"], "quantity": 1}, {"id": seat["id"], "quantity": 1}],
    )
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["status"] == "ticketed"
    assert data["total_amount"] == f"{total:.2f}"
    assert [(s["type"], s["id"], s["quantity"]) for s in data["services"]] == [
        ("baggage", bag["id"], 1),
        ("seat", seat["id"], 1),
    ]
    passenger_id = offer["passengers"][0]["id"]
    first = data["slices"][0]["segments"][0]["passengers"][0]
    assert first["passenger_id"] == passenger_id
    assert first["seat"] == {
        "designator": element["designator"],
        "name": element["name"],
        "disclosures": element["disclosures"],
    }
    assert {"type": "checked", "quantity": 1} in first["baggages"]
    expected = (
        Decimal(offer["base_cost_brl"])
        + Decimal(bag["base_cost_brl"])
        + Decimal(seat["base_cost_brl"])
    )
    [debit] = debits(data["id"])
    assert debit.amount == expected
    assert debit.reference_type == "booking"
    booking = Booking.objects.get(pk=data["id"])
    assert booking.base_cost_brl == expected
    assert booking.client_amount == Decimal(offer["client_amount"]) + Decimal(
        bag["client_amount"]
    ) + Decimal(seat["client_amount"])
    assert ledger_problems() == []


def test_the_booking_page_and_the_ticket_email_show_the_seat_bought(client, team):
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from bookings.emails import booking_email_message
    from tests.kit.panel import browser_for

    offer = basic_offer(client)
    element, seat = paid_seat(seat_maps(client, offer)[0])
    total = Decimal(offer["total_amount"]) + Decimal(seat["total_amount"])
    response = book(
        client,
        offer,
        type="instant",
        payments=payment(total, offer["total_currency"]),
        services=[{"id": seat["id"], "quantity": 1}],
    )
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    seat_line = f"Assento {element['designator']}"

    browser = browser_for(SupportUserFactory(), language="pt-br")
    page = browser.get(reverse("admin:bookings_booking_change", args=[booking.pk])).content.decode()
    message = booking_email_message(
        booking=booking,
        kind="ticket_issued",
        passengers=list(booking.passengers.all()),
        documents=list(booking.documents.all()),
        to=["ana@example.com"],
    )

    assert seat_line in page
    assert seat_line in message.body
    assert seat_line in message.alternatives[0][0]


def test_the_booking_page_lists_extras_bought_with_the_booking_and_after_it(client, team):
    """Its own section: the seat bought with the booking, then each later purchase with its
    id, what it was, for whom, on which flights and at what price; an unsettled one says so."""
    import re

    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from bookings.models import BookingServicesPurchase
    from core.money import money_display
    from tests.kit.panel import browser_for

    offer = basic_offer(client)
    element, seat = paid_seat(seat_maps(client, offer)[0])
    total = Decimal(offer["total_amount"]) + Decimal(seat["total_amount"])
    response = book(
        client,
        offer,
        type="instant",
        payments=payment(total, offer["total_currency"]),
        services=[{"id": seat["id"], "quantity": 1}],
    )
    assert response.status_code == 201, response.content
    booking = response.json()
    bag = booking_bags(client, booking)[0]
    body = {
        "add_services": [{"id": bag["id"], "quantity": 1}],
        "payment": payment(Decimal(bag["total_amount"]), bag["total_currency"])[0],
    }
    assert (
        client.post(f"{BOOKINGS}/{booking['id']}/services", body, format="json").status_code == 200
    )
    purchase = BookingServicesPurchase.objects.get()
    browser = browser_for(SupportUserFactory(), language="pt-br")
    url = reverse("admin:bookings_booking_change", args=[booking["id"]])

    page = browser.get(url).content.decode()

    section = page[page.index('id="bp-extras"') : page.index('id="bp-itinerary"')]
    groups = re.findall(r'data-purchase="([^"]*)"(.*?)</tbody>', section, re.S)
    assert [purchase_id for purchase_id, _ in groups] == ["", purchase.pk]
    at_booking, after = (text for _, text in groups)
    assert "Com a reserva" in at_booking
    assert f"Assento {element['designator']}" in at_booking
    assert money_display(Decimal(seat["client_amount"])) in at_booking
    assert "1 bagagem despachada de até 23 kg" in after
    assert "Ana " in after  # the passenger's name, not its id
    assert money_display(Decimal(bag["client_amount"])) in after
    assert money_display(Decimal(bag["base_cost_brl"])) + " da carteira" in after
    assert "status-warning" not in section  # both settled

    BookingServicesPurchase.objects.filter(pk=purchase.pk).update(status="unknown")
    unsettled = browser.get(url).content.decode()
    assert "Resultado desconhecido" in unsettled[unsettled.index('id="bp-extras"') :]


def test_a_payment_without_the_extras_is_refused_and_nothing_is_written(client, team):
    offer = basic_offer(client)
    bag = available(client, offer)[0]
    response = book(
        client,
        offer,
        type="instant",
        services=[{"id": bag["id"], "quantity": 2}],
    )  # pays the offer's total only
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "payment_amount_mismatch"
    expected = Decimal(offer["total_amount"]) + 2 * Decimal(bag["total_amount"])
    assert error["details"]["expected_amount"] == [f"{expected:.2f}"]
    assert not Booking.objects.exists()
    assert not Transaction.objects.filter(type="debit").exists()
    assert ledger_problems() == []


def test_unknown_services_too_many_and_holds_are_refused(client):
    offer = basic_offer(client)
    bag = available(client, offer)[0]
    total = Decimal(offer["total_amount"]) + 4 * Decimal(bag["total_amount"])
    too_many = book(
        client,
        offer,
        type="instant",
        payments=payment(total, offer["total_currency"]),
        services=[{"id": bag["id"], "quantity": 4}],
    )
    assert too_many.status_code == 400
    assert too_many.json()["error"]["code"] == "service_quantity_invalid"
    unknown = book(
        client,
        offer,
        type="instant",
        services=[{"id": "ase_nothing", "quantity": 1}],
    )
    assert unknown.status_code == 400
    assert unknown.json()["error"]["code"] == "service_not_available"
    holdable = next(
        o
        for o in offers(client, origin="GRU", destination="SSA")
        if not o["payment_requirements"]["requires_instant_payment"]
    )
    hold = book(
        client,
        holdable,
        services=[{"id": available(client, holdable)[0]["id"], "quantity": 1}],
    )
    assert hold.status_code == 400
    assert hold.json()["error"]["code"] == "services_need_instant"
    assert not Booking.objects.exists()


def test_a_failed_issuance_refunds_the_offer_and_its_extras(client, team):
    offer = basic_offer(client)
    bag = available(client, offer)[0]
    total = Decimal(offer["total_amount"]) + Decimal(bag["total_amount"])
    response = book(
        client,
        offer,
        type="instant",
        people=[passenger(offer["passengers"][0]["id"], family_name="Issuancefail")],
        payments=payment(total, offer["total_currency"]),
        services=[{"id": bag["id"], "quantity": 1}],
    )
    booking = Booking.objects.get()
    assert booking.status == "failed", response.content
    [debit] = debits(booking.pk)
    [refund] = Transaction.objects.filter(reference_id=booking.pk, type="credit")
    assert (
        refund.amount
        == debit.amount
        == q(Decimal(offer["base_cost_brl"]) + Decimal(bag["base_cost_brl"]))
    )
    assert ledger_problems() == []


# --- After the sale ------------------------------------------------------------------------------


def ticketed_basic(client, family_name: str = "Souza") -> dict:
    offer = basic_offer(client)
    response = book(
        client,
        offer,
        type="instant",
        people=[passenger(offer["passengers"][0]["id"], family_name=family_name)],
    )
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "ticketed"
    return response.json()


def booking_debit(booking_id: str) -> Decimal:
    return Transaction.objects.get(reference_id=booking_id, type="debit").amount


def booking_bags(client, booking: dict) -> list[dict]:
    response = client.get(f"{BOOKINGS}/{booking['id']}/available_services")
    assert response.status_code == 200, response.content
    return response.json()["data"]


def test_a_bag_added_after_booking_debits_its_price_once(client, team):
    from webhooks.models import Event

    booking = ticketed_basic(client)
    bag = booking_bags(client, booking)[0]
    assert bag["passenger_ids"] == [booking["passengers"][0]["id"]]
    assert bag["segment_ids"] == [s["id"] for s in booking["slices"][0]["segments"]]
    assert bag["maximum_quantity"] == 3
    body = {
        "add_services": [{"id": bag["id"], "quantity": 1}],
        "payment": payment(Decimal(bag["total_amount"]), bag["total_currency"])[0],
    }
    response = client.post(f"{BOOKINGS}/{booking['id']}/services", body, format="json")
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert data["id"] == booking["id"]
    assert [(s["id"], s["quantity"]) for s in data["services"]] == [(bag["id"], 1)]
    first = data["slices"][0]["segments"][0]["passengers"][0]
    assert {"type": "checked", "quantity": 1} in first["baggages"]
    assert Decimal(data["total_amount"]) == Decimal(booking["total_amount"]) + Decimal(
        bag["total_amount"]
    )
    [debit] = Transaction.objects.filter(reference_type="booking_services")
    assert debit.type == "debit"
    assert debit.amount == Decimal(bag["base_cost_brl"])
    [updated] = [
        e
        for e in Event.objects.filter(type="booking.updated")
        if "services" in (e.previous_attributes or {})
    ]
    assert updated.previous_attributes["total_amount"] == booking["total_amount"]
    assert updated.data_object["total_amount"] == data["total_amount"]
    from bookings.models import BookingEmail

    assert BookingEmail.objects.filter(booking_id=booking["id"], kind="services_added").exists()
    # One bag fewer may be added now.
    assert booking_bags(client, booking)[0]["maximum_quantity"] == 2
    # The booking page lists both payments from the wallet.
    from bookings.display import movements

    paid = movements(Booking.objects.get(pk=booking["id"]))
    assert sorted((m.kind, m.value, str(m.label)) for m in paid) == sorted(
        [
            ("payment", booking_debit(booking["id"]), "Pago com a carteira"),
            ("payment", debit.amount, "Extras pagos com a carteira"),
        ]
    )
    assert ledger_problems() == []


def test_each_purchase_of_extras_is_emailed(client, team, django_capture_on_commit_callbacks):
    """The extras e-mail goes out after every purchase, not only the first one of a booking;
    each lists what the booking has by then."""
    from django.core import mail

    booking = ticketed_basic(client)
    mail.outbox.clear()
    for bought in (1, 2):
        bag = booking_bags(client, booking)[0]
        body = {
            "add_services": [{"id": bag["id"], "quantity": 1}],
            "payment": payment(Decimal(bag["total_amount"]), bag["total_currency"])[0],
        }
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"{BOOKINGS}/{booking['id']}/services", body, format="json")
        assert response.status_code == 200, response.content
        extras_emails = [  # the travellers' (the agency gets its own copy of each)
            m for m in mail.outbox if "extras" in m.subject.lower() and "Cópia" not in m.subject
        ]
        assert len(extras_emails) == bought, [m.subject for m in mail.outbox]
    # The second e-mail lists both purchases, and the itinerary both bags.
    bag_lines = [
        line for line in extras_emails[-1].body.splitlines() if line.startswith("- 1 bagagem")
    ]
    assert len(bag_lines) == 2
    assert "2 bagagens despachadas" in extras_emails[-1].body


def test_a_wrong_payment_for_a_bag_is_refused_with_nothing_written(client):
    from bookings.models import BookingServicesPurchase

    booking = ticketed_basic(client)
    bag = booking_bags(client, booking)[0]
    body = {
        "add_services": [{"id": bag["id"], "quantity": 2}],
        "payment": payment(Decimal(bag["total_amount"]), bag["total_currency"])[0],
    }
    response = client.post(f"{BOOKINGS}/{booking['id']}/services", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "payment_amount_mismatch"
    assert not BookingServicesPurchase.objects.exists()
    assert not Transaction.objects.filter(reference_type="booking_services").exists()
    assert Booking.objects.get(pk=booking["id"]).services == []
    assert ledger_problems() == []


def test_a_lost_answer_is_debited_once_and_settled_from_the_order(client, frozen_time):
    from bookings.models import BookingServicesPurchase
    from bookings.services.extras import booking_services_check

    booking = ticketed_basic(client, family_name="Baglost")
    bag = booking_bags(client, booking)[0]
    body = {
        "add_services": [{"id": bag["id"], "quantity": 1}],
        "payment": payment(Decimal(bag["total_amount"]), bag["total_currency"])[0],
    }
    response = client.post(f"{BOOKINGS}/{booking['id']}/services", body, format="json")
    assert response.status_code == 502
    assert response.json()["error"]["code"] == "services_outcome_unknown"
    purchase = BookingServicesPurchase.objects.get()
    assert purchase.status == "unknown"
    assert Booking.objects.get(pk=booking["id"]).services == []
    again = client.post(f"{BOOKINGS}/{booking['id']}/services", body, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "booking_services_in_progress"
    assert booking_services_check(purchase_id=purchase.pk) == "confirmed"
    assert booking_services_check(purchase_id=purchase.pk) == "settled"
    settled = Booking.objects.get(pk=booking["id"])
    assert [s["id"] for s in settled.services] == [bag["id"]]
    assert Transaction.objects.filter(reference_type="booking_services").count() == 1
    assert not Transaction.objects.filter(reference_id=purchase.pk, type="credit").exists()
    assert ledger_problems() == []


def test_a_hold_cannot_add_bags(client):
    holdable = next(
        o
        for o in offers(client, origin="GRU", destination="SSA")
        if not o["payment_requirements"]["requires_instant_payment"]
    )
    held = book(client, holdable).json()
    response = client.get(f"{BOOKINGS}/{held['id']}/available_services")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "booking_services_unavailable"


def test_a_booking_whose_extras_are_unsettled_is_not_cancelled_meanwhile(client):
    from bookings.models import BookingServicesPurchase
    from bookings.services.extras import booking_services_check

    booking = ticketed_basic(client, family_name="Baglost")
    bag = booking_bags(client, booking)[0]
    body = {
        "add_services": [{"id": bag["id"], "quantity": 1}],
        "payment": payment(Decimal(bag["total_amount"]), bag["total_currency"])[0],
    }
    assert client.post(f"{BOOKINGS}/{booking['id']}/services", body, format="json").status_code == (
        502
    )
    quote = client.post(f"{BOOKINGS}/{booking['id']}/cancellations")
    assert quote.status_code == 409
    assert quote.json()["error"]["code"] == "cancellation_in_progress"
    booking_services_check(purchase_id=BookingServicesPurchase.objects.get().pk)
    assert client.post(f"{BOOKINGS}/{booking['id']}/cancellations").status_code == 201
