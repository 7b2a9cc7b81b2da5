"""The Asaas adapter (wallet.providers.asaas) against recorded Asaas v3 responses.

Only Asaas's HTTP API is faked (`responses`); everything of ours runs for real: the recharge
services, the API views, the ledger and the outbox. Bodies follow Asaas's documented shapes:
https://docs.asaas.com/reference (customers, payments, pixQrCode, identificationField)."""

import base64
import json
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import requests
import responses
import time_machine
from responses import matchers

from api.exceptions import error_details
from wallet import boleto, pix
from wallet.models import Recharge, Transaction
from wallet.services import recharge_complete, recharge_create
from webhooks.models import Event

pytestmark = pytest.mark.django_db

# Known-good vectors, copied from the project's shared testdata so a clone stands alone.
TESTDATA = Path(__file__).resolve().parent / "vectors"
BOLETO_VECTORS = json.loads((TESTDATA / "boleto_vectors.json").read_text())["vectors"]
PIX_VECTORS = json.loads((TESTDATA / "pix_brcode_vectors.json").read_text())["vectors"]

# Banco do Brasil (Asaas issues its boletos through a partner bank): R$ 2.952,95.
BB_BOLETO = BOLETO_VECTORS[0]
# A dynamic BR Code (field 26/25 = location URL, single use), the kind Asaas returns.
PIX_PAYLOAD = PIX_VECTORS[1]["payload"]
_BB_LINE = BB_BOLETO["linha_digitavel"].replace(" ", "").replace(".", "")
# The same line with field 1's mod-10 check digit (its 10th digit) off by one.
WRONG_FIELD_DV_LINE = _BB_LINE[:9] + str((int(_BB_LINE[9]) + 1) % 10) + _BB_LINE[10:]

BASE_URL = "https://api-sandbox.asaas.com/v3"
API_KEY = "$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OjAwMDAwMDAwMDAwNTIxOTYxMw=="
WEBHOOK_TOKEN = "whk-asaas-3b8f0c1e9d2a47e6b5c4"
CUSTOMER_ID = "cus_000005219613"
PAYMENT_ID = "pay_080225913252"
SAO_PAULO = ZoneInfo("America/Sao_Paulo")
RECHARGE = "/api/v1/wallet/recharge"
PROVIDER_ERROR_MESSAGE = "The payment provider is unavailable; try again later"


# --- Asaas's side: its JSON and its recorded bodies ---------------------------------------------


def asaas_json(body) -> str:
    """JSON as Asaas writes it: amounts are numbers. Decimals are written as bare numbers
    (never through float) by swapping in their text after encoding."""
    numbers = {}

    def walk(value):
        if isinstance(value, Decimal):
            mark = f"__number_{len(numbers)}__"
            numbers[mark] = str(value)
            return mark
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    text = json.dumps(walk(body))
    for mark, number in numbers.items():
        text = text.replace(f'"{mark}"', number)
    return text


def sent_json(call) -> dict:
    """The JSON body we sent, with numbers read exactly (Decimal)."""
    return json.loads(call.request.body, parse_float=Decimal, parse_int=Decimal)


def customer_body(team, customer_id: str = CUSTOMER_ID) -> dict:
    return {
        "object": "customer",
        "id": customer_id,
        "dateCreated": "2025-01-15",
        "name": team.name,
        "email": team.notification_email,
        "company": None,
        "phone": None,
        "mobilePhone": None,
        "address": None,
        "addressNumber": None,
        "complement": None,
        "province": None,
        "postalCode": None,
        "cpfCnpj": "11222333000181",
        "personType": "JURIDICA",
        "deleted": False,
        "additionalEmails": None,
        "externalReference": team.id,
        "notificationDisabled": True,
        "observations": None,
        "municipality": None,
        "state": None,
        "country": "Brasil",
        "city": None,
        "cityName": None,
        "foreignCustomer": False,
    }


def customer_list(*customers) -> dict:
    return {
        "object": "list",
        "hasMore": False,
        "totalCount": len(customers),
        "limit": 10,
        "offset": 0,
        "data": list(customers),
    }


