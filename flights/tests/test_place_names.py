"""City names in Portuguese where people read pt-BR (flights/place_names.py): every airport the
product serves has one, the itinerary of the e-mails and the booking page uses it, English keeps
the airport data's names, and an airport outside the table falls back to them."""

import glob
import gzip
import re
from types import SimpleNamespace

import pytest
from django.utils import translation

from bookings.itinerary import itinerary
from flights import airports, reference
from flights.place_names import PT_BR
from flights.suppliers.sandbox import network


def served_airports() -> set[str]:
    """The sandbox's gateways and its airlines' hubs, and every airport of the golden files."""
    codes = set(network.GATEWAYS)
    for airline in reference.AIRLINES.values():
        codes |= set(airline.hubs)
    for path in glob.glob("flights/tests/golden/*.json.gz"):
        with gzip.open(path, "rt") as golden:
            codes |= set(re.findall(r'"iata_code": ?"([A-Z]{3})"', golden.read()))
    return {code for code in codes if airports.airport(code)}  # SAO is a city, not an airport


def test_every_airport_served_has_a_portuguese_city_name():
    served = served_airports()
    assert len(served) > 90
    missing = sorted(
        code
        for code in served
        if code not in PT_BR and airports.airport(code).iata_city_code not in PT_BR
    )
    assert missing == []


def test_the_table_names_only_known_codes():
    unknown = [code for code in PT_BR if not airports.airport(code) and not airports.city(code)]
    assert unknown == []


@pytest.mark.parametrize(
    ("code", "portuguese", "english"),
    [
        ("GRU", "São Paulo", "Sao Paulo"),
        ("CGH", "São Paulo", "Sao Paulo"),
        ("VCP", "Campinas", "Sao Paulo"),  # IATA files it under SAO
        ("BSB", "Brasília", "Brasilia"),
        ("LIS", "Lisboa", "Lisbon"),
        ("LHR", "Londres", "London"),
        ("JFK", "Nova York", "New York"),
        ("MAD", "Madri", "Madrid"),
        ("NAT", "Natal", "São Gonçalo do Amarante"),  # the city people fly to
        ("GIG", "Rio de Janeiro", "Rio de Janeiro"),
    ],
)
def test_a_city_in_portuguese_and_in_english(code, portuguese, english):
    place = airports.airport(code)
    with translation.override("pt-br"):
        assert airports.city_for_people(place) == portuguese
    with translation.override("en"):
        assert airports.city_for_people(place) == english


def test_an_airport_outside_the_table_keeps_the_data_name():
    place = airports.airport("IGU")  # Foz do Iguaçu: not served by the sandbox's network
    assert "IGU" not in PT_BR and place.iata_city_code not in PT_BR
    with translation.override("pt-br"):
        assert airports.city_for_people(place) == place.city_name


def segment(origin: str, destination: str, departing: str, arriving: str) -> dict:
    return {
        "origin": {"iata_code": origin},
        "destination": {"iata_code": destination},
        "departing_at": departing,
        "arriving_at": arriving,
        "marketing_carrier": {"iata_code": "IB", "name": "Iberia"},
        "marketing_carrier_flight_number": "325",
        "passengers": [],
    }


def test_the_itinerary_people_read_names_the_cities_in_portuguese():
    trip = SimpleNamespace(
        slices=[
            {
                "origin": {"iata_code": "GRU"},
                "destination": {"iata_code": "LIS"},
                "segments": [
                    segment("GRU", "MAD", "2027-01-15T16:25:00", "2027-01-16T07:25:00"),
                    segment("MAD", "LIS", "2027-01-16T10:50:00", "2027-01-16T11:00:00"),
                ],
            }
        ]
    )
    with translation.override("pt-br"):
        [journey] = itinerary(trip)
    assert (journey.origin.city, journey.destination.city) == ("São Paulo", "Lisboa")
    assert journey.legs[1].city == "Madri"  # the connection
    with translation.override("en"):
        [journey] = itinerary(trip)
    assert (journey.origin.city, journey.destination.city) == ("Sao Paulo", "Lisbon")
