"""The sales and commission report (bookings/reports.py, docs/reports.md): a month of live
sandbox sales (bookings/tests/helpers.py `a_month_of_sales`) read back as the report, its totals
against the ledger, each kind of row, the API (JSON and the NFS-e CSV), the panel's page and
files, and who sees what."""

import csv
import io
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db.models import Q, Sum
from django.test import Client as BrowserClient
from django.urls import reverse

from bookings.report_exports import NFSE_COLUMNS
from bookings.reports import (
    BOOKING_REFERENCES,
    MONEY_COLUMNS,
    nfse_rows,
    report_period,
    sales_report,
)
from bookings.tests.helpers import CPF, a_month_of_sales
from core.money import q
from core.timestamps import business_day_bounds
from wallet.display import StatementPeriodError
from wallet.models import Transaction

pytestmark = pytest.mark.django_db
SP = ZoneInfo("America/Sao_Paulo")
NOVEMBER = report_period(start=date(2026, 11, 1), end=date(2026, 11, 30))
ZERO = Decimal("0.00")


@pytest.fixture
def month(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    return a_month_of_sales(live_client, team)


def ledger(team, start: date, end: date, *, live_mode: bool = True) -> dict[str, Decimal]:
    """The wallet's booking-related movements created in those São Paulo days, per kind."""
    rows = Transaction.objects.filter(
        team=team,
        live_mode=live_mode,
        created_at__gte=business_day_bounds(start)[0],
        created_at__lt=business_day_bounds(end)[1],
        reference_type__in=BOOKING_REFERENCES,
    )

    def total(condition: Q) -> Decimal:
        return rows.filter(condition).aggregate(total=Sum("amount"))["total"] or ZERO

    debit, credit = Q(type="debit"), Q(type="credit")
    after_sale = Q(reference_type__in=["booking_services", "booking_change"]) | Q(
        reference_type="refund", reference_id__startswith="bsv_"
    )
    return {
        "sales": total(debit & Q(reference_type="booking")),
        "changes_extras": total(debit & after_sale) - total(credit & after_sale),
        "refunds": total(credit & Q(reference_type="refund", reference_id__startswith="ord_")),
        "debits": total(debit),
        "credits": total(credit),
    }


def test_the_totals_equal_the_ledgers_movements_of_the_period(month, team):
    report = sales_report(team=team, live_mode=True, period=NOVEMBER)
    moved = ledger(team, date(2026, 11, 1), date(2026, 11, 30))
    totals = report.totals

    assert totals.base_cost_brl == moved["sales"] > 0
    assert totals.changes_extras_cost_brl == moved["changes_extras"] != 0
    assert totals.refund_amount == moved["refunds"] > 0
    assert (totals.wallet_debits, totals.wallet_credits) == (moved["debits"], moved["credits"])
    assert (
        totals.base_cost_brl + totals.changes_extras_cost_brl - totals.refund_amount
        == moved["debits"] - moved["credits"]
    )
    # Each total is its column's sum, and every row keeps the report's identities.
    for name in MONEY_COLUMNS:
        assert getattr(totals, name) == sum((r.money()[name] for r in report.rows), ZERO)
    for row in report.rows:
        assert row.client_amount == row.base_cost_brl + row.markup_amount + row.fee_amount
        assert row.net_revenue == (
            row.markup_amount + row.fee_amount + row.changes_extras_revenue - row.refunded_revenue
        )
        assert row.client_net - row.cost_net == row.net_revenue


def test_a_single_day_and_the_days_around_it_add_up_to_the_month(month, team):
    days = [date(2026, 11, 1) + timedelta(days=n) for n in range(30)]
    per_day = [
        sales_report(team=team, live_mode=True, period=report_period(start=d, end=d)) for d in days
    ]
    whole = sales_report(team=team, live_mode=True, period=NOVEMBER)
    for name in (*MONEY_COLUMNS, "wallet_debits", "wallet_credits"):
        assert sum((getattr(r.totals, name) for r in per_day), ZERO) == getattr(whole.totals, name)
    for day, report in zip(days, per_day, strict=True):
        assert report.totals.base_cost_brl == ledger(team, day, day)["sales"]


def test_which_bookings_fall_in_november(month, team):
    rows = {r.booking.pk: r for r in sales_report(team=team, live_mode=True, period=NOVEMBER).rows}
    names = {name for name, booking in month.items() if booking.pk in rows}
    # Sold in October, refunded in November: only its refund. December's 00:00 is December's.
    assert names == set(month) - {"december"}
    october = rows[month["october"].pk]
    assert (october.sold_at, october.base_cost_brl, october.markup_amount) == (None, ZERO, ZERO)
    assert october.refund_amount > 0 and october.net_revenue < 0
    october_report = sales_report(
        team=team,
        live_mode=True,
        period=report_period(start=date(2026, 10, 1), end=date(2026, 10, 31)),
    )
    assert [r.booking.pk for r in october_report.rows] == [month["october"].pk]
    december = sales_report(
        team=team,
        live_mode=True,
        period=report_period(start=date(2026, 12, 1), end=date(2026, 12, 1)),
    )
    assert [r.booking.pk for r in december.rows] == [month["december"].pk]
    assert december.rows[0].sold_at == datetime(2026, 12, 1, 0, 0, tzinfo=SP)


def test_each_kind_of_row(month, team):
    rows = {r.booking.pk: r for r in sales_report(team=team, live_mode=True, period=NOVEMBER).rows}
    markup = Decimal("10.00") / 100
    fee = Decimal("25.00")

    plain = rows[month["plain"].pk]
    booking = month["plain"]
    assert plain.base_cost_brl == booking.base_cost_brl
    assert plain.markup_amount == q(booking.base_cost_brl * markup) == booking.markup_amount
    assert plain.fee_amount == fee and plain.client_amount == booking.client_amount
    assert plain.net_revenue == plain.markup_amount + fee
    assert plain.client_name == "Ana Lima" and plain.client_tax_id == "529.982.247-25"
    assert plain.route == "GRU → BSB" and plain.travel_date == date(2027, 1, 15)

    bag = rows[month["bag"].pk]
    purchase = month["bag"].services_purchases.get()
    assert bag.client_tax_id == "11.222.333/0001-81"
    assert bag.changes_extras_cost_brl == purchase.base_cost_brl
    assert (
        bag.changes_extras_revenue == purchase.markup_amount == q(purchase.base_cost_brl * markup)
    )
    assert bag.changes_extras_client_amount == purchase.client_amount
    # The sale is the booking less its extras: markup and client amount as sold.
    assert bag.markup_amount == month["bag"].markup_amount - purchase.markup_amount

    dearer = rows[month["dearer"].pk]
    change = month["dearer"].change_offers.get(status="confirmed")
    assert dearer.changes_extras_cost_brl == change.change_cost_brl > 0
    assert dearer.changes_extras_revenue == change.markup_amount + change.fee_amount
    assert dearer.changes_extras_client_amount == change.client_change_amount
    assert dearer.fee_amount == fee  # the sale's fee; the change's is in its revenue

    cheaper = rows[month["cheaper"].pk]
    change = month["cheaper"].change_offers.get(status="confirmed")
    assert cheaper.changes_extras_cost_brl == change.change_cost_brl < 0  # credited back
    assert cheaper.changes_extras_revenue == fee  # the fee, no markup on a refund
    assert cheaper.changes_extras_client_amount == change.client_change_amount < 0

    voucher = rows[month["voucher"].pk]
    assert voucher.changes_extras_cost_brl == ZERO  # nothing moved
    assert voucher.changes_extras_revenue == voucher.changes_extras_client_amount == fee

    failed = rows[month["failed"].pk]
    assert failed.refund_amount == failed.base_cost_brl > 0  # all of it back
    assert failed.refunded_revenue == failed.markup_amount + failed.fee_amount
    assert failed.net_revenue == ZERO and failed.client_net == ZERO

    cancelled = rows[month["cancelled"].pk]
    booking = month["cancelled"]
    refund = booking.cancellations.get(status="confirmed").wallet_credit_amount
    assert ZERO < cancelled.refund_amount == refund < cancelled.base_cost_brl
    share = q(booking.markup_amount * refund / booking.base_cost_brl)
    assert cancelled.refunded_revenue == share  # the markup on what came back; the fee kept
    assert cancelled.net_revenue == booking.markup_amount - share + fee


def test_test_mode_and_other_teams_are_apart(month, team, other_team):
    assert sales_report(team=team, live_mode=False, period=NOVEMBER).rows == []
    assert sales_report(team=other_team, live_mode=True, period=NOVEMBER).rows == []


@pytest.mark.parametrize(
    ("start", "end", "code"),
    [
        (date(2026, 11, 2), date(2026, 11, 1), "start_after_end"),
        (date(2025, 1, 1), date(2026, 1, 2), "too_long"),
        (date(1999, 12, 31), date(2000, 1, 1), "too_early"),
        (date(2099, 12, 31), date(2100, 1, 1), "too_late"),
    ],
)
def test_the_period_rules(start, end, code):
    with pytest.raises(StatementPeriodError) as raised:
        report_period(start=start, end=end)
    assert raised.value.code == code


def test_a_year_is_the_longest_period():
    assert report_period(start=date(2024, 1, 1), end=date(2024, 12, 31))  # 366 days, leap
    assert report_period(start=date(2026, 1, 1), end=date(2027, 1, 1))  # 366 days


# --- NFS-e ---------------------------------------------------------------------------------------


def test_one_invoice_per_ticketed_booking_with_revenue(month, team):
    team.municipal_service_code = "09.02"
    team.save()
    report = sales_report(team=team, live_mode=True, period=NOVEMBER)
    invoices = {i.external_reference: i for i in nfse_rows(report)}
    expected = {"plain", "bag", "cheaper", "dearer", "voucher", "cancelled"}
    assert set(invoices) == {month[name].pk for name in expected}  # not failed, not october
    rows = {r.booking.pk: r for r in report.rows}
    for booking_id, invoice in invoices.items():
        assert invoice.value - invoice.deductions == rows[booking_id].net_revenue > 0
        assert invoice.deductions >= 0 and invoice.municipal_service_code == "09.02"
    plain = invoices[month["plain"].pk]
    assert (plain.value, plain.deductions) == (
        month["plain"].client_amount,
        month["plain"].base_cost_brl,
    )
    assert plain.customer_cpf_cnpj == "529.982.247-25" and plain.effective_date == date(2026, 11, 3)
    assert month["plain"].booking_reference in plain.service_description


def test_the_nfse_csv_opens_in_a_brazilian_spreadsheet(month, team, live_client):
    response = live_client.get(
        "/api/v1/reports/nfse", {"start_date": "2026-11-01", "end_date": "2026-11-30"}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    assert tuple(rows[0]) == NFSE_COLUMNS
    assert len(rows) == 1 + 6  # one per ticketed booking with revenue
    by_id = {row[0]: dict(zip(NFSE_COLUMNS, row, strict=True)) for row in rows[1:]}
    plain = by_id[month["plain"].pk]
    assert plain["value"] == f"{month['plain'].client_amount}".replace(".", ",")
    assert plain["deductions"] == f"{month['plain'].base_cost_brl}".replace(".", ",")
    assert plain["customer.cpfCnpj"] == "529.982.247-25"
    assert plain["effectiveDate"] == "2026-11-03"


# --- The API -------------------------------------------------------------------------------------


def test_the_api_answers_the_report_in_the_envelope(month, team, live_client):
    response = live_client.get(
        "/api/v1/reports/sales", {"start_date": "2026-11-01", "end_date": "2026-11-30", "limit": 3}
    )
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    report = sales_report(team=team, live_mode=True, period=NOVEMBER)
    assert data["period"] == {
        "start_date": "2026-11-01",
        "end_date": "2026-11-30",
        "time_zone": "America/Sao_Paulo",
    }
    assert data["totals"]["bookings"] == len(report.rows) == data["pagination"]["total"]
    assert data["totals"]["net_revenue"] == f"{report.totals.net_revenue}"
    assert data["totals"]["wallet_debits"] == f"{report.totals.wallet_debits}"
    assert len(data["rows"]) == 3 and data["pagination"]["pages"] == 3
    first = data["rows"][0]
    assert first["booking_id"] == report.rows[0].booking.pk
    assert set(MONEY_COLUMNS) <= set(first)
    plain = next(
        r
        for page in (1, 2, 3)
        for r in live_client.get(
            "/api/v1/reports/sales",
            {"start_date": "2026-11-01", "end_date": "2026-11-30", "limit": 3, "page": page},
        ).json()["data"]["rows"]
        if r["booking_id"] == month["plain"].pk
    )
    assert plain["client"]["tax_id"] == CPF and plain["route"] == "GRU → BSB"
    assert plain["sold_at"].startswith("2026-11-03T15:00:00")


def test_the_api_is_per_key_mode(month, test_client):
    response = test_client.get(
        "/api/v1/reports/sales", {"start_date": "2026-11-01", "end_date": "2026-11-30"}
    )
    assert response.status_code == 200
    assert response.json()["data"]["rows"] == [] and response.json()["data"]["live_mode"] is False


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"end_date": "2026-11-30"}, "start_date", "This field is required."),
        ({"start_date": "2026-11-01"}, "end_date", "This field is required."),
        (
            {"start_date": "2026-11-31", "end_date": "2026-11-30"},
            "start_date",
            "Use YYYY-MM-DD, a calendar day from 1900-01-01 to 2999-12-31.",
        ),
        (
            {"start_date": "2026-11-02", "end_date": "2026-11-01"},
            "end_date",
            "Must not be before start_date.",
        ),
        (
            {"start_date": "2025-01-01", "end_date": "2026-01-02"},
            "end_date",
            "At most 366 days from start_date.",
        ),
        (
            {"start_date": "1899-12-31", "end_date": "1900-01-01"},
            "start_date",
            "Use YYYY-MM-DD, a calendar day from 1900-01-01 to 2999-12-31.",
        ),
    ],
)
@pytest.mark.parametrize("path", ["/api/v1/reports/sales", "/api/v1/reports/nfse"])
def test_bad_dates_are_400_naming_the_field(live_client, path, query, field, message):
    response = live_client.get(path, query)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] == "Invalid request parameters"
    assert error["details"] == {field: [message]}


