"""A booking keeps the FX margin its offer was priced with (docs/decisions.md "Exchange rates"):
its changes are priced at its own rate, the margin in it and never added again, and show the
booking's reference and margin beside `exchange_rate_used`; a hold repriced at the airline's
new total is priced as a new offer, with today's reference and the team's margin now."""

from decimal import Decimal

import pytest

from bookings.models import Booking, BookingChangeOffer
from bookings.tests.helpers import BOOKINGS, book, passport
from core.money import q
from tests.kit.factories import fund
from tests.kit.passengers import passenger

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]


def eur_offer(client, *, holdable: bool = False, changeable: bool = False) -> dict:
    body = {
        "type": "one_way",
        "slices": [{"origin": "GRU", "destination": "LIS", "departureDate": "2027-01-15"}],
        "passengers": [{"type": "adult", "count": 1}],
    }
    offers = client.post("/api/v1/flights/search", body, format="json").json()["offers"]
    return next(
        o
        for o in offers
        if o["total_currency"] == "EUR"
        and (not holdable or not o["payment_requirements"]["requires_instant_payment"])
        and (not changeable or o["conditions"]["change_before_departure"]["allowed"])
    )


def people(offer: dict, family_name: str = "Souza") -> list[dict]:
    pid = offer["passengers"][0]["id"]
    return [passenger(pid, family_name=family_name, identity_documents=passport("FX7654321"))]


def test_a_change_is_priced_at_the_bookings_rate_and_shows_its_margin(live_client, team):
    fund(team, "100000.00")
    team.fx_margin_percent = Decimal("2.50")
    team.save()
    offer = eur_offer(live_client, changeable=True)
    assert offer["exchange_rate_used"] == 6.355
    response = book(live_client, offer, type="instant", people=people(offer))
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.status == "ticketed"
    assert booking.exchange_rate == Decimal("6.355")
    team.fx_margin_percent = Decimal("7.00")  # changed since: the booking keeps its own
    team.save()

    asked = live_client.post(
        f"{BOOKINGS}/{booking.pk}/change_requests",
        {
            "slices": {
                "remove": [{"slice_id": booking.slices[0]["id"]}],
                "add": [
                    {
                        "origin": "GRU",
                        "destination": "LIS",
                        "departure_date": "2027-01-20",
                        "cabin_class": "economy",
                    }
                ],
            }
        },
        format="json",
    )

    assert asked.status_code == 201, asked.content
    change_offers = asked.json()["data"]["change_offers"]
    assert change_offers
    for shown in change_offers:
        assert shown["exchange_rate_used"] == 6.355  # not 6.355 × 1.025, nor 6.2 × 1.07
        assert shown["fx_reference_rate"] == 6.2 and shown["fx_margin_percent"] == "2.50"
        cost = q(Decimal(shown["change_total_amount"]) * Decimal("6.355"))
        assert shown["change_cost_brl"] == f"{cost}"
        stored = BookingChangeOffer.objects.get(pk=shown["id"])
        assert (stored.fx_reference_rate, stored.fx_margin_percent) == (
            Decimal("6.2"),
            Decimal("2.50"),
        )


def test_a_change_of_a_booking_made_before_margins_shows_its_rate_as_the_reference(
    live_client, team
):
    fund(team, "100000.00")
    offer = eur_offer(live_client, changeable=True)
    response = book(live_client, offer, type="instant", people=people(offer))
    booking = Booking.objects.get(pk=response.json()["id"])
    Booking.objects.filter(pk=booking.pk).update(fx_reference_rate=None)  # as migrated

    asked = live_client.post(
        f"{BOOKINGS}/{booking.pk}/change_requests",
        {
            "slices": {
                "remove": [{"slice_id": booking.slices[0]["id"]}],
                "add": [
                    {
                        "origin": "GRU",
                        "destination": "LIS",
                        "departure_date": "2027-01-20",
                        "cabin_class": "economy",
                    }
                ],
            }
        },
        format="json",
    )

    assert asked.status_code == 201, asked.content
    for shown in asked.json()["data"]["change_offers"]:
        assert shown["exchange_rate_used"] == shown["fx_reference_rate"] == 6.2
        assert shown["fx_margin_percent"] == "0.00"


def test_a_repriced_hold_takes_todays_reference_and_the_teams_margin_now(live_client, team):
    fund(team, "50000.00")
    team.fx_margin_percent = Decimal("2.00")
    team.save()
    offer = eur_offer(live_client, holdable=True)
    held = book(live_client, offer, people=people(offer, "Pricechange"))
    assert held.status_code == 201, held.content
    booking = Booking.objects.get(pk=held.json()["id"])
    assert (booking.exchange_rate, booking.fx_margin_percent) == (
        Decimal("6.324"),
        Decimal("2.00"),
    )
    team.fx_margin_percent = Decimal("4.00")
    team.save()

    refused = live_client.put(
        f"{BOOKINGS}/{booking.pk}/confirm",
        {
            "payment": {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        },
        format="json",
    )

    assert refused.status_code == 409, refused.content
    booking.refresh_from_db()
    assert booking.exchange_rate == Decimal("6.448")  # 6.2 × 1.04, once
    assert (booking.fx_reference_rate, booking.fx_margin_percent) == (
        Decimal("6.2"),
        Decimal("4.00"),
    )
    assert booking.base_cost_brl == q(booking.total_amount * Decimal("6.448"))
    assert booking.client_amount == (
        booking.base_cost_brl + booking.markup_amount + booking.fee_amount
    )


def test_the_booking_page_shows_the_reference_and_the_margin_in_the_rate(
    live_client, team, team_owner
):
    from django.urls import reverse

    from tests.kit.panel import browser_for

    fund(team, "50000.00")
    team.fx_margin_percent = Decimal("2.50")
    team.save()
    offer = eur_offer(live_client)
    response = book(live_client, offer, type="instant", people=people(offer))
    assert response.status_code == 201, response.content
    url = reverse("admin:bookings_booking_change", args=[response.json()["id"]])

    page = browser_for(team_owner).get(url).content.decode()

    assert "câmbio 6,355" in page
    assert "referência 6,2 + custo de câmbio 2,50\N{NO-BREAK SPACE}%" in page
