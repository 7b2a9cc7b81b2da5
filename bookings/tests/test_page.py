"""The booking page's data (bookings/display.py, bookings/itinerary.py): the itinerary in each
airport's local time, the passengers and tickets, the client's price and the money that moved,
the timeline, and a booking whose personal data was erased. And the page in the panel: scoped
to the team, with only the actions the user may take."""

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.test import Client as BrowserClient
from django.urls import reverse
from django.utils import translation

from agencies.tests.factories import SupportUserFactory
from bookings.display import booking_page
from bookings.itinerary import duration_for_people, itinerary
from bookings.models import Booking
from bookings.retention import booking_personal_data_erase
from bookings.tests.helpers import (
    BOOKING_EVENTS,
    book_two,
    round_trip_with_a_codeshare_connection,
)
from core.money import money_display
from tests.kit.clock import NOW
from tests.kit.factories import fund, make_endpoint

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_sandbox")]


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


@pytest.fixture
def priced(team):
    team.markup_percent, team.fee = Decimal("10"), Decimal("12.00")
    team.save()
    fund(team, "100000.00")
    return team


def test_a_two_slice_international_booking_with_a_connection(live_client, priced):
    with time_machine.travel(NOW, tick=False):
        offer = round_trip_with_a_codeshare_connection(live_client)
        booking = book_two(live_client, offer)
    page = booking_page(booking)

    assert [s.title for s in page.slices] == ["Ida", "Volta"]
    assert page.route == "GRU → LIS → GRU"
    outbound, inbound = page.slices
    assert outbound.stops == "Direto" and inbound.stops == "1 conexão"
    [direct] = outbound.legs
    wire = offer["slices"][0]["segments"][0]
    # Each end in its airport's own clock, as the airline gives it: never converted.
    departs = datetime.fromisoformat(wire["departing_at"])
    arrives = datetime.fromisoformat(wire["arriving_at"])
    assert (
        direct.origin.time == f"{departs:%H:%M}" and direct.destination.time == f"{arrives:%H:%M}"
    )
    assert direct.origin.code == "GRU" and direct.origin.city == "São Paulo"  # pt-BR names
    assert "Guarulhos" in direct.origin.name
    assert direct.destination.code == "LIS" and direct.destination.city == "Lisboa"
    assert direct.days_later == (arrives.date() - departs.date()).days == 1
    assert direct.origin.date == "15 de janeiro de 2027"
    assert direct.destination.date == "16 de janeiro de 2027"
    carrier = wire["marketing_carrier"]
    assert direct.flight == f"{carrier['iata_code']} {wire['marketing_carrier_flight_number']}"
    assert direct.carrier == carrier["name"] and direct.operated_by == ""
    assert direct.cabin == "Econômica"
    assert direct.baggage and "bagagem de mão" in direct.baggage[0]

    first, connection, second = inbound.legs
    assert connection.kind == "connection" and connection.airport == first.destination.code
    landed = datetime.fromisoformat(offer["slices"][1]["segments"][0]["arriving_at"])
    leaves = datetime.fromisoformat(offer["slices"][1]["segments"][1]["departing_at"])
    assert connection.wait == duration_for_people(int((leaves - landed).total_seconds() // 60))
    codeshare = next(s for s in (first, second) if s.operated_by)
    wire_codeshare = next(
        s
        for s in offer["slices"][1]["segments"]
        if s["operating_carrier"]["iata_code"] != s["marketing_carrier"]["iata_code"]
    )
    operating = wire_codeshare["operating_carrier"]
    number = wire_codeshare["operating_carrier_flight_number"]
    assert (
        codeshare.operated_by
        == f"Operado por {operating['name']} ({operating['iata_code']} {number})"
    )
    assert [p.name for p in page.passengers] == ["Ana Souza", "Bruno Carvalho"]
    assert all(p.tickets == [] for p in page.passengers)  # a hold: nothing issued yet
    assert page.client.name and page.client.id.startswith("cli_")
    # A hold waits for payment: its deadlines, in São Paulo time, labelled.
    assert [d.label for d in page.deadlines] == ["Pagar até", "Preço garantido até"]
    assert all(d.when.endswith("(horário de Brasília)") for d in page.deadlines)
    assert page.money.state.startswith("Aguardando pagamento")
    assert {c.label for c in page.conditions} == {
        "Reembolso antes do embarque",
        "Alteração antes do embarque",
    }


def test_local_times_across_time_zones_are_printed_as_the_airports_clocks():
    """São Paulo 22:00 to Lisbon 11:30 the next day is 9 h 30 min of flight (3 hours apart in
    January): the page prints 22:00 and 11:30, not São Paulo's 08:30."""
    booking = Booking(
        slices=[
            {
                "origin": {"iata_code": "GRU", "iata_city_code": "SAO"},
                "destination": {"iata_code": "FRA", "iata_city_code": "FRA"},
                "duration": "PT16H15M",
                "segments": [
                    {
                        "origin": {"iata_code": "GRU", "terminal": "3"},
                        "destination": {"iata_code": "LIS", "terminal": "1"},
                        "departing_at": "2027-01-15T22:00:00",
                        "arriving_at": "2027-01-16T11:30:00",
                        "duration": "PT9H30M",
                        "marketing_carrier": {"iata_code": "TP", "name": "TAP Air Portugal"},
                        "operating_carrier": {"iata_code": "TP", "name": "TAP Air Portugal"},
                        "marketing_carrier_flight_number": "88",
                        "operating_carrier_flight_number": "88",
                        "passengers": [],
                    },
                    {
                        "origin": {"iata_code": "LIS"},
                        "destination": {"iata_code": "FRA"},
                        "departing_at": "2027-01-16T13:05:00",
                        "arriving_at": "2027-01-16T17:15:00",
                        "duration": "PT3H10M",
                        "marketing_carrier": {"iata_code": "TP", "name": "TAP Air Portugal"},
                        "operating_carrier": {"iata_code": "LH", "name": "Lufthansa"},
                        "marketing_carrier_flight_number": "6650",
                        "operating_carrier_flight_number": None,
                        "passengers": [],
                    },
                ],
            }
        ]
    )
    [only] = itinerary(booking)
    first, connection, second = only.legs
    assert only.title == "Voo" and only.duration == "16 h 15 min"
    assert first.origin.written == "15 de janeiro de 2027, 22:00"
    assert first.destination.written == "16 de janeiro de 2027, 11:30"
    assert first.days_later == 1 and first.duration == "9 h 30 min"
    assert connection.wait == "1 h 35 min" and connection.city == "Lisboa"
    # Lisbon 13:05 (UTC+0) to Frankfurt 17:15 (UTC+1): 3 h 10 min, printed as the clocks say.
    assert second.origin.time == "13:05" and second.destination.time == "17:15"
    assert second.days_later == 0 and second.operated_by == "Operado por Lufthansa (LH)"
    with translation.override("en"):
        [english] = itinerary(booking)
    assert english.legs[0].origin.written == "15 January 2027, 22:00"
    assert english.title == "Flight" and english.legs[1].wait == "1 h 35 min"


def test_the_money_figures_payment_and_refund(
    live_client, priced, django_capture_on_commit_callbacks
):
    with time_machine.travel(NOW, tick=False):
        offer = round_trip_with_a_codeshare_connection(live_client)
        booking = book_two(live_client, offer)
    with (
        time_machine.travel(NOW + timedelta(hours=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        paid = live_client.put(
            f"/api/v1/bookings/{booking.id}/confirm",
            {
                "payment": {
                    "type": "balance",
                    "amount": offer["total_amount"],
                    "currency": offer["total_currency"],
                }
            },
            format="json",
        )
    assert paid.status_code == 200, paid.json()
    booking.refresh_from_db()
    money = booking_page(booking).money
    assert booking.client_amount == booking.base_cost_brl + booking.markup_amount + Decimal("12")
    assert money.client_price == money_display(booking.client_amount)
    assert money.client_price.startswith("R$\N{NO-BREAK SPACE}") and "," in money.client_price
    assert money.cost == money_display(booking.base_cost_brl)
    assert money.markup == money_display(booking.markup_amount)
    assert money.fee == "R$\N{NO-BREAK SPACE}12,00"
    assert money.margin == money_display(booking.markup_amount + Decimal("12.00"))
    assert money.airline_total == money_display(booking.total_amount, booking.total_currency)
    assert money.foreign and money.exchange_rate
    [payment] = money.movements
    assert payment.kind == "payment" and payment.amount == money_display(
        booking.base_cost_brl, negative=True
    )
    # 16:00 UTC is 13:00 in São Paulo.
    assert payment.when == "22 de novembro de 2026, 13:00 (horário de Brasília)"
    assert money.paid == money.cost and money.state.startswith("Pago com o saldo da carteira")
    page = booking_page(booking)
    assert all(len(p.tickets) == 1 and len(p.tickets[0]) == 13 for p in page.passengers)
    assert page.deadlines == []  # paid: the hold's deadlines no longer apply

    with (
        time_machine.travel(NOW + timedelta(hours=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert live_client.delete(f"/api/v1/bookings/{booking.id}").status_code == 200
    booking.refresh_from_db()
    money = booking_page(booking).money
    refunds = [m for m in money.movements if m.kind == "refund"]
    if booking.conditions["refund_before_departure"]["allowed"]:
        [refund] = refunds
        assert refund.label == "Reembolsado na carteira"
        assert money.state.startswith("Pago R$")
        assert "reembolsado" in money.state
    else:
        assert refunds == [] and money.paid == money.cost


def test_the_timeline_is_in_order_with_deliveries_and_emails(
    live_client, priced, https_receiver, django_capture_on_commit_callbacks
):
    make_endpoint(priced, https_receiver.url, events=BOOKING_EVENTS)
    with (
        time_machine.travel(NOW, tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        offer = round_trip_with_a_codeshare_connection(live_client)
        booking = book_two(live_client, offer)
    with (
        time_machine.travel(NOW + timedelta(hours=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        live_client.put(
            f"/api/v1/bookings/{booking.id}/confirm",
            {
                "payment": {
                    "type": "balance",
                    "amount": offer["total_amount"],
                    "currency": offer["total_currency"],
                }
            },
            format="json",
        )
    booking.refresh_from_db()
    timeline = booking_page(booking).timeline

    assert [e.at for e in timeline] == sorted(e.at for e in timeline)
    codes = [e.code or e.kind for e in timeline]
    assert codes == [
        "booking.created",
        "booking_created",
        "payment",
        "booking.confirmed",
        "booking.updated",
        "booking.ticketed",
        "booking.updated",
        "ticket_issued",
    ]
    created = timeline[0]
    assert created.title == "Reserva criada" and created.when == "22 de novembro de 2026, 12:00:00"
    [delivery] = created.deliveries
    assert delivery.status == "succeeded" and delivery.label == "Entregue"
    assert delivery.endpoint == https_receiver.url
    email = timeline[1]
    assert email.kind == "email" and email.detail == "Enviado"
    assert timeline[2].title.startswith("Pago com a carteira: -R$")


def test_deliveries_held_by_a_deactivated_webhook_wait_for_its_reactivation(live_client, priced):
    """The review's finding: a delivery held by a deactivated webhook read "next attempt at" a
    time already past. It says it waits for the webhook's reactivation, linked to the webhook."""
    from webhooks.models import Delivery

    endpoint = make_endpoint(priced, "https://receiver.example/hooks", events=BOOKING_EVENTS)
    with time_machine.travel(NOW, tick=False):  # deliveries recorded, none sent yet
        booking = book_two(live_client, round_trip_with_a_codeshare_connection(live_client))
    # Then the receiver kept failing and the webhook was deactivated, holding what waited.
    Delivery.objects.filter(endpoint=endpoint).update(next_attempt_at=NOW + timedelta(hours=1))
    endpoint.active = False
    endpoint.save()

    with time_machine.travel(NOW + timedelta(hours=3), tick=False):
        [created] = [e for e in booking_page(booking).timeline if e.code == "booking.created"]
        support = BrowserClient()
        support.force_login(SupportUserFactory())
        html = support.get(reverse("admin:bookings_booking_change", args=[booking.pk])).content

    [held] = created.deliveries
    assert held.status == "pending" and held.held
    assert held.label == "Aguardando a reativação do webhook"
    assert "próxima tentativa" not in held.label.lower()
    endpoint_page = reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    assert f'class="bp-held-endpoint" href="{endpoint_page}"' in html.decode()


def test_a_booking_whose_personal_data_was_erased(live_client, priced):
    with time_machine.travel(NOW, tick=False):
        offer = round_trip_with_a_codeshare_connection(live_client)
        booking = book_two(live_client, offer)
    with time_machine.travel(NOW + timedelta(days=800)):
        assert booking_personal_data_erase(booking=booking)
    booking.refresh_from_db()
    page = booking_page(booking)

    assert [p.name for p in page.passengers] == ["[apagado]", "[apagado]"]
    assert all(p.erased and not p.email and not p.phone and not p.born_on for p in page.passengers)
    assert page.client.erased and page.client.name == "[apagado]" and page.client.email == ""
    assert page.erased_at.endswith("(horário de Brasília)")
    assert page.money.client_price == money_display(booking.client_amount)  # the money stays
    assert len(page.slices) == 2

    support = BrowserClient()
    support.force_login(SupportUserFactory())
    html = support.get(reverse("admin:bookings_booking_change", args=[booking.pk])).content
    html = html.decode()
    assert "Dados pessoais apagados em" in html and "[apagado]" in html
    assert "Souza" not in html.split('id="bp-all-fields"')[0]


def test_the_page_in_the_panel_is_the_teams_with_the_actions_it_may_take(
    live_client, priced, team_owner, other_team_owner
):
    with time_machine.travel(NOW, tick=False):
        offer = round_trip_with_a_codeshare_connection(live_client)
        booking = book_two(live_client, offer)
    url = reverse("admin:bookings_booking_change", args=[booking.pk])

    owner = BrowserClient()
    owner.force_login(team_owner)
    page = owner.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="booking-page"' in html and booking.booking_reference in html
    assert "Ana Souza" in html and "Bruno Carvalho" in html
    assert money_display(booking.client_amount) in html
    # Agency users view bookings in the panel (they cancel through the API): no buttons.
    assert 'name="action"' not in html

    support = BrowserClient()
    support.force_login(SupportUserFactory())
    html = support.get(url).content.decode()
    assert 'name="action" value="cancel"' in html  # a hold can be cancelled
    assert "check_with_supplier" not in html  # only when the supplier's outcome is unknown
    # The button opens the list action's confirmation page for this booking.
    chosen = {"action": "cancel", "_selected_action": [booking.pk], "index": 0}
    confirm = support.post(reverse("admin:bookings_booking_changelist") + "?mode=live", chosen)
    assert 'id="confirm-rows"' in confirm.content.decode()
    assert booking.booking_reference in confirm.content.decode()

    outsider = BrowserClient()
    outsider.force_login(other_team_owner)
    elsewhere = outsider.get(url, follow=True)
    assert 'id="booking-page"' not in elsewhere.content.decode()
    assert "Ana Souza" not in elsewhere.content.decode()

    Booking.objects.filter(pk=booking.pk).update(
        outcome_unknown_since=NOW, status=Booking.Status.CANCELLED
    )
    html = support.get(url).content.decode()
    assert 'value="check_with_supplier"' in html
    assert 'name="action" value="cancel"' not in html  # cancelled: nothing to cancel
    html = owner.get(url).content.decode()
    assert "check_with_supplier" not in html and 'value="cancel"' not in html


def test_a_test_mode_booking_s_button_finds_it_among_the_test_data(test_client, team):
    with time_machine.travel(NOW, tick=False):
        offer = round_trip_with_a_codeshare_connection(test_client)
        booking = book_two(test_client, offer)
    support = BrowserClient()
    support.force_login(SupportUserFactory())
    html = support.get(reverse("admin:bookings_booking_change", args=[booking.pk])).content
    html = html.decode()
    changelist = reverse("admin:bookings_booking_changelist")
    assert f'action="{changelist}?mode=test"' in html
    assert "Dados de teste: nenhum bilhete ou dinheiro real foi movimentado." in html
    chosen = {"action": "cancel", "_selected_action": [booking.pk], "index": 0}
    confirm = support.post(changelist + "?mode=test", chosen).content.decode()
    assert booking.booking_reference in confirm


def test_a_failure_reason_is_shown_in_the_readers_language():
    from django.utils import translation

    from bookings.display import failure_reason_for_people

    stored = "issuance_failed: The airline could not issue the tickets (sandbox scenario)"
    with translation.override("pt-br"):
        assert failure_reason_for_people(stored) == (
            "A companhia aérea não conseguiu emitir os bilhetes."
        )
        assert failure_reason_for_people("weird: something") == "weird: something"
    with translation.override("en"):
        assert failure_reason_for_people(stored) == "The airline could not issue the tickets."