def payment_body(
    *,
    payment_id: str,
    customer: str,
    value: Decimal,
    billing_type: str,
    due_date: str,
    external_reference: str,
    status: str = "PENDING",
) -> dict:
    """A payment object as Asaas returns it (POST /payments, GET /payments/{id}, webhooks)."""
    number = payment_id.removeprefix("pay_")
    paid = status in ("RECEIVED", "CONFIRMED")
    today = datetime.now(SAO_PAULO).date().isoformat()
    return {
        "object": "payment",
        "id": payment_id,
        "dateCreated": today,
        "customer": customer,
        "subscription": None,
        "installment": None,
        "paymentLink": None,
        "value": value,
        "netValue": value - Decimal("1.99"),
        "originalValue": None,
        "interestValue": None,
        "description": f"Wallet recharge {external_reference}",
        "billingType": billing_type,
        "pixTransaction": None,
        "status": status,
        "dueDate": due_date,
        "originalDueDate": due_date,
        "paymentDate": today if paid else None,
        "clientPaymentDate": today if paid else None,
        "confirmedDate": today if paid else None,
        "installmentNumber": None,
        "invoiceUrl": f"https://sandbox.asaas.com/i/{number}",
        "invoiceNumber": "07582947",
        "externalReference": external_reference,
        "deleted": False,
        "anticipated": False,
        "anticipable": False,
        "creditDate": None,
        "estimatedCreditDate": None,
        "transactionReceiptUrl": None,
        "nossoNumero": "1852716" if billing_type == "BOLETO" else None,
        "bankSlipUrl": (
            f"https://sandbox.asaas.com/b/pdf/{number}" if billing_type == "BOLETO" else None
        ),
        "lastInvoiceViewedDate": None,
        "lastBankSlipViewedDate": None,
        "discount": {
            "value": Decimal("0"),
            "limitDate": None,
            "dueDateLimitDays": 0,
            "type": "FIXED",
        },
        "fine": {"value": Decimal("0"), "type": "FIXED"},
        "interest": {"value": Decimal("0"), "type": "PERCENTAGE"},
        "postalService": False,
        "custody": None,
        "refunds": None,
    }


def pix_qr_body(payload: str = PIX_PAYLOAD) -> dict:
    return {
        "encodedImage": base64.b64encode(pix.qr_png(payload)).decode(),
        "payload": payload,
        "expirationDate": "2026-11-24 23:59:59",
    }


def identification_field_body(vector=BB_BOLETO) -> dict:
    return {
        "identificationField": vector["linha_digitavel"].replace(" ", "").replace(".", ""),
        "nossoNumero": "1852716",
        "barCode": vector["barcode"],
    }


def error_body(code: str, description: str) -> dict:
    return {"errors": [{"code": code, "description": description}]}


# --- Fixtures and registration helpers ---------------------------------------------------------


@pytest.fixture
def asaas(settings):
    """Live mode uses Asaas; every HTTP call goes to this mock (an unregistered one fails)."""
    settings.PAYMENT_PROVIDER = "asaas"
    settings.ASAAS_API_KEY = API_KEY
    settings.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN
    settings.ASAAS_BASE_URL = BASE_URL
    with responses.RequestsMock(assert_all_requests_are_fired=True) as rsps:
        yield rsps


def add_existing_customer(rsps, team):
    rsps.get(
        f"{BASE_URL}/customers",
        match=[matchers.query_param_matcher({"externalReference": team.id})],
        body=asaas_json(customer_list(customer_body(team))),
        content_type="application/json",
    )


def add_payment_created(rsps, payment_id: str = PAYMENT_ID):
    """POST /payments answers like Asaas: the payment, echoing what we sent."""

    def reply(request):
        sent = json.loads(request.body, parse_float=Decimal, parse_int=Decimal)
        body = payment_body(
            payment_id=payment_id,
            customer=sent["customer"],
            value=sent["value"],
            billing_type=sent["billingType"],
            due_date=sent["dueDate"],
            external_reference=sent["externalReference"],
        )
        return 200, {}, asaas_json(body)

    rsps.add_callback(
        responses.POST, f"{BASE_URL}/payments", callback=reply, content_type="application/json"
    )


def add_pix_qr(rsps, payment_id: str = PAYMENT_ID, payload: str = PIX_PAYLOAD):
    rsps.get(
        f"{BASE_URL}/payments/{payment_id}/pixQrCode",
        body=asaas_json(pix_qr_body(payload)),
        content_type="application/json",
    )


def add_pix_charge(rsps, team, payment_id: str = PAYMENT_ID):
    add_existing_customer(rsps, team)
    add_payment_created(rsps, payment_id)
    add_pix_qr(rsps, payment_id)


