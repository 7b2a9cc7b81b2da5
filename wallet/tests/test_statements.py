"""The wallet statement (wallet/display.py, its panel page and its CSV and PDF): the numbers
agree with the ledger (opening + credits - debits = closing = the balance at the end of the
period), São Paulo days bound the period to the microsecond, live and test never mix, and an
agency user never sees another team's statement."""

import csv
import io
import shutil
import subprocess
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client as BrowserClient
from django.urls import reverse

from agencies.tests.factories import SupportUserFactory
from wallet.display import (
    StatementPeriod,
    StatementPeriodError,
    balance_at,
    period_latest_end,
    statement_get,
    statement_period,
)
from wallet.models import Transaction, Wallet
from wallet.services import wallet_credit, wallet_debit

pytestmark = pytest.mark.django_db

SP = ZoneInfo("America/Sao_Paulo")
PDFTOTEXT = shutil.which("pdftotext") or "/usr/bin/pdftotext"
PAGE = reverse("admin:wallet_statement")
CSV = reverse("admin:wallet_statement_csv")
PDF = reverse("admin:wallet_statement_pdf")
NOVEMBER = StatementPeriod(start=date(2026, 11, 1), end=date(2026, 11, 30))
NOVEMBER_QUERY = {"start": "01/11/2026", "end": "30/11/2026"}


def at(moment: datetime, function, **kwargs):
    with time_machine.travel(moment, tick=False):
        return function(**kwargs)


def credit(team, amount, moment, reference, *, live_mode=True, description=None):
    return at(
        moment,
        wallet_credit,
        team=team,
        live_mode=live_mode,
        amount=Decimal(amount),
        reference_type="recharge",
        reference_id=reference,
        description=description or f"PIX recharge {reference}",
        payment_method="pix",
    )


def debit(team, amount, moment, reference, *, live_mode=True, description=None):
    return at(
        moment,
        wallet_debit,
        team=team,
        live_mode=live_mode,
        amount=Decimal(amount),
        reference_type="booking",
        reference_id=reference,
        description=description or f"Booking {reference}",
    )


@pytest.fixture
def november(team):
    """Movements on both sides of São Paulo midnight at the start and the end of November."""
    agency = team
    before = credit(agency, "1000.00", datetime(2026, 10, 31, 23, 59, 59, 999999, SP), "rch_oct")
    first = credit(agency, "250.50", datetime(2026, 11, 1, 0, 0, tzinfo=SP), "rch_nov1")
    middle = debit(agency, "300.25", datetime(2026, 11, 15, 12, 0, tzinfo=SP), "ord_nov15")
    last = debit(agency, "100.00", datetime(2026, 11, 30, 23, 59, 59, 999999, SP), "ord_nov30")
    after = credit(agency, "40.00", datetime(2026, 12, 1, 0, 0, tzinfo=SP), "rch_dec1")
    return {"before": before, "first": first, "middle": middle, "last": last, "after": after}


def test_statement_totals_agree_with_the_ledger_on_sao_paulo_midnights(team, november):
    statement = statement_get(team=team, live_mode=True, period=NOVEMBER)

    assert statement.opening_balance == Decimal("1000.00")  # the 23:59:59.999999 credit
    assert statement.total_credits == Decimal("250.50")  # 00:00 on the 1st is in
    assert statement.total_debits == Decimal("400.25")  # 23:59:59.999999 on the 30th is in
    assert (statement.credit_count, statement.debit_count) == (1, 2)
    assert statement.closing_balance == Decimal("850.25")
    assert (
        statement.opening_balance + statement.total_credits - statement.total_debits
        == statement.closing_balance
    )
    # The ledger's own chain says the same: the balance after the last movement of the period,
    # the balance before the first one, and the next period opens where this one closed.
    assert statement.closing_balance == november["last"].balance_after
    assert statement.opening_balance == november["before"].balance_after
    december = statement_get(
        team=team,
        live_mode=True,
        period=StatementPeriod(start=date(2026, 12, 1), end=date(2026, 12, 31)),
    )
    assert december.opening_balance == statement.closing_balance
    assert december.closing_balance == Wallet.objects.get(team=team).balance
    assert balance_at(
        team=team, live_mode=True, moment=datetime(2026, 12, 1, tzinfo=SP)
    ) == Decimal("850.25")

    lines = list(statement.lines())
    assert [line.transaction.id for line in lines] == [
        november["first"].id,
        november["middle"].id,
        november["last"].id,
    ]
    assert [line.signed_amount for line in lines] == [
        Decimal("250.50"),
        Decimal("-300.25"),
        Decimal("-100.00"),
    ]
    # Each running balance is the ledger's balance_after of that movement.
    assert [line.balance for line in lines] == [
        Transaction.objects.get(pk=line.transaction.id).balance_after for line in lines
    ]
    # A page starting in the middle carries the balance of the rows before it.
    assert [line.balance for line in statement.lines(offset=1, limit=1)] == [Decimal("950.25")]


