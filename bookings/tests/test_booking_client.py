"""Which client a booking is made for: the one `client_id` names (an agency's record, POST
/clients), or else the lead adult passenger's, matched by e-mail (made from the passenger if
new). The booking list's `client` stays the spec's `{id, full_name, email}`."""

import pytest

from agencies.models import Client
from agencies.tests.factories import ClientFactory
from bookings.models import Booking
from bookings.tests.helpers import book, error, holdable
from tests.kit.factories import make_team

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]


def test_a_booking_is_made_for_the_client_it_names(live_client, team):
    client = live_client.post(
        "/api/v1/clients",
        {
            "full_name": "Viagens Ltda",
            "email": "compras@viagens.example",
            "tax_id": "11222333000181",
        },
        format="json",
    ).json()["data"]

    response = book(live_client, holdable(live_client), client_id=client["id"])

    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.client_id == client["id"]
    # The lead passenger (ana@example.com) made no client of its own.
    assert list(Client.objects.filter(team=team).values_list("id", flat=True)) == [client["id"]]
    [listed] = live_client.get("/api/v1/bookings").json()["data"]
    assert listed["client"] == {
        "id": client["id"],
        "full_name": "Viagens Ltda",
        "email": "compras@viagens.example",
    }


def test_without_client_id_the_lead_passenger_is_the_client_as_before(live_client, team):
    response = book(live_client, holdable(live_client))

    client = Booking.objects.get(pk=response.json()["id"]).client
    assert (client.full_name, client.email, client.made_from_booking) == (
        "Ana Souza",
        "ana@example.com",
        True,
    )
    [listed] = live_client.get("/api/v1/bookings").json()["data"]
    assert set(listed["client"]) == {"id", "full_name", "email"}


@pytest.mark.parametrize("whose", ["unknown", "another team's", "the other mode's"])
def test_a_client_id_that_is_not_the_teams_in_this_mode_is_404(live_client, team, whose):
    client_id = {
        "unknown": lambda: "cli_01m84s0sqr83c1tmwt646fcae0",
        "another team's": lambda: ClientFactory(team=make_team("Other").team, live_mode=True).id,
        "the other mode's": lambda: ClientFactory(team=team, live_mode=False).id,
    }[whose]()
    clients_before = Client.objects.count()

    response = book(live_client, holdable(live_client), client_id=client_id)

    assert error(response) == (404, "Client not found")
    assert response.json()["error"]["code"] == "client_not_found"
    assert not Booking.objects.exists()
    assert Client.objects.count() == clients_before


@pytest.mark.parametrize("client_id", [12, "", ["cli_x"], "c" * 41])
def test_a_client_id_that_is_not_an_id_is_400(live_client, client_id):
    response = book(live_client, holdable(live_client), client_id=client_id)

    assert error(response) == (400, "Invalid request parameters")
    assert list(response.json()["error"]["details"]) == ["client_id"]
    assert not Booking.objects.exists()


def test_client_id_and_metadata_client_id_must_agree(live_client, team):
    named, other = (ClientFactory(team=team, live_mode=True) for _ in range(2))
    offer = holdable(live_client)

    response = book(live_client, offer, client_id=named.id, metadata={"client_id": other.id})

    assert error(response) == (400, "Invalid request parameters")
    assert list(response.json()["error"]["details"]) == ["client_id"]
    agreed = book(live_client, offer, client_id=named.id, metadata={"client_id": named.id})
    assert Booking.objects.get(pk=agreed.json()["id"]).client == named