# --- The panel -----------------------------------------------------------------------------------


def panel(user) -> BrowserClient:
    client = BrowserClient(HTTP_ACCEPT_LANGUAGE="pt-br")
    client.force_login(user)
    return client


NOVEMBER_QUERY = {"start": "01/11/2026", "end": "30/11/2026"}


def test_the_page_in_portuguese(month, team, team_owner):
    page = panel(team_owner).get(reverse("admin:bookings_sales_report"), NOVEMBER_QUERY)
    assert page.status_code == 200
    text = page.content.decode()
    report = sales_report(team=team, live_mode=True, period=NOVEMBER)
    assert "Relatório de vendas e comissões" in text
    assert "529.982.247-25" in text and month["plain"].booking_reference in text
    net = f"{report.totals.net_revenue:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    assert f"R$\N{NO-BREAK SPACE}{net}" in text
    for link in ("report-csv", "report-pdf", "report-nfse"):
        assert f'id="{link}"' in text


def test_the_csv_is_excel_ready_in_portuguese(month, team, team_owner):
    response = panel(team_owner).get(reverse("admin:bookings_sales_report_csv"), NOVEMBER_QUERY)
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    header = rows[rows.index([]) + 1]
    assert header[:3] == ["Localizador da reserva", "Reserva", "Situação"]
    lines, total = rows[rows.index([]) + 2 : -1], rows[-1]
    report = sales_report(team=team, live_mode=True, period=NOVEMBER)
    assert len(lines) == len(report.rows) and total[0] == "Total"
    net = header.index("Receita líquida (R$)")
    assert (
        sum(Decimal(line[net].replace(",", ".")) for line in lines)
        == Decimal(total[net].replace(",", "."))
        == report.totals.net_revenue
    )
    plain = next(line for line in lines if line[1] == month["plain"].pk)
    assert plain[4] == "529.982.247-25" and plain[6] == "15/01/2027"


