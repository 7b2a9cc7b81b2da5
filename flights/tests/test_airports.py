from decimal import Decimal

import pytest

from flights import airports
from flights.airports import UnknownLocation


def test_an_airport_has_its_city_country_and_time_zone():
    gru = airports.airport("GRU")
    assert gru.iata_code == "GRU"
    assert "Guarulhos" in gru.name
    assert gru.city_name == "Sao Paulo"
    assert gru.iata_city_code == "SAO"
    assert gru.country == "BR"
    assert gru.time_zone == "America/Sao_Paulo"
    assert -24 < gru.latitude < -23 and -47 < gru.longitude < -46


def test_an_airport_of_a_city_takes_the_city_name_and_code():
    vcp = airports.airport("VCP")  # in Campinas, but one of Sao Paulo's airports for IATA
    assert (vcp.iata_city_code, vcp.city_name) == ("SAO", "Sao Paulo")


def test_an_airport_outside_any_city_code_is_its_own_city():
    rec = airports.airport("REC")
    assert rec.iata_city_code == "REC"
    assert rec.country == "BR"


def test_unknown_airport_is_none():
    assert airports.airport("XXX") is None


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("GRU", ("GRU",)),
        ("LIS", ("LIS",)),
        ("SAO", ("CGH", "GRU", "VCP")),
        ("RIO", ("GIG", "SDU")),
        ("PAR", ("CDG", "ORY")),
    ],
)
def test_resolve(code, expected):
    assert airports.resolve(code) == expected


def test_resolve_new_york_and_london():
    assert {"JFK", "LGA"} <= set(airports.resolve("NYC"))
    assert {"LHR", "LGW", "STN"} <= set(airports.resolve("LON"))
    assert list(airports.resolve("LON")) == sorted(airports.resolve("LON"))


def test_a_code_that_is_both_city_and_airport_is_the_city_with_its_airport():
    assert airports.resolve("IST") == ("ISL", "IST", "SAW")
    assert "JNB" in airports.resolve("JNB")  # the data lists Johannesburg with Lanseria only


@pytest.mark.parametrize("code", ["XXX", "gru", "Gru", "GR", "GRUU", "", " GRU", "G1U", None, 123])
def test_resolve_rejects_anything_else(code):
    with pytest.raises(UnknownLocation) as raised:
        airports.resolve(code)
    assert raised.value.code == code


def test_city():
    sao = airports.city("SAO")
    assert sao.name == "Sao Paulo"
    assert sao.country == "BR"
    assert sao.time_zone == "America/Sao_Paulo"
    assert sao.airports == ("CGH", "GRU", "VCP")
    assert airports.city("GRU") is None
    assert airports.city("XXX") is None


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        (("GRU", "GIG"), False),
        (("GRU", "GIG", "REC"), False),
        (("GRU", "LIS"), True),
        (("GRU", "GIG", "EZE"), True),
        (("JFK", "LAX"), False),
        (("GRU",), False),
    ],
)
def test_is_international(codes, expected):
    assert airports.is_international(codes) is expected
    assert airports.is_international(iter(codes)) is expected


def test_is_international_rejects_unknown_codes():
    with pytest.raises(UnknownLocation):
        airports.is_international(["GRU", "XXX"])


def test_great_circle_distance():
    distance = airports.great_circle_km("GRU", "LIS")
    assert isinstance(distance, Decimal)
    assert distance.as_tuple().exponent == -1
    assert Decimal(7900) < distance < Decimal(7980)  # published: about 7,940 km
    assert airports.great_circle_km("LIS", "GRU") == distance
    assert Decimal(330) < airports.great_circle_km("GRU", "GIG") < Decimal(345)
    assert airports.great_circle_km("GRU", "GRU") == Decimal("0.0")
    assert airports.great_circle_km(airports.airport("GRU"), "LIS") == distance


def test_great_circle_distance_rejects_unknown_codes():
    with pytest.raises(UnknownLocation):
        airports.great_circle_km("GRU", "XXX")