def test_a_single_day_is_its_sao_paulo_day_not_utc(team, november):
    """The 1st of November in São Paulo starts at 03:00 UTC: the 31 October credit at
    23:59:59.999999 (02:59:59 UTC on the 1st) is not in it."""
    day = statement_get(
        team=team,
        live_mode=True,
        period=StatementPeriod(start=date(2026, 11, 1), end=date(2026, 11, 1)),
    )
    assert [line.transaction.id for line in day.lines()] == [november["first"].id]
    assert day.opening_balance == Decimal("1000.00")
    assert day.closing_balance == Decimal("1250.50")


def test_test_and_live_movements_never_mix(team, november):
    agency = team
    credit(agency, "77.00", datetime(2026, 11, 10, 9, 0, tzinfo=SP), "rch_t1", live_mode=False)
    debit(agency, "20.00", datetime(2026, 11, 11, 9, 0, tzinfo=SP), "ord_t1", live_mode=False)
    credit(agency, "5.00", datetime(2026, 10, 2, 9, 0, tzinfo=SP), "rch_t0", live_mode=False)

    live = statement_get(team=agency, live_mode=True, period=NOVEMBER)
    test = statement_get(team=agency, live_mode=False, period=NOVEMBER)

    assert {line.transaction.live_mode for line in live.lines()} == {True}
    assert live.total_credits == Decimal("250.50") and live.movement_count == 3
    assert {line.transaction.live_mode for line in test.lines()} == {False}
    # Test balances are sums of the test movements (the sandbox balance is a constant).
    assert test.balances_are_notional
    assert test.opening_balance == Decimal("5.00")
    assert (test.total_credits, test.total_debits) == (Decimal("77.00"), Decimal("20.00"))
    assert test.closing_balance == Decimal("62.00")
    assert [line.balance for line in test.lines()] == [Decimal("82.00"), Decimal("62.00")]


def test_another_teams_movements_are_never_in_a_statement(team, other_team, november):
    credit(other_team, "999.00", datetime(2026, 11, 5, tzinfo=SP), "rch_beta")
    mine = statement_get(team=team, live_mode=True, period=NOVEMBER)
    assert all(line.transaction.team_id == team.pk for line in mine.lines())
    assert mine.total_credits == Decimal("250.50")
    theirs = statement_get(team=other_team, live_mode=True, period=NOVEMBER)
    assert theirs.opening_balance == Decimal("0.00")
    assert theirs.total_credits == Decimal("999.00") and theirs.total_debits == Decimal("0.00")


def test_an_empty_period_opens_and_closes_on_the_balance_then(team, november):
    quiet = statement_get(
        team=team,
        live_mode=True,
        period=StatementPeriod(start=date(2026, 11, 16), end=date(2026, 11, 29)),
    )
    assert quiet.movement_count == 0 and list(quiet.lines()) == []
    assert quiet.opening_balance == quiet.closing_balance == Decimal("950.25")


@pytest.mark.parametrize(
    ("start", "end", "code"),
    [
        (date(2026, 11, 30), date(2026, 11, 1), "start_after_end"),
        (date(2021, 1, 1), date(2026, 1, 1), "too_long"),
        (date(1999, 12, 31), date(2000, 1, 31), "too_early"),
        (date(2099, 12, 1), date(2100, 1, 1), "too_late"),
    ],
)
def test_periods_a_statement_cannot_cover(start, end, code):
    with pytest.raises(StatementPeriodError) as error:
        statement_period(start=start, end=end)
    assert error.value.code == code


def test_the_longest_period_is_five_years_less_a_day():
    assert statement_period(start=date(2021, 1, 1), end=date(2025, 12, 31))
    assert period_latest_end(date(2024, 2, 29)) == date(2029, 2, 28)
    assert period_latest_end(date(2024, 3, 1)) == date(2029, 2, 28)


# --- The panel page ------------------------------------------------------------------------------


def agency_browser(user) -> BrowserClient:
    browser = BrowserClient()
    browser.force_login(user)
    return browser


