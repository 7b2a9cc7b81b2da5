"""Dates and times for people: Portuguese by default, English on request; a flight's local
time as the airline gives it; a deadline in São Paulo time, labelled."""

from datetime import UTC, date, datetime

from django.utils import translation

from core.i18n import date_for_people, datetime_for_people, people_locale, sao_paulo_time_for_people


def test_a_flight_time_is_written_for_people_in_portuguese_and_english():
    departure = datetime(2027, 1, 15, 7, 35)  # local time at the airport, naive
    with people_locale():
        assert datetime_for_people(departure) == "15 de janeiro de 2027, 07:35"
        assert date_for_people(date(2027, 3, 1)) == "1 de março de 2027"
    with people_locale("en"):
        assert datetime_for_people(departure) == "15 January 2027, 07:35"


def test_a_deadline_is_shown_in_sao_paulo_time_whatever_zone_is_active():
    deadline = datetime(2027, 1, 15, 2, 30, tzinfo=UTC)  # 23:30 the day before in São Paulo
    with people_locale():
        assert sao_paulo_time_for_people(deadline) == (
            "14 de janeiro de 2027, 23:30 (horário de Brasília)"
        )
    with translation.override("en"):
        assert sao_paulo_time_for_people(deadline) == "14 January 2027, 23:30 (Brasília time)"
