import io
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from io import StringIO
from urllib.parse import urlparse

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.test import Client as BrowserClient
from django.urls import reverse

from agencies.tests.factories import SupportUserFactory
from tests.kit.marks import needs_postgresql
from wallet import boleto, pix
from wallet.models import Recharge, Transaction, Wallet
from wallet.services import recharge_expire
from wallet.tasks import expire_recharges
from webhooks.models import Event

pytestmark = pytest.mark.django_db

RECHARGE = "/api/v1/wallet/recharge"


def create(client, amount="250.00", method="pix", currency="BRL", **extra):
    return client.post(
        RECHARGE,
        {"amount": amount, "currency": currency, "payment_method": method, **extra},
        format="json",
    )


def error_of(response):
    return response.status_code, response.json()["error"]["message"]


def path_of(url: str) -> str:
    parsed = urlparse(url)
    return f"{parsed.path}?{parsed.query}" if parsed.query else parsed.path


# --- Creation rules ---------------------------------------------------------------------------


def test_pix_recharge_created_pending_with_payment_instructions(live_client, team):
    with time_machine.travel(datetime(2026, 11, 23, 15, 0, tzinfo=UTC), tick=False):
        response = create(live_client, "250.00", "pix")
    assert response.status_code == 201
    data = response.json()["data"]
    assert data["id"].startswith("rch_") and data["status"] == "pending"
    assert (data["amount"], data["currency"], data["payment_method"]) == ("250.00", "BRL", "pix")
    assert data["created_at"] == "2026-11-23T15:00:00.000Z"
    payment = data["payment"]
    assert payment["expires_at"] == "2026-11-23T15:30:00.000Z"  # 30 minutes
    assert pix.crc_valid(payment["pix_copy_paste"])
    fields = pix.parse_tlv(payment["pix_copy_paste"])
    assert fields["54"] == "250.00" and fields["01"] == "12"
    assert payment["pix_qrcode_url"].startswith(
        f"http://testserver/api/v1/pix/qr/{data['id']}?token="
    )
    event = Event.objects.get(type="wallet.recharge.pending")
    assert event.data_object["id"] == data["id"] and event.data_object["payment"] == payment


def test_boleto_recharge_is_due_three_business_days_ahead(live_client):
    # Friday 2026-02-13: Carnaval Monday and Tuesday (16th, 17th) are not business days.
    with time_machine.travel(datetime(2026, 2, 13, 13, 0, tzinfo=UTC), tick=False):
        data = create(live_client, "1500.00", "boleto").json()["data"]
    payment = data["payment"]
    assert payment["due_date"] == "2026-02-20"
    # Valid until the end of the due date in São Paulo (UTC-3).
    assert payment["expires_at"] == "2026-02-21T03:00:00.000Z"
    code = payment["boleto_barcode"]
    assert len(code) == 44 and boleto.barcode_from_linha(payment["boleto_linha_digitavel"]) == code
    assert code[9:19] == "0000150000"  # amount in cents
    assert code[5:9] == str(boleto.due_date_factor(date(2026, 2, 20)))
    assert payment["boleto_url"].endswith(
        f"/api/v1/boleto/{data['id']}?token=" + payment["boleto_url"].split("token=")[1]
    )
    assert "/pdf?token=" in payment["boleto_pdf_url"]


@pytest.mark.parametrize(
    "amount, status, message",
    [
        ("99.99", 400, "Minimum amount is R$ 100.00"),
        ("0.00", 400, "Minimum amount is R$ 100.00"),
        ("50000.01", 400, "Maximum amount is R$ 50,000.00 per recharge"),
        ("100.001", 400, "Invalid request parameters"),
        ("abc", 400, "Invalid request parameters"),
        ("-150.00", 400, "Invalid request parameters"),
        ("1e3", 400, "Invalid request parameters"),
        ("", 400, "Invalid request parameters"),
    ],
)
def test_amount_rules(live_client, amount, status, message):
    assert error_of(create(live_client, amount)) == (status, message)
    assert not Recharge.objects.exists()


def test_bounds_are_inclusive(live_client):
    assert create(live_client, "100.00").status_code == 201
    assert create(live_client, "50000.00").status_code == 201
    assert create(live_client, "100").status_code == 201


def test_amount_must_be_a_string(live_client):
    assert error_of(
        live_client.post(
            RECHARGE, {"amount": 150, "currency": "BRL", "payment_method": "pix"}, format="json"
        )
    ) == (400, "Invalid request parameters")


@pytest.mark.parametrize("method", ["card", "PIX", "ted", ""])
def test_payment_method_must_be_pix_or_boleto(live_client, method):
    expected = "Invalid request parameters" if method == "" else "Invalid payment method"
    assert error_of(create(live_client, method=method)) == (400, expected)