def calls_to(rsps, method: str, path: str) -> list:
    url = f"{BASE_URL}{path}"
    return [
        c for c in rsps.calls if c.request.method == method and c.request.url.split("?")[0] == url
    ]


def create_api(client, amount="250.00", method="pix"):
    return client.post(
        RECHARGE,
        {"amount": amount, "currency": "BRL", "payment_method": method},
        format="json",
    )


# --- PIX ----------------------------------------------------------------------------------------


def test_pix_charge_created_through_asaas(asaas, team):
    add_pix_charge(asaas, team.team)

    recharge = recharge_create(
        team=team.team, live_mode=True, amount=Decimal("250.00"), payment_method="pix"
    )

    recharge.refresh_from_db()
    assert recharge.provider == "asaas"
    assert recharge.status == Recharge.Status.PENDING
    assert recharge.provider_charge_id == PAYMENT_ID
    assert recharge.pix_copy_paste == PIX_PAYLOAD
    assert (recharge.boleto_barcode, recharge.boleto_linha_digitavel) == ("", "")

    # The customer was found, not created again.
    assert calls_to(asaas, "POST", "/customers") == []
    [payment_call] = calls_to(asaas, "POST", "/payments")
    sent = sent_json(payment_call)
    assert sent["customer"] == CUSTOMER_ID
    assert sent["billingType"] == "PIX"
    assert isinstance(sent["value"], Decimal)  # a JSON number, not a string
    assert sent["value"] == Decimal("250.00")
    assert sent["externalReference"] == recharge.id
    assert sent["dueDate"] == recharge.expires_at.astimezone(SAO_PAULO).date().isoformat()
    assert len(calls_to(asaas, "GET", f"/payments/{PAYMENT_ID}/pixQrCode")) == 1
    assert len(asaas.calls) == 3
    for call in asaas.calls:
        assert call.request.headers["access_token"] == API_KEY

    [pending] = Event.objects.filter(team=team.team, type="wallet.recharge.pending")
    assert pending.live_mode is True
    assert pending.data_object["id"] == recharge.id
    assert pending.data_object["payment"]["pix_copy_paste"] == PIX_PAYLOAD
    assert not Transaction.objects.filter(reference_id=recharge.id).exists()


def test_pix_api_answers_with_the_asaas_payload(asaas, team, live_client):
    add_pix_charge(asaas, team.team)

    response = create_api(live_client, "1234.56", "pix")

    assert response.status_code == 201
    data = response.json()["data"]
    assert data["status"] == "pending" and data["amount"] == "1234.56"
    assert data["payment"]["pix_copy_paste"] == PIX_PAYLOAD
    assert sent_json(calls_to(asaas, "POST", "/payments")[0])["value"] == Decimal("1234.56")
    assert Recharge.objects.get(pk=data["id"]).provider_charge_id == PAYMENT_ID


def test_pix_due_date_is_the_sao_paulo_day_late_in_the_evening(asaas, team):
    """21:30 in Sao Paulo is already tomorrow in UTC; Asaas reads dueDate as a Brazilian date."""
    add_pix_charge(asaas, team.team)

    with time_machine.travel(datetime(2026, 11, 24, 0, 30, tzinfo=UTC), tick=False):
        recharge = recharge_create(
            team=team.team, live_mode=True, amount=Decimal("300.00"), payment_method="pix"
        )

    assert recharge.expires_at == datetime(2026, 11, 24, 1, 0, tzinfo=UTC)  # 22:00 in SP
    assert sent_json(calls_to(asaas, "POST", "/payments")[0])["dueDate"] == "2026-11-23"