def test_the_page_shows_totals_and_every_movement_in_portuguese(team, team_owner, november):
    response = agency_browser(team_owner).get(PAGE, NOVEMBER_QUERY)
    assert response.status_code == 200
    page = response.content.decode().replace("\N{NO-BREAK SPACE}", " ")
    assert 'lang="pt-br"' in page
    assert "Extrato da carteira" in page and "Alpha Travel" in page
    assert "De 01/11/2026 a 30/11/2026" in page
    for text in ("R$ 1.000,00", "R$ 250,50", "-R$ 400,25", "R$ 850,25"):
        assert text in page, text
    assert "01/11/2026 00:00:00" in page and "30/11/2026 23:59:59" in page
    assert "horário de Brasília" in page
    assert "-R$ 300,25" in page and "R$ 950,25" in page
    assert "rch_oct" not in page and "rch_dec1" not in page
    statement = response.context["statement"]
    assert statement.closing_balance == Decimal("850.25")


def test_the_page_defaults_to_this_month_in_sao_paulo(team, team_owner):
    agency = team
    # 02:30 UTC on 1 December is still 30 November in São Paulo.
    now = datetime(2026, 12, 1, 2, 30, tzinfo=ZoneInfo("UTC"))
    credit(agency, "10.00", datetime(2026, 11, 2, tzinfo=SP), "rch_a")
    with time_machine.travel(now, tick=False):
        response = agency_browser(team_owner).get(PAGE)
    assert response.status_code == 200
    period = response.context["statement"].period
    assert (period.start, period.end) == (date(2026, 11, 1), date(2026, 11, 30))
    assert response.context["statement"].total_credits == Decimal("10.00")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"start": "31/02/2026", "end": "30/11/2026"}, "Informe a data como dd/mm/aaaa"),
        ({"start": "2026-13-01", "end": "30/11/2026"}, "Informe a data como dd/mm/aaaa"),
        ({"start": "30/11/2026", "end": "01/11/2026"}, "A data inicial é posterior à data final"),
        ({"start": "01/01/2020", "end": "01/01/2026"}, "no máximo 5 anos"),
        ({"start": "01/01/1990", "end": "01/01/1991"}, "a partir de 01/01/2000"),
    ],
)
def test_bad_dates_say_what_is_wrong(team, team_owner, query, message):
    browser = agency_browser(team_owner)
    for url in (PAGE, CSV, PDF):
        response = browser.get(url, query)
        assert response.status_code == 400, url
        assert response["Content-Type"].startswith("text/html")
        assert message in response.content.decode(), url
        assert response.context["statement"] is None


def test_an_agency_user_only_ever_sees_their_own_team(team, team_owner, other_team, november):
    credit(other_team, "999.00", datetime(2026, 11, 5, tzinfo=SP), "rch_beta_secret")
    browser = agency_browser(team_owner)
    for url in (PAGE, CSV):
        response = browser.get(url, {**NOVEMBER_QUERY, "team": other_team.pk})
        assert response.status_code == 200
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode("utf-8-sig")
        assert "Alpha Travel" in text and "rch_nov1" in text
        assert "Beta Tours" not in text and "rch_beta_secret" not in text
        assert "999,00" not in text and "999.00" not in text
    pdf = browser.get(PDF, {**NOVEMBER_QUERY, "team": other_team.pk})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    text = pdf_text(pdf.content)
    assert "Alpha Travel" in text and "Beta Tours" not in text and "rch_beta_secret" not in text


def test_support_chooses_the_team(team, other_team, november):
    browser = BrowserClient()
    browser.force_login(SupportUserFactory())
    chooser = browser.get(PAGE)
    assert chooser.status_code == 200 and chooser.context["statement"] is None
    page = chooser.content.decode()
    assert "Escolha uma equipe" in page and "Alpha Travel" in page and "Beta Tours" in page
    response = browser.get(PAGE, {**NOVEMBER_QUERY, "team": team.pk})
    assert response.context["statement"].team == team
    assert response.context["statement"].closing_balance == Decimal("850.25")
    assert f"team={team.pk}" in response.context["csv_url"]
    unknown = browser.get(PAGE, {**NOVEMBER_QUERY, "team": "team_nobody"})
    assert unknown.status_code == 400
    assert "Nenhuma equipe tem este identificador" in unknown.content.decode()


