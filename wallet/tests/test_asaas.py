"""The Asaas adapter (wallet.providers.asaas) against recorded Asaas v3 responses.

Only Asaas's HTTP API is faked (`responses`); everything of ours runs for real: the recharge
services, the API views, the ledger and the outbox. Bodies follow Asaas's documented shapes:
https://docs.asaas.com/reference (customers, payments, pixQrCode, identificationField)."""

import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
import requests
import time_machine
from responses import matchers

from api.exceptions import error_details
from wallet import boleto, pix
from wallet.models import Recharge, Transaction
from wallet.services import recharge_complete, recharge_create
from wallet.tests.asaas import (
    API_KEY,
    BASE_URL,
    BB_BOLETO,
    BOLETO_VECTORS,
    CUSTOMER_ID,
    PAYMENT_ID,
    PIX_PAYLOAD,
    SAO_PAULO,
    add_existing_customer,
    add_payment_created,
    add_pix_charge,
    add_pix_qr,
    asaas_json,
    calls_to,
    customer_body,
    customer_list,
    error_body,
)
from webhooks.models import Event

pytestmark = pytest.mark.django_db

# Known-good vectors, copied from the project's shared testdata so a clone stands alone.

# Banco do Brasil (Asaas issues its boletos through a partner bank): R$ 2.952,95.
# A dynamic BR Code (field 26/25 = location URL, single use), the kind Asaas returns.
_BB_LINE = BB_BOLETO["linha_digitavel"].replace(" ", "").replace(".", "")
# The same line with field 1's mod-10 check digit (its 10th digit) off by one.
WRONG_FIELD_DV_LINE = _BB_LINE[:9] + str((int(_BB_LINE[9]) + 1) % 10) + _BB_LINE[10:]

RECHARGE = "/api/v1/wallet/recharge"
PROVIDER_ERROR_MESSAGE = "The payment provider is unavailable; try again later"


# --- Asaas's side: its JSON and its recorded bodies ---------------------------------------------


def sent_json(call) -> dict:
    """The JSON body we sent, with numbers read exactly (Decimal)."""
    return json.loads(call.request.body, parse_float=Decimal, parse_int=Decimal)


def identification_field_body(vector=BB_BOLETO) -> dict:
    return {
        "identificationField": vector["linha_digitavel"].replace(" ", "").replace(".", ""),
        "nossoNumero": "1852716",
        "barCode": vector["barcode"],
    }


# --- Fixtures and registration helpers ---------------------------------------------------------


def create_api(client, amount="250.00", method="pix"):
    return client.post(
        RECHARGE,
        {"amount": amount, "currency": "BRL", "payment_method": method},
        format="json",
    )


# --- PIX ----------------------------------------------------------------------------------------