@pytest.mark.parametrize("currency", ["USD", "brl", ""])
def test_currency_must_be_brl(live_client, currency):
    assert error_of(create(live_client, currency=currency)) == (400, "Invalid request parameters")


def test_missing_fields_are_named(live_client):
    response = live_client.post(RECHARGE, {}, format="json")
    assert error_of(response) == (400, "Invalid request parameters")
    assert set(response.json()["error"]["details"]) == {"amount", "currency", "payment_method"}


def test_daily_limit_counts_pending_and_completed_of_the_sao_paulo_day(live_client, team):
    day = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    with time_machine.travel(day, tick=False):
        first = create(live_client, "50000.00").json()["data"]["id"]
        second = create(live_client, "40000.00").json()["data"]["id"]
        live_client.post(f"{RECHARGE}/{second}/simulate-payment")  # live: refused, stays pending
        response = create(live_client, "10000.01")
        assert response.status_code == 422
        assert response.json()["error"]["message"] == "Daily limit exceeded"
        assert create(live_client, "10000.00").status_code == 201  # exactly 100,000.00
        cancelled = Recharge.objects.get(pk=first)
        live_client.delete(f"{RECHARGE}/{cancelled.id}")  # cancelled ones stop counting
        assert create(live_client, "50000.00").status_code == 201
    # 03:00 UTC the next day is 00:00 in São Paulo: a new day.
    with time_machine.travel(datetime(2026, 11, 24, 3, 0, tzinfo=UTC), tick=False):
        assert create(live_client, "50000.00").status_code == 201
    assert Recharge.objects.filter(status="pending").count() == 4


def test_daily_limit_is_per_mode(live_client, test_client):
    for _ in range(2):
        assert create(live_client, "50000.00").status_code == 201
    assert create(test_client, "50000.00").status_code == 201


# --- Reading, cancelling, paying ----------------------------------------------------------------


def test_get_recharge_of_own_team_and_mode_only(live_client, test_client, team, other_team_keys):
    from rest_framework.test import APIClient

    rch = create(live_client).json()["data"]["id"]
    body = live_client.get(f"{RECHARGE}/{rch}").json()
    assert body["data"]["id"] == rch and body["data"]["status"] == "pending"
    assert body["data"]["paid_at"] is None and body["data"]["transaction_id"] is None
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other_team_keys.live_key}")
    for client in (other, test_client):
        assert error_of(client.get(f"{RECHARGE}/{rch}")) == (404, "Recharge not found")
    assert error_of(live_client.get(f"{RECHARGE}/rch_unknown")) == (404, "Recharge not found")


def test_cancel_a_pending_recharge(live_client):
    rch = create(live_client).json()["data"]["id"]
    response = live_client.delete(f"{RECHARGE}/{rch}")
    assert response.status_code == 200 and response.json()["data"]["status"] == "cancelled"
    again = live_client.delete(f"{RECHARGE}/{rch}")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "recharge_not_pending"


def test_simulated_payment_credits_once_in_test_mode(test_client, team):
    rch = create(test_client, "300.00").json()["data"]["id"]
    paid = test_client.post(f"{RECHARGE}/{rch}/simulate-payment").json()["data"]
    assert paid["status"] == "completed" and paid["paid_at"] and paid["transaction_id"]
    again = test_client.post(f"{RECHARGE}/{rch}/simulate-payment").json()["data"]
    assert again["transaction_id"] == paid["transaction_id"]
    txn = Transaction.objects.get(reference_id=rch)
    assert (txn.type, txn.amount, txn.payment_method, txn.live_mode) == (
        "credit",
        Decimal("300.00"),
        "pix",
        False,
    )
    assert txn.balance_after == Decimal("5000.00")
    assert Wallet.objects.get(team=team).balance == 0  # the live wallet is untouched
    types = list(Event.objects.filter(live_mode=False).values_list("type", flat=True))
    assert types.count("wallet.credit") == 1 and types.count("wallet.recharge.completed") == 1
    assert test_client.get(f"{RECHARGE}/{rch}").json()["data"]["status"] == "completed"


def test_simulating_a_payment_needs_a_test_key(live_client):
    rch = create(live_client).json()["data"]["id"]
    response = live_client.post(f"{RECHARGE}/{rch}/simulate-payment")
    assert response.status_code == 403 and response.json()["error"]["code"] == "test_mode_only"
    assert Recharge.objects.get(pk=rch).status == "pending"