def test_the_mode_switch_shows_test_movements_only_in_test(team, team_owner, november):
    credit(team, "77.00", datetime(2026, 11, 10, 9, tzinfo=SP), "rch_test_1", live_mode=False)
    browser = agency_browser(team_owner)
    live = browser.get(PAGE, NOVEMBER_QUERY).content.decode()
    test = browser.get(PAGE, {**NOVEMBER_QUERY, "mode": "test"}).content.decode()
    test = test.replace("\N{NO-BREAK SPACE}", " ")
    assert "rch_test_1" not in live and "rch_nov1" in live
    assert "rch_test_1" in test and "rch_nov1" not in test
    assert "o saldo do ambiente de testes é sempre R$ 5.000,00" in test


def test_the_statement_needs_a_panel_role(team, november):
    anonymous = BrowserClient().get(PAGE)
    assert anonymous.status_code == 302 and reverse("admin:login") in anonymous["Location"]
    from agencies.models import User

    nobody = User.objects.create(username="nobody", is_staff=True)
    browser = BrowserClient()
    browser.force_login(nobody)  # staff with no team and no support role
    assert browser.get(CSV, NOVEMBER_QUERY).status_code == 302


def test_the_wallet_pages_link_to_the_statement(team, team_owner):
    browser = agency_browser(team_owner)
    wallet = Wallet.objects.get(team=team)
    for url in (
        reverse("admin:wallet_transaction_changelist"),
        reverse("admin:wallet_wallet_changelist"),
        reverse("admin:wallet_wallet_change", args=[wallet.pk]),
    ):
        response = browser.get(url)
        assert response.status_code == 200
        assert f'href="{PAGE}' in response.content.decode(), url
        assert "Extrato" in response.content.decode()


def test_the_page_in_english(team, team_owner, november):
    response = agency_browser(team_owner).get(PAGE, NOVEMBER_QUERY, HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode().replace("\N{NO-BREAK SPACE}", " ")
    assert "Wallet statement" in page and "From 2026-11-01 to 2026-11-30" in page
    assert "R$ 1,000.00" in page and "-R$ 400.25" in page and "2026-11-30 23:59:59" in page


def test_a_long_period_is_paginated_with_running_balances(team, team_owner, settings):
    agency = team
    start = datetime(2026, 11, 1, 8, tzinfo=SP)
    for n in range(105):
        credit(agency, "1.00", start + timedelta(minutes=n), f"rch_{n:03d}")
    browser = agency_browser(team_owner)
    second = browser.get(PAGE, {**NOVEMBER_QUERY, "page": "2"})
    assert second.context["page"] == 2 and second.context["pages"] == 2
    assert [line.balance for line in second.context["lines"]] == [
        Decimal(f"{n}.00") for n in range(101, 106)
    ]


# --- CSV and PDF -----------------------------------------------------------------------------


def read_csv(response, delimiter):
    body = b"".join(response.streaming_content)
    assert body.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads UTF-8
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=delimiter))


def test_the_csv_in_portuguese_uses_semicolons_and_decimal_commas(team, team_owner, november):
    response = agency_browser(team_owner).get(CSV, NOVEMBER_QUERY)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert (
        'filename="extrato-alpha-travel-2026-11-01_2026-11-30.csv"'
        in response["Content-Disposition"]
    )
    rows = read_csv(response, ";")
    summary = dict(row for row in rows if len(row) == 2)
    assert summary["Extrato da carteira"] == "Alpha Travel"
    assert summary["Período"] == "01/11/2026 a 30/11/2026"
    assert summary["Dados"] == "Dados reais"
    assert summary["Saldo inicial"] == "1000,00"
    assert summary["Créditos"] == "250,50"
    assert summary["Débitos"] == "400,25"
    assert summary["Saldo final"] == "850,25"
    header_at = rows.index([])
    assert rows[header_at + 1][0] == "Data e hora (horário de Brasília)"
    movements = rows[header_at + 2 :]
    assert [m[0] for m in movements] == [
        "01/11/2026 00:00:00",
        "15/11/2026 12:00:00",
        "30/11/2026 23:59:59",
    ]
    assert [(m[2], m[4], m[5]) for m in movements] == [
        ("Crédito", "250,50", "1250,50"),
        ("Débito", "-300,25", "950,25"),
        ("Débito", "-100,00", "850,25"),
    ]
    assert movements[1][3] == "Reserva ord_nov15"
    assert movements[1][6] == november["middle"].id