def test_pix_charge_created_through_asaas(asaas, team):
    add_pix_charge(asaas, team)

    recharge = recharge_create(
        team=team, live_mode=True, amount=Decimal("250.00"), payment_method="pix"
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

    [pending] = Event.objects.filter(team=team, type="wallet.recharge.pending")
    assert pending.live_mode is True
    assert pending.data_object["id"] == recharge.id
    assert pending.data_object["payment"]["pix_copy_paste"] == PIX_PAYLOAD
    assert not Transaction.objects.filter(reference_id=recharge.id).exists()


def test_pix_api_answers_with_the_asaas_payload(asaas, team, live_client):
    add_pix_charge(asaas, team)

    response = create_api(live_client, "1234.56", "pix")

    assert response.status_code == 201
    data = response.json()["data"]
    assert data["status"] == "pending" and data["amount"] == "1234.56"
    assert data["payment"]["pix_copy_paste"] == PIX_PAYLOAD
    assert sent_json(calls_to(asaas, "POST", "/payments")[0])["value"] == Decimal("1234.56")
    assert Recharge.objects.get(pk=data["id"]).provider_charge_id == PAYMENT_ID


def test_pix_due_date_is_the_sao_paulo_day_late_in_the_evening(asaas, team):
    """21:30 in Sao Paulo is already tomorrow in UTC; Asaas reads dueDate as a Brazilian date."""
    add_pix_charge(asaas, team)

    with time_machine.travel(datetime(2026, 11, 24, 0, 30, tzinfo=UTC), tick=False):
        recharge = recharge_create(
            team=team, live_mode=True, amount=Decimal("300.00"), payment_method="pix"
        )

    assert recharge.expires_at == datetime(2026, 11, 24, 1, 0, tzinfo=UTC)  # 22:00 in SP
    assert sent_json(calls_to(asaas, "POST", "/payments")[0])["dueDate"] == "2026-11-23"


@pytest.mark.parametrize("known", ["none", "deleted"])
def test_customer_created_when_asaas_does_not_know_the_team(asaas, team, known):
    agency = team
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
    add_existing_customer(asaas, team)
    add_payment_created(asaas)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/identificationField",
        body=asaas_json(identification_field_body()),
        content_type="application/json",
    )

    recharge = recharge_create(
        team=team,
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
    add_existing_customer(asaas, team)
    add_payment_created(asaas)
    body = identification_field_body()
    body["barCode"] = None
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/identificationField",
        body=asaas_json(body),
        content_type="application/json",
    )

    recharge = recharge_create(
        team=team,
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
    add_existing_customer(asaas, team)
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
    recharge = Recharge.objects.get(team=team)
    assert recharge.status == Recharge.Status.FAILED
    assert recharge.boleto_barcode == ""
    assert len(calls_to(asaas, "DELETE", f"/payments/{PAYMENT_ID}")) == 1


def test_boleto_for_another_amount_is_refused(asaas, team, live_client):
    """The barcode carries the amount: one for a different amount than ours is not ours."""
    add_existing_customer(asaas, team)
    add_payment_created(asaas)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/identificationField",
        body=asaas_json(identification_field_body()),  # R$ 2.952,95
        content_type="application/json",
    )
    asaas.delete(f"{BASE_URL}/payments/{PAYMENT_ID}", json={"deleted": True, "id": PAYMENT_ID})

    response = create_api(live_client, "500.00", "boleto")

    assert response.status_code == 502
    assert Recharge.objects.get(team=team).status == Recharge.Status.FAILED


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
    register(asaas, team)

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

    recharge = Recharge.objects.get(team=team)
    assert recharge.status == Recharge.Status.FAILED
    assert recharge.provider == "asaas"
    assert recharge.provider_charge_id == ""
    assert recharge.pix_copy_paste == ""
    assert not Transaction.objects.filter(team=team).exists()
    assert not Event.objects.filter(team=team, type="wallet.recharge.pending").exists()


def test_qr_code_failure_withdraws_the_created_payment(asaas, team, live_client):
    """The payment exists at Asaas once POST /payments answers: if we cannot read its QR code,
    it is deleted so that no charge we do not track stays payable."""
    add_existing_customer(asaas, team)
    add_payment_created(asaas)
    asaas.get(
        f"{BASE_URL}/payments/{PAYMENT_ID}/pixQrCode",
        body=requests.ReadTimeout("Read timed out. (10)"),
    )
    asaas.delete(f"{BASE_URL}/payments/{PAYMENT_ID}", json={"deleted": True, "id": PAYMENT_ID})

    response = create_api(live_client, "250.00", "pix")

    assert response.status_code == 502
    assert response.json()["error"]["code"] == "payment_provider_error"
    assert Recharge.objects.get(team=team).status == Recharge.Status.FAILED
    [delete] = calls_to(asaas, "DELETE", f"/payments/{PAYMENT_ID}")
    assert delete.request.headers["access_token"] == API_KEY
    assert not Event.objects.filter(team=team, type="wallet.recharge.pending").exists()


def test_invalid_pix_payload_from_asaas_is_refused(asaas, team, live_client):
    add_existing_customer(asaas, team)
    add_payment_created(asaas)
    add_pix_qr(asaas, payload=PIX_PAYLOAD[:-4] + "0000")  # wrong CRC
    asaas.delete(f"{BASE_URL}/payments/{PAYMENT_ID}", json={"deleted": True, "id": PAYMENT_ID})

    response = create_api(live_client, "250.00", "pix")

    assert response.status_code == 502
    assert Recharge.objects.get(team=team).status == Recharge.Status.FAILED


def test_unconfigured_asaas_answers_502_and_records_nothing(asaas, settings, team, live_client):
    settings.ASAAS_API_KEY = ""

    response = create_api(live_client, "250.00", "pix")

    assert response.status_code == 502
    assert response.json()["error"]["code"] == "payment_provider_error"
    assert not Recharge.objects.filter(team=team).exists()
    assert len(asaas.calls) == 0


# --- Cancel -------------------------------------------------------------------------------------


def _pending_pix(asaas, live_client) -> str:
    response = create_api(live_client, "250.00", "pix")
    assert response.status_code == 201
    return response.json()["data"]["id"]


def test_cancel_deletes_the_asaas_payment(asaas, team, live_client):
    add_pix_charge(asaas, team)
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
    add_pix_charge(asaas, team)
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
        team=team, live_mode=False, amount=Decimal("250.00"), payment_method="pix"
    )

    assert recharge.provider == "sandbox"
    assert pix.crc_valid(recharge.pix_copy_paste)
    assert len(asaas.calls) == 0