def test_the_pdf(month, team_owner):
    response = panel(team_owner).get(reverse("admin:bookings_sales_report_pdf"), NOVEMBER_QUERY)
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_an_agency_user_sees_only_their_team(month, team, other_team, other_team_owner):
    client = panel(other_team_owner)
    query = {**NOVEMBER_QUERY, "team": team.pk}
    for name in ("report", "report_csv", "report_nfse"):
        response = client.get(reverse(f"admin:bookings_sales_{name}"), query)
        assert response.status_code == 200
        content = response.content if name != "report_csv" else b"".join(response.streaming_content)
        assert month["plain"].pk.encode() not in content


def test_support_chooses_the_team(month, team, django_user_model):
    support = django_user_model.objects.create_superuser("help", "help@example.com", "x")
    client = panel(support)
    chooser = client.get(reverse("admin:bookings_sales_report"), NOVEMBER_QUERY)
    assert chooser.status_code == 200 and b'id="report-choose-team"' in chooser.content
    chosen = client.get(reverse("admin:bookings_sales_report"), {**NOVEMBER_QUERY, "team": team.pk})
    assert month["plain"].booking_reference.encode() in chosen.content
    unknown = client.get(
        reverse("admin:bookings_sales_report"), {**NOVEMBER_QUERY, "team": "team_x"}
    )
    assert unknown.status_code == 400


def test_bad_dates_on_the_page_are_400(team_owner):
    response = panel(team_owner).get(
        reverse("admin:bookings_sales_report"), {"start": "01/01/2025", "end": "02/01/2026"}
    )
    assert response.status_code == 400
    assert "no máximo 366 dias" in response.content.decode()


def test_the_menu_lists_the_report_beside_the_statement(team_owner):
    home = panel(team_owner).get(reverse("admin:index")).content.decode()
    assert reverse("admin:bookings_sales_report") in home
    assert reverse("admin:wallet_statement") in home


def test_the_csv_in_english_has_commas_and_decimal_points(month, team, team_owner):
    client = BrowserClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(team_owner)
    response = client.get(
        reverse("admin:bookings_sales_report_csv"),
        {"start": "2026-11-01", "end": "2026-11-30"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    header = rows[rows.index([]) + 1]
    assert header[0] == "Booking reference" and "Net revenue (R$)" in header
    report = sales_report(team=team, live_mode=True, period=NOVEMBER)
    assert rows[-1][header.index("Net revenue (R$)")] == f"{report.totals.net_revenue}"