@pytest.mark.parametrize("known", ["none", "deleted"])
def test_customer_created_when_asaas_does_not_know_the_team(asaas, team, known):
    agency = team.team
    agency.tax_id = "11.222.333/0001-81"
    agency.save()
    found = [] if known == "none" else [customer_body(agency) | {"deleted": True}]
    asaas.get(
        f"{BASE_URL}/customers",
        match=[matchers.query_param_matcher({"externalReference": agency.id})],
        body=asaas_json(customer_list(*found)),
        content_type="application/json",
    )
    asaas.post(
        f"{BASE_URL}/customers",
        body=asaas_json(customer_body(agency, "cus_000005219614")),
        content_type="application/json",
    )
    add_payment_created(asaas)
    add_pix_qr(asaas)

    recharge = recharge_create(
        team=agency, live_mode=True, amount=Decimal("250.00"), payment_method="pix"
    )

    [customer_call] = calls_to(asaas, "POST", "/customers")
    assert sent_json(customer_call) == {
        "name": "Alpha Travel",
        "cpfCnpj": "11222333000181",
        "email": agency.notification_email,
        "externalReference": agency.id,
        "notificationDisabled": True,  # we send the payment instructions, not Asaas
    }
    assert customer_call.request.headers["access_token"] == API_KEY
    assert sent_json(calls_to(asaas, "POST", "/payments")[0])["customer"] == "cus_000005219614"
    assert recharge.provider_charge_id == PAYMENT_ID


# --- Boleto -------------------------------------------------------------------------------------


def test_boleto_charge_stores_barcode_and_linha(asaas, team):
    add_existing_customer(asaas, team.team)
    add_payment_created(asaas)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/identificationField",
        body=asaas_json(identification_field_body()),
        content_type="application/json",
    )

    recharge = recharge_create(
        team=team.team,
        live_mode=True,
        amount=Decimal(BB_BOLETO["amount"]),
        payment_method="boleto",
    )

    recharge.refresh_from_db()
    assert recharge.provider_charge_id == PAYMENT_ID
    assert recharge.boleto_barcode == BB_BOLETO["barcode"]
    assert recharge.boleto_linha_digitavel == BB_BOLETO["linha_digitavel"]
    assert boleto.barcode_from_linha(recharge.boleto_linha_digitavel) == recharge.boleto_barcode
    assert recharge.pix_copy_paste == ""
    sent = sent_json(calls_to(asaas, "POST", "/payments")[0])
    assert sent["billingType"] == "BOLETO"
    assert sent["value"] == Decimal("2952.95")
    assert sent["dueDate"] == recharge.boleto_due_date.isoformat()
    assert sent["externalReference"] == recharge.id
    assert calls_to(asaas, "GET", f"/payments/{PAYMENT_ID}/pixQrCode") == []


def test_boleto_barcode_derived_from_the_line_when_asaas_omits_it(asaas, team):
    add_existing_customer(asaas, team.team)
    add_payment_created(asaas)
    body = identification_field_body()
    body["barCode"] = None
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/identificationField",
        body=asaas_json(body),
        content_type="application/json",
    )

    recharge = recharge_create(
        team=team.team,
        live_mode=True,
        amount=Decimal(BB_BOLETO["amount"]),
        payment_method="boleto",
    )

    assert recharge.boleto_barcode == BB_BOLETO["barcode"]
    assert recharge.boleto_linha_digitavel == BB_BOLETO["linha_digitavel"]


@pytest.mark.parametrize(
    "corrupt",
    [
        pytest.param({"identificationField": WRONG_FIELD_DV_LINE}, id="line-check-digit"),
        pytest.param({"barCode": BOLETO_VECTORS[1]["barcode"]}, id="barcode-disagrees-with-line"),
    ],
)
def test_inconsistent_boleto_numbers_fail_the_recharge_and_withdraw_the_charge(
    asaas, team, live_client, corrupt
):
    """A line nobody can pay must not reach the agency; the charge is deleted at Asaas."""
    add_existing_customer(asaas, team.team)
    add_payment_created(asaas)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/identificationField",
        body=asaas_json(identification_field_body() | corrupt),
        content_type="application/json",
    )
    asaas.delete(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        json={"deleted": True, "id": PAYMENT_ID},
    )

    response = create_api(live_client, BB_BOLETO["amount"], "boleto")

    assert response.status_code == 502
    assert response.json()["error"]["code"] == "payment_provider_error"
    recharge = Recharge.objects.get(team=team.team)
    assert recharge.status == Recharge.Status.FAILED
    assert recharge.boleto_barcode == ""
    assert len(calls_to(asaas, "DELETE", f"/payments/{PAYMENT_ID}")) == 1


