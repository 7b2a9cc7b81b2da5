"""A booking keeps the agency's price (markup, fee and what the customer pays) as the search
showed it, even after the agency changes its markup."""

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from bookings.models import Booking
from bookings.tests.helpers import book, holdable
from flights.models import OfferRequest

pytestmark = pytest.mark.usefixtures("live_sandbox")  # live keys book the sandbox here

CLIENT_PRICE = ("bookings", "0008_booking_client_price")


def test_a_booking_keeps_the_price_the_search_showed(live_client, team):
    offer = holdable(live_client)
    # The agency changes its price after the search.
    team.markup_percent, team.fee = Decimal("50"), Decimal("99.00")
    team.save()
    assert book(live_client, offer).status_code == 201
    booking = Booking.objects.get()
    assert str(booking.client_amount) == offer["client_amount"]
    assert str(booking.markup_amount) == offer["agency_markup_amount"]
    assert str(booking.fee_amount) == offer["agency_fee_amount"]
    parts = booking.base_cost_brl + booking.markup_amount + booking.fee_amount
    assert booking.client_amount == parts


def test_an_offer_packed_before_the_price_was_kept_is_priced_from_the_team(live_client, team):
    offer = holdable(live_client)
    search = OfferRequest.objects.get()
    search.offers = [packed[:16] for packed in search.offers]  # the former, shorter form
    search.save()
    team.markup_percent, team.fee = Decimal("10"), Decimal("5.00")
    team.save()
    assert book(live_client, offer).status_code == 201
    booking = Booking.objects.get()
    assert booking.markup_amount == (booking.base_cost_brl / 10).quantize(Decimal("0.01"))
    assert booking.fee_amount == Decimal("5.00")
    assert booking.client_amount == booking.base_cost_brl + booking.markup_amount + Decimal("5")


@pytest.mark.django_db(transaction=True)
def test_bookings_made_before_get_their_team_price(live_client, team):
    team.markup_percent, team.fee = Decimal("8.5"), Decimal("25.50")
    team.save()
    assert book(live_client, holdable(live_client)).status_code == 201
    executor = MigrationExecutor(connection)
    before = ("bookings", "0007_personal_data_erased_at_label")
    try:
        executor.migrate([before])
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate([CLIENT_PRICE])
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate([executor.loader.graph.leaf_nodes("bookings")[0]])
    booking = Booking.objects.get()
    markup = (booking.base_cost_brl * Decimal("0.085")).quantize(Decimal("0.01"))
    assert (booking.markup_amount, booking.fee_amount) == (markup, Decimal("25.50"))
    assert booking.client_amount == booking.base_cost_brl + markup + Decimal("25.50")