def test_simulate_payment_command_credits_the_live_wallet_once(live_client, team):
    rch = create(live_client, "700.00", "boleto").json()["data"]["id"]
    out = StringIO()
    call_command("simulate_payment", rch, stdout=out)
    call_command("simulate_payment", rch, stdout=out)
    assert "already completed" in out.getvalue()
    assert Wallet.objects.get(team=team).balance == Decimal("700.00")
    assert Transaction.objects.filter(reference_id=rch).count() == 1
    with pytest.raises(CommandError, match="not found"):
        call_command("simulate_payment", "rch_nope")


def test_cancelled_recharge_cannot_then_be_cancelled_but_a_late_payment_still_credits(
    live_client, team
):
    rch = create(live_client, "400.00").json()["data"]["id"]
    live_client.delete(f"{RECHARGE}/{rch}")
    call_command("simulate_payment", rch, stdout=StringIO())
    recharge = Recharge.objects.get(pk=rch)
    assert recharge.status == "completed" and recharge.transaction is not None
    assert Wallet.objects.get(team=team).balance == Decimal("400.00")


# --- Expiry -------------------------------------------------------------------------------------


def test_beat_task_expires_pix_after_30_minutes_and_a_late_payment_still_credits(live_client, team):
    start = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        pix_id = create(live_client, "200.00", "pix").json()["data"]["id"]
        boleto_id = create(live_client, "200.00", "boleto").json()["data"]["id"]
    with time_machine.travel(start + timedelta(minutes=29), tick=False):
        assert expire_recharges.delay().get() == 0
    with time_machine.travel(start + timedelta(minutes=31), tick=False):
        assert expire_recharges.delay().get() == 1
    assert Recharge.objects.get(pk=pix_id).status == "expired"
    assert Recharge.objects.get(pk=boleto_id).status == "pending"
    event = Event.objects.get(type="wallet.recharge.expired")
    assert event.data_object["id"] == pix_id
    assert event.previous_attributes == {"status": "pending"}
    call_command("simulate_payment", pix_id, stdout=StringIO())  # real money arrives late
    assert Wallet.objects.get(team=team).balance == Decimal("200.00")
    completed = Event.objects.get(type="wallet.recharge.completed")
    assert completed.previous_attributes["status"] == "expired"


def test_expire_does_nothing_to_a_completed_recharge(live_client):
    rch = create(live_client).json()["data"]["id"]
    call_command("simulate_payment", rch, stdout=StringIO())
    recharge = Recharge.objects.get(pk=rch)
    assert recharge_expire(recharge=recharge, now=recharge.expires_at + timedelta(days=1)) is False
    assert Recharge.objects.get(pk=rch).status == "completed"


# --- Payment pages ------------------------------------------------------------------------------


def test_qr_png_decodes_to_the_copy_paste_payload(anon_client, live_client):
    pyzbar = pytest.importorskip(
        "pyzbar.pyzbar", reason="needs libzbar0 (apt-get install libzbar0)"
    )
    from PIL import Image

    payment = create(live_client).json()["data"]["payment"]
    response = anon_client.get(path_of(payment["pix_qrcode_url"]))  # no key: the token opens it
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    decoded = pyzbar.decode(Image.open(io.BytesIO(response.content)))
    assert [d.data.decode() for d in decoded] == [payment["pix_copy_paste"]]
    svg = anon_client.get(path_of(payment["pix_qrcode_url"]) + "&format=svg")
    assert svg["Content-Type"] == "image/svg+xml" and b"<svg" in svg.content


def test_payment_pages_need_the_token_or_the_owners_key(anon_client, live_client, other_team_keys):
    from rest_framework.test import APIClient

    first = create(live_client).json()["data"]
    second = create(live_client).json()["data"]
    qr_path = f"/api/v1/pix/qr/{first['id']}"
    assert anon_client.get(qr_path).status_code == 404
    assert anon_client.get(qr_path + "?token=wrong").status_code == 404
    second_token = second["payment"]["pix_qrcode_url"].split("token=")[1]
    assert anon_client.get(f"{qr_path}?token={second_token}").status_code == 404
    assert live_client.get(qr_path).status_code == 200  # the owner's key
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other_team_keys.live_key}")
    response = other.get(qr_path)
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "Recharge not found"