def test_boleto_for_another_amount_is_refused(asaas, team, live_client):
    """The barcode carries the amount: one for a different amount than ours is not ours."""
    add_existing_customer(asaas, team.team)
    add_payment_created(asaas)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/identificationField",
        body=asaas_json(identification_field_body()),  # R$ 2.952,95
        content_type="application/json",
    )
    asaas.delete(f"{BASE_URL}/payments/{PAYMENT_ID}", json={"deleted": True, "id": PAYMENT_ID})

    response = create_api(live_client, "500.00", "boleto")

    assert response.status_code == 502
    assert Recharge.objects.get(team=team.team).status == Recharge.Status.FAILED


# --- Provider errors ----------------------------------------------------------------------------


def _customers_unauthorized(rsps, team):
    rsps.get(
        f"{BASE_URL}/customers",
        status=401,
        body=asaas_json(
            error_body(
                "invalid_environment",
                "A chave de API informada não pertence a este ambiente",
            )
        ),
        content_type="application/json",
    )


def _customers_connection_error(rsps, team):
    rsps.get(
        f"{BASE_URL}/customers",
        body=requests.ConnectionError("Failed to establish a new connection: [Errno 111]"),
    )


def _payment_invalid(rsps, team):
    add_existing_customer(rsps, team)
    rsps.post(
        f"{BASE_URL}/payments",
        status=400,
        body=asaas_json(
            error_body(
                "invalid_dueDate",
                "Não é permitido data de vencimento inferior a hoje.",
            )
        ),
        content_type="application/json",
    )


def _payment_timeout(rsps, team):
    add_existing_customer(rsps, team)
    rsps.post(f"{BASE_URL}/payments", body=requests.ReadTimeout("Read timed out. (10)"))


def _payment_unauthorized_empty_body(rsps, team):
    add_existing_customer(rsps, team)
    rsps.post(f"{BASE_URL}/payments", status=401, body="")


def _payment_not_json(rsps, team):
    add_existing_customer(rsps, team)
    rsps.post(
        f"{BASE_URL}/payments",
        status=200,
        body="<html><body>502 Bad Gateway</body></html>",
        content_type="text/html",
    )


@pytest.mark.parametrize(
    ("register", "expected_details"),
    [
        pytest.param(
            _payment_invalid,
            {"status": 400, "errors": ["Não é permitido data de vencimento inferior a hoje."]},
            id="400-errors",
        ),
        pytest.param(
            _customers_unauthorized,
            {"status": 401, "errors": ["A chave de API informada não pertence a este ambiente"]},
            id="401",
        ),
        pytest.param(
            _payment_unauthorized_empty_body, {"status": 401, "errors": []}, id="401-empty"
        ),
        pytest.param(_customers_connection_error, {"reason": "ConnectionError"}, id="connection"),
        pytest.param(_payment_timeout, {"reason": "ReadTimeout"}, id="timeout"),
        pytest.param(_payment_not_json, None, id="200-not-json"),
    ],
)
def test_provider_error_answers_502_and_fails_the_recharge(
    asaas, team, live_client, register, expected_details
):
    register(asaas, team.team)

    response = create_api(live_client, "250.00", "pix")

    assert response.status_code == 502
    body = response.json()
    assert body["success"] is False
    assert set(body) == {"success", "error"}  # live key: no _meta
    assert body["error"]["code"] == "payment_provider_error"
    assert body["error"]["message"] == PROVIDER_ERROR_MESSAGE
    # The provider's details in the one shape: field path → messages.
    expected = error_details({"provider": "asaas", **(expected_details or {})})
    assert expected.items() <= body["error"]["details"].items()

    recharge = Recharge.objects.get(team=team.team)
    assert recharge.status == Recharge.Status.FAILED
    assert recharge.provider == "asaas"
    assert recharge.provider_charge_id == ""
    assert recharge.pix_copy_paste == ""
    assert not Transaction.objects.filter(team=team.team).exists()
    assert not Event.objects.filter(team=team.team, type="wallet.recharge.pending").exists()


def test_qr_code_failure_withdraws_the_created_payment(asaas, team, live_client):
    """The payment exists at Asaas once POST /payments answers: if we cannot read its QR code,
    it is deleted so that no charge we do not track stays payable."""
    add_existing_customer(asaas, team.team)
    add_payment_created(asaas)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/pixQrCode",
        body=requests.ReadTimeout("Read timed out. (10)"),
    )
    asaas.delete(f"{BASE_URL}/payments/{PAYMENT_ID}", json={"deleted": True, "id": PAYMENT_ID})

    response = create_api(live_client, "250.00", "pix")

    assert response.status_code == 502
    assert response.json()["error"]["code"] == "payment_provider_error"
    assert Recharge.objects.get(team=team.team).status == Recharge.Status.FAILED
    [delete] = calls_to(asaas, "DELETE", f"/payments/{PAYMENT_ID}")
    assert delete.request.headers["access_token"] == API_KEY
    assert not Event.objects.filter(team=team.team, type="wallet.recharge.pending").exists()