def test_the_csv_in_english_uses_commas_and_decimal_points(team, team_owner, november):
    browser = agency_browser(team_owner)
    response = browser.get(CSV, NOVEMBER_QUERY, HTTP_ACCEPT_LANGUAGE="en")
    rows = read_csv(response, ",")
    summary = dict(row for row in rows if len(row) == 2)
    assert summary["Wallet statement"] == "Alpha Travel"
    assert summary["Period"] == "2026-11-01 to 2026-11-30"
    assert (summary["Opening balance"], summary["Closing balance"]) == ("1000.00", "850.25")
    movements = rows[rows.index([]) + 2 :]
    assert movements[0][0] == "2026-11-01 00:00:00"
    assert [m[4] for m in movements] == ["250.50", "-300.25", "-100.00"]


def test_the_csv_writes_text_that_looks_like_a_formula_as_text(team, team_owner):
    credit(team, "5.00", datetime(2026, 11, 3, tzinfo=SP), "rch_f", description="=1+1")
    rows = read_csv(agency_browser(team_owner).get(CSV, NOVEMBER_QUERY), ";")
    assert rows[-1][1] == "'=1+1"


def pdf_text(document: bytes) -> str:
    result = subprocess.run(  # noqa: S603 (a fixed program, a PDF we made)
        [PDFTOTEXT, "-layout", "-", "-"], input=document, capture_output=True, check=True
    )
    return result.stdout.decode("utf-8").replace("\N{NO-BREAK SPACE}", " ")


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils' pdftotext")
def test_the_pdf_has_the_agency_period_totals_and_movements(team, team_owner, november):
    from agencies.models import Team

    Team.objects.filter(pk=team.pk).update(tax_id="12.345.678/0001-95")
    response = agency_browser(team_owner).get(PDF, NOVEMBER_QUERY)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Extrato da carteira" in text
    assert "Alpha Travel" in text and "12.345.678/0001-95" in text
    assert "01/11/2026 a 30/11/2026" in text
    for amount in ("R$ 1.000,00", "R$ 250,50", "-R$ 400,25", "R$ 850,25", "-R$ 300,25"):
        assert amount in text, amount
    assert "01/11/2026 00:00:00" in text and "30/11/2026 23:59:59" in text
    assert "Booking ord_nov15" in text and "rch_oct" not in text and "rch_dec1" not in text
    from pypdf import PdfReader

    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)


def test_a_pdf_of_too_many_movements_points_to_the_csv(team, team_owner, settings):
    settings.WALLET_STATEMENT_PDF_MAX_MOVEMENTS = 2
    agency = team
    for n in range(3):
        credit(agency, "1.00", datetime(2026, 11, 2, 8, n, tzinfo=SP), f"rch_many{n}")
    response = agency_browser(team_owner).get(PDF, NOVEMBER_QUERY)
    assert response.status_code == 400
    assert "baixe o CSV" in response.content.decode()


def test_a_movement_written_while_the_statement_is_read_is_in_no_part_of_it(team, november):
    """The totals are read first and the rows later (page by page, or while the CSV streams):
    a live movement landing in between must not show in the rows and not in the totals."""
    agency = team
    statement = statement_get(team=agency, live_mode=True, period=NOVEMBER)
    debit(agency, "55.00", datetime(2026, 11, 20, 9, 0, tzinfo=SP), "ord_during")
    lines = list(statement.lines())
    assert [line.transaction.reference_id for line in lines] == [
        "rch_nov1",
        "ord_nov15",
        "ord_nov30",
    ]
    assert lines[-1].balance == statement.closing_balance == Decimal("850.25")
    assert statement.movements().count() == statement.movement_count == 3
    # Read again, the statement has it, in the totals and the rows alike.
    again = statement_get(team=agency, live_mode=True, period=NOVEMBER)
    assert again.closing_balance == list(again.lines())[-1].balance == Decimal("795.25")


def test_known_ledger_descriptions_are_shown_in_the_readers_language(team):
    from django.utils import translation

    from wallet.display import description_for_people

    with translation.override("pt-br"):
        assert description_for_people("Booking ord_1 (G3)") == "Reserva ord_1 (G3)"
        assert description_for_people("Refund of booking ord_1") == "Reembolso da reserva ord_1"
        assert description_for_people("Refund of booking ord_1: issuance failed") == (
            "Reembolso da reserva ord_1: a emissão falhou"
        )
        assert description_for_people("Recharge rch_1 by PIX") == "Recarga rch_1 por PIX"
        assert description_for_people("Ajuste manual") == "Ajuste manual"  # unknown: as stored
    with translation.override("en"):
        assert description_for_people("Booking ord_1 (G3)") == "Booking ord_1 (G3)"