def test_boleto_page_and_pdf_show_the_linha_digitavel(anon_client, live_client):
    pypdf = pytest.importorskip("pypdf")
    payment = create(live_client, "1234.56", "boleto").json()["data"]["payment"]
    page = anon_client.get(path_of(payment["boleto_url"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert payment["boleto_linha_digitavel"] in html and "R$\N{NO-BREAK SPACE}1.234,56" in html
    pdf = anon_client.get(path_of(payment["boleto_pdf_url"]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf.content)).pages)
    assert payment["boleto_linha_digitavel"] in text
    assert anon_client.get(path_of(payment["boleto_pdf_url"]).split("?")[0]).status_code == 404


def test_test_mode_boleto_says_it_is_not_payable(anon_client, test_client):
    payment = create(test_client, "150.00", "boleto").json()["data"]["payment"]
    assert "MODO DE TESTE" in anon_client.get(path_of(payment["boleto_url"])).content.decode()


# --- Panel --------------------------------------------------------------------------------------


def test_support_marks_a_sandbox_recharge_paid_and_cancels_another(live_client, team):
    paid = create(live_client, "500.00").json()["data"]["id"]
    cancelled = create(live_client, "600.00").json()["data"]["id"]
    browser = BrowserClient()
    browser.force_login(SupportUserFactory())
    url = reverse("admin:wallet_recharge_changelist")
    confirmation = browser.post(url, {"action": "mark_paid", "_selected_action": [paid]})
    assert (
        "A carteira recebe um crédito de R$\N{NO-BREAK SPACE}500,00."
        in confirmation.content.decode()
    )
    assert Recharge.objects.get(pk=paid).status == "pending"  # nothing happens before "yes"
    confirmation = browser.post(url, {"action": "cancel", "_selected_action": [cancelled]})
    assert "A cobrança de R$\N{NO-BREAK SPACE}600,00 é retirada" in confirmation.content.decode()
    assert Recharge.objects.get(pk=cancelled).status == "pending"
    browser.post(url, {"action": "mark_paid", "_selected_action": [paid], "post": "yes"})
    browser.post(url, {"action": "cancel", "_selected_action": [cancelled], "post": "yes"})
    assert Recharge.objects.get(pk=paid).status == "completed"
    assert Recharge.objects.get(pk=cancelled).status == "cancelled"
    assert Wallet.objects.get(team=team).balance == Decimal("500.00")
    filtered = browser.get(url, {"status__exact": "completed", "payment_method__exact": "pix"})
    assert [r.id for r in filtered.context["cl"].queryset] == [paid]
    detail = browser.get(reverse("admin:wallet_recharge_change", args=[paid])).content.decode()
    assert Recharge.objects.get(pk=paid).transaction_id in detail


def test_nobody_adds_changes_or_deletes_ledger_rows_in_the_panel(team):
    from tests.kit.factories import fund

    txn = fund(team, "100.00")
    browser = BrowserClient()
    browser.force_login(SupportUserFactory())  # a superuser
    assert browser.get(reverse("admin:wallet_transaction_add")).status_code == 403
    assert browser.get(reverse("admin:wallet_transaction_delete", args=[txn.pk])).status_code == 403
    change = browser.post(
        reverse("admin:wallet_transaction_change", args=[txn.pk]), {"amount": "1.00"}
    )
    assert change.status_code == 403
    assert Transaction.objects.get(pk=txn.pk).amount == Decimal("100.00")


@needs_postgresql("row locks; SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
def test_concurrent_recharges_cannot_both_squeeze_under_the_daily_limit(team_keys):
    import threading

    from django.db import connection
    from django.test import Client as HttpClient

    barrier = threading.Barrier(6)
    statuses = []

    def worker():
        client = HttpClient(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
        barrier.wait()
        response = client.post(
            RECHARGE,
            {"amount": "40000.00", "currency": "BRL", "payment_method": "pix"},
            content_type="application/json",
        )
        statuses.append(response.status_code)
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 201, 422, 422, 422, 422]  # 2 × 40,000 fit in 100,000
    assert Recharge.objects.filter(status="pending").count() == 2


def test_a_recharges_page_is_titled_as_people_read_it_and_offers_no_save(team):
    """The review: a recharge's page was titled "Visualizar recarga" with its raw id, amount and
    status below, and offered Save buttons though nothing on it can be edited."""
    from django.test import Client as BrowserClient
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from wallet.services import recharge_complete, recharge_create

    recharge = recharge_complete(
        recharge=recharge_create(
            team=team, live_mode=True, amount=Decimal("1234.56"), payment_method="pix"
        )
    )
    support = BrowserClient(headers={"accept-language": "pt-br"})
    support.force_login(SupportUserFactory())

    page = support.get(reverse("admin:wallet_recharge_change", args=[recharge.pk]))

    html = page.content.decode()
    assert page.status_code == 200
    assert page.context["title"] == "Recarga PIX de R$\N{NO-BREAK SPACE}1.234,56 · Concluída"
    assert 'name="_save"' not in html and 'name="_continue"' not in html