def test_invalid_pix_payload_from_asaas_is_refused(asaas, team, live_client):
    add_existing_customer(asaas, team.team)
    add_payment_created(asaas)
    add_pix_qr(asaas, payload=PIX_PAYLOAD[:-4] + "0000")  # wrong CRC
    asaas.delete(f"{BASE_URL}/payments/{PAYMENT_ID}", json={"deleted": True, "id": PAYMENT_ID})

    response = create_api(live_client, "250.00", "pix")

    assert response.status_code == 502
    assert Recharge.objects.get(team=team.team).status == Recharge.Status.FAILED


def test_unconfigured_asaas_answers_502_and_records_nothing(asaas, settings, team, live_client):
    settings.ASAAS_API_KEY = ""

    response = create_api(live_client, "250.00", "pix")

    assert response.status_code == 502
    assert response.json()["error"]["code"] == "payment_provider_error"
    assert not Recharge.objects.filter(team=team.team).exists()
    assert len(asaas.calls) == 0


# --- Cancel -------------------------------------------------------------------------------------


def _pending_pix(asaas, live_client) -> str:
    response = create_api(live_client, "250.00", "pix")
    assert response.status_code == 201
    return response.json()["data"]["id"]


def test_cancel_deletes_the_asaas_payment(asaas, team, live_client):
    add_pix_charge(asaas, team.team)
    recharge_id = _pending_pix(asaas, live_client)
    asaas.delete(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        json={"deleted": True, "id": PAYMENT_ID},
    )

    response = live_client.delete(f"{RECHARGE}/{recharge_id}")

    assert response.status_code == 200
    assert response.json()["data"]["status"] == "cancelled"
    [delete] = calls_to(asaas, "DELETE", f"/payments/{PAYMENT_ID}")
    assert delete.request.headers["access_token"] == API_KEY
    assert Recharge.objects.get(pk=recharge_id).status == Recharge.Status.CANCELLED


def test_cancel_refused_by_asaas_still_cancels_and_a_payment_is_still_credited(
    asaas, team, live_client
):
    """Asaas refuses to delete a payment already received: the recharge is cancelled on our
    side, and the payment notification that follows still credits the wallet."""
    add_pix_charge(asaas, team.team)
    recharge_id = _pending_pix(asaas, live_client)
    asaas.delete(
        f"{BASE_URL}/payments/{PAYMENT_ID}",
        status=400,
        body=asaas_json(
            error_body("invalid_action", "Não é possível remover uma cobrança já recebida.")
        ),
        content_type="application/json",
    )

    response = live_client.delete(f"{RECHARGE}/{recharge_id}")

    assert response.status_code == 200
    assert response.json()["data"]["status"] == "cancelled"
    recharge = Recharge.objects.get(pk=recharge_id)
    assert recharge.status == Recharge.Status.CANCELLED
    recharge_complete(recharge=recharge)  # the money arrives after all
    assert Recharge.objects.get(pk=recharge_id).status == Recharge.Status.COMPLETED


# --- Test mode ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["pix", "boleto"])
def test_test_keys_never_call_asaas(asaas, team, test_client, method):
    response = create_api(test_client, "250.00", method)

    assert response.status_code == 201
    assert len(asaas.calls) == 0
    recharge = Recharge.objects.get(pk=response.json()["data"]["id"])
    assert recharge.live_mode is False
    assert recharge.provider == "sandbox"
    assert recharge.provider_charge_id.startswith("sandbox_")

    cancel = test_client.delete(f"{RECHARGE}/{recharge.id}")
    assert cancel.status_code == 200
    assert len(asaas.calls) == 0


def test_test_mode_service_call_uses_the_sandbox(asaas, team):
    recharge = recharge_create(
        team=team.team, live_mode=False, amount=Decimal("250.00"), payment_method="pix"
    )

    assert recharge.provider == "sandbox"
    assert pix.crc_valid(recharge.pix_copy_paste)
    assert len(asaas.calls) == 0
