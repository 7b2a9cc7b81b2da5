"""The panel's lists as people use them: live data unless they switch to test data, searches on
what they actually have in hand, São Paulo days in the date drill-down, bounded pages."""

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from agencies.models import Team
from agencies.tests.factories import SupportUserFactory
from bookings.tests.helpers import book, holdable
from tests.kit.factories import fund, make_endpoint
from tests.kit.panel import browser_for
from tests.kit.passengers import passenger
from wallet.models import Recharge, Transaction
from wallet.services import recharge_create
from webhooks.admin.endpoints import RECENT_DELIVERIES
from webhooks.models import Delivery, Event

pytestmark = pytest.mark.django_db

BOOKINGS = reverse("admin:bookings_booking_changelist")
RECHARGES = reverse("admin:wallet_recharge_changelist")


def listed(browser, url, **params):
    page = browser.get(url, params)
    assert page.status_code == 200
    return list(page.context["cl"].result_list)


def recharge(team, method, *, live_mode=True, amount="150.00"):
    return recharge_create(
        team=team, live_mode=live_mode, amount=Decimal(amount), payment_method=method
    )


def pix_txid(copy_paste: str) -> str:
    """Field 05 (txid) inside field 62 of a BR Code."""
    start = re.search(r"62\d\d05(\d\d)", copy_paste)
    return copy_paste[start.end() : start.end() + int(start.group(1))]


def test_lists_show_live_data_until_the_user_switches_to_test_data(team, team_owner):
    live = recharge(team, "pix")
    test = recharge(team, "pix", live_mode=False)
    browser = browser_for(team_owner)
    assert listed(browser, RECHARGES) == [live]
    assert listed(browser, RECHARGES, mode="test") == [test]
    page = browser.get(RECHARGES, {"mode": "test"}).content.decode()
    assert "Recargas · Dados de teste" in page  # the title says which data is shown


def test_recharges_are_found_by_id_pix_txid_and_linha_digitavel(team, team_owner, other_team):
    pix = recharge(team, "pix")
    boleto = recharge(team, "boleto")
    recharge(other_team, "boleto")
    browser = browser_for(team_owner)
    txid = pix_txid(pix.pix_copy_paste)
    assert len(txid) >= 10
    assert listed(browser, RECHARGES, q=pix.id) == [pix]
    assert listed(browser, RECHARGES, q=txid.lower()) == [pix]
    linha = boleto.boleto_linha_digitavel
    bare = re.sub(r"\D", "", linha)
    for typed in (linha, bare, boleto.boleto_barcode):
        assert listed(browser, RECHARGES, q=typed) == [boleto], typed


def test_teams_are_found_by_name_and_cnpj_with_or_without_punctuation(team, other_team):
    Team.objects.filter(pk=team.pk).update(tax_id="12.345.678/0001-95")
    support = browser_for(SupportUserFactory())
    url = reverse("admin:agencies_team_changelist")
    for typed in ("12.345.678/0001-95", "12345678000195", "345678"):
        assert [t.pk for t in listed(support, url, q=typed)] == [team.pk], typed
    assert [t.pk for t in listed(support, url, q="Beta")] == [other_team.pk]


def test_bookings_are_found_by_locator_ticket_passenger_and_client_reference(
    team, team_owner, live_client, live_sandbox
):
    fund(team, "20000.00")
    offer = holdable(live_client)
    first = book(live_client, offer, type="instant", metadata={"client_reference": "PED-77"}).json()
    offer = holdable(live_client, origin="CGH", destination="SDU")
    people = [passenger(offer["passengers"][0]["id"], given_name="Bruno", family_name="Carvalho")]
    second = book(live_client, offer, people=people).json()
    browser = browser_for(team_owner)
    ticket = first["documents"][0]["unique_identifier"]
    for typed, expected in (
        (first["booking_reference"], first["id"]),
        (ticket, first["id"]),
        ("PED-77", first["id"]),
        ("carvalho", second["id"]),
        ("Bruno", second["id"]),
    ):
        assert [b.id for b in listed(browser, BOOKINGS, q=typed)] == [expected], typed


def test_the_date_drill_down_counts_sao_paulo_days(team, team_owner):
    # 01:30 UTC on 24 November is still 23 November (22:30) in São Paulo.
    late_evening = datetime(2026, 11, 24, 1, 30, tzinfo=UTC)
    with time_machine.travel(late_evening, tick=False):  # the ledger is append-only
        transaction = fund(team, "100.00")
    assert Transaction.objects.get(pk=transaction.pk).created_at == late_evening
    browser = browser_for(team_owner)
    url = reverse("admin:wallet_transaction_changelist")
    day = {"created_at__year": 2026, "created_at__month": 11}
    assert [t.pk for t in listed(browser, url, **day, created_at__day=23)] == [transaction.pk]
    assert listed(browser, url, **day, created_at__day=24) == []
    page = browser.get(url).content.decode()
    assert "23/11/2026 22:30:00" in page and "horário de Brasília" in page


def test_a_webhook_page_shows_the_latest_deliveries_and_links_to_all(team, team_owner):
    endpoint = make_endpoint(team, "https://hooks.alpha.example/busy")
    events = Event.objects.bulk_create(
        [
            Event(team=team, live_mode=True, type="wallet.credit", data_object={"n": n})
            for n in range(RECENT_DELIVERIES * 3)
        ]
    )
    Delivery.objects.bulk_create(
        [Delivery(event=e, endpoint=endpoint, status="succeeded") for e in events]
    )
    browser = browser_for(team_owner)
    page = browser.get(
        reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    ).content.decode()
    rows = re.findall(r"/admin/webhooks/delivery/\d+/change/", page)
    assert len(rows) == RECENT_DELIVERIES
    assert f"Últimos {RECENT_DELIVERIES} de {len(events)}." in page
    link = re.search(r'href="(/admin/webhooks/delivery/\?[^"]+)">Ver todos na lista', page)
    everything = browser.get(link.group(1).replace("&amp;", "&"))
    assert everything.context["cl"].result_count == len(events)


def test_statuses_are_coloured_labels_with_words_and_amounts_are_reais(team, team_owner):
    recharge(team, "pix", amount="1234.56")
    page = browser_for(team_owner).get(RECHARGES).content.decode()
    assert re.search(r'class="status status-warning" data-status="pending">Pendente<', page)
    assert "R$\N{NO-BREAK SPACE}1.234,56" in page
    assert 'class="field-money_amount"' in page  # right-aligned by panel.css


def test_times_older_than_a_minute_still_show_seconds(team, team_owner):
    created = recharge(team, "pix")
    moment = timezone.now() - timedelta(hours=5, seconds=7)
    Recharge.objects.filter(pk=created.pk).update(created_at=moment)
    page = browser_for(team_owner).get(RECHARGES).content.decode()
    assert timezone.localtime(moment).strftime("%d/%m/%Y %H:%M:%S") in page
