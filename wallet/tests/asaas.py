"""A fake Asaas for the wallet's tests (a plain module, not a test module): its recorded v3
bodies, written the way Asaas writes JSON, and the `responses` registrations that answer our
adapter's calls (https://docs.asaas.com/reference). The `asaas` fixture (wallet/tests/
conftest.py) is the `responses` mock they register on."""

import base64
import json
import re
import uuid
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import requests
import responses
from responses import matchers

from wallet import pix
from wallet.models import Recharge
from wallet.services import recharge_create

TESTDATA = Path(__file__).resolve().parent / "vectors"


BOLETO_VECTORS = json.loads((TESTDATA / "boleto_vectors.json").read_text())["vectors"]


PIX_VECTORS = json.loads((TESTDATA / "pix_brcode_vectors.json").read_text())["vectors"]


BB_BOLETO = BOLETO_VECTORS[0]


PIX_PAYLOAD = PIX_VECTORS[1]["payload"]


BASE_URL = "https://api-sandbox.asaas.com/v3"


API_KEY = "$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OjAwMDAwMDAwMDAwNTIxOTYxMw=="


WEBHOOK_TOKEN = "whk-asaas-3b8f0c1e9d2a47e6b5c4"


CUSTOMER_ID = "cus_000005219613"


PAYMENT_ID = "pay_080225913252"


SAO_PAULO = ZoneInfo("America/Sao_Paulo")


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


def error_body(code: str, description: str) -> dict:
    return {"errors": [{"code": code, "description": description}]}


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


# --- Asaas notifications (POST /api/v1/payments/asaas/notifications) ---


NOTIFICATIONS_URL = "/api/v1/payments/asaas/notifications"


EVENT_ID = "evt_05b708f961d739ea7eba7e4db318f621&368604920"


SUPPORT = "support@agency.example"


def pending_recharge(rsps, team, amount: str = "250.00", payment_id: str = PAYMENT_ID):
    """A live PIX recharge whose charge Asaas created (its HTTP API answered by `rsps`)."""
    add_pix_charge(rsps, team, payment_id)
    recharge = recharge_create(
        team=team, live_mode=True, amount=Decimal(amount), payment_method="pix"
    )
    assert recharge.status == Recharge.Status.PENDING
    assert recharge.provider_charge_id == payment_id
    return recharge


def asaas_payment(
    recharge,
    *,
    status: str = "RECEIVED",
    payment_id: str | None = None,
    value=None,
    external_reference: str | None = None,
    deleted: bool = False,
    pix_transaction: str | None = None,
) -> dict:
    """The payment object Asaas holds for `recharge` (by default: received, its amount; with
    `pix_transaction`, the id of the PIX that paid it)."""
    payment = payment_body(
        payment_id=payment_id or recharge.provider_charge_id,
        customer=CUSTOMER_ID,
        value=recharge.amount if value is None else value,
        billing_type="PIX",
        due_date=recharge.expires_at.astimezone(SAO_PAULO).date().isoformat(),
        external_reference=recharge.id if external_reference is None else external_reference,
        status=status,
    )
    payment["deleted"] = deleted
    payment["pixTransaction"] = pix_transaction
    return payment


def add_read_back(rsps, recharge, *, payment_id: str | None = None, **fields):
    """GET /payments/{id} answers with the payment as Asaas holds it."""
    payment_id = payment_id or recharge.provider_charge_id
    rsps.get(
        f"{BASE_URL}/payments/{payment_id}",
        body=asaas_json(asaas_payment(recharge, payment_id=payment_id, **fields)),
        content_type="application/json",
    )


PIX_TRANSACTION_ID = "35363f6e-93e2-11ec-b9d9-96f4053b1bd4"


END_TO_END_ID = "E18236120202611281512s0123456789"


def pix_transaction_body(
    *,
    payment_id: str,
    transaction_id: str = PIX_TRANSACTION_ID,
    value: Decimal,
    payer_name: str | None = "Maria Souza",
    payer_tax_id: str | None = "***.533.447-**",
    end_to_end: str | None = END_TO_END_ID,
) -> dict:
    """A PIX transaction object as Asaas returns it (GET /pix/transactions/{id}): the PIX that
    paid `payment_id`, with the paying account (`externalAccount`, its holder's document masked
    as Asaas shows it) and the Banco Central's end-to-end id."""
    return {
        "id": transaction_id,
        "transferId": None,
        "endToEndIdentifier": end_to_end,
        "finality": None,
        "value": value,
        "changeValue": None,
        "refundedValue": Decimal("0"),
        "dateCreated": "28/11/2026 15:12:40",
        "effectiveDate": "28/11/2026 15:12:41",
        "scheduledDate": None,
        "status": "DONE",
        "type": "CREDIT",
        "originType": "DYNAMIC_QRCODE",
        "conciliationIdentifier": payment_id.removeprefix("pay_").upper(),
        "description": None,
        "transactionReceiptUrl": "https://sandbox.asaas.com/comprovantes/h/UElYX1RSQU5TQUNUSU9O",
        "chargedFeeValue": Decimal("0"),
        "canBeRefunded": True,
        "refundDisabledReason": None,
        "refusalReason": None,
        "canBeCanceled": False,
        "originalTransaction": None,
        "externalAccount": {
            "ispb": 18236120,
            "ispbName": "NU PAGAMENTOS S.A. - INSTITUIÇÃO DE PAGAMENTO",
            "name": payer_name,
            "agency": "0001",
            "account": "1234567",
            "accountDigit": "8",
            "accountType": "CHECKING_ACCOUNT",
            "cpfCnpj": payer_tax_id,
            "addressKey": None,
            "addressKeyType": None,
        },
        "qrCode": {"payer": None, "conciliationIdentifier": None, "originalValue": None},
        "payment": payment_id,
        "addressKey": None,
        "addressKeyType": None,
        "externalReference": None,
    }


def add_pix_transaction(rsps, recharge, *, status: int = 200, **fields):
    """GET /pix/transactions/{id} answers with the PIX that paid `recharge` (or `status`)."""
    body = pix_transaction_body(
        payment_id=recharge.provider_charge_id, value=recharge.amount, **fields
    )
    rsps.get(
        f"{BASE_URL}/pix/transactions/{body['id']}",
        status=status,
        body=asaas_json(body if status == 200 else error_body("unavailable", "Indisponível")),
        content_type="application/json",
    )


def event_body(
    recharge,
    *,
    event: str = "PAYMENT_RECEIVED",
    event_id: str = EVENT_ID,
    status: str = "RECEIVED",
    payment_id: str | None = None,
    value=None,
) -> str:
    payment = payment_body(
        payment_id=payment_id or recharge.provider_charge_id,
        customer=CUSTOMER_ID,
        value=recharge.amount if value is None else value,
        billing_type="PIX",
        due_date=recharge.expires_at.astimezone(SAO_PAULO).date().isoformat(),
        external_reference=recharge.id,
        status=status,
    )
    return asaas_json(
        {"id": event_id, "event": event, "dateCreated": "2026-11-23 15:12:44", "payment": payment}
    )


def notify(client, body, *, token: str | None = WEBHOOK_TOKEN):
    headers = {} if token is None else {"asaas-access-token": token}
    return client.post(
        NOTIFICATIONS_URL, data=body, content_type="application/json", headers=headers
    )


# --- Transfers (withdrawals): a stateful fake of Asaas's transfer API ---
#
# https://docs.asaas.com/reference/transfer-to-another-institution-account-or-pix-key and the
# transfer events (https://docs.asaas.com/docs/transfer-events): the transfer object with its
# `bankAccount` (the key's holder, `ownerName` and `cpfCnpj`), statuses PENDING,
# BANK_PROCESSING, DONE, FAILED, CANCELLED, and events TRANSFER_CREATED … TRANSFER_CANCELLED.

TEAM_CNPJ = "11.222.333/0001-81"  # the team's own document in these tests (a valid CNPJ)
OTHER_CNPJ = "45.997.418/0001-53"  # someone else's (a valid CNPJ too)


def transfer_body(
    *,
    transfer_id: str,
    value: Decimal,
    status: str,
    pix_key: str,
    external_reference: str,
    holder_name: str | None,
    holder_tax_id: str | None,
    fail_reason: str | None = None,
) -> dict:
    """A transfer object as Asaas returns it (POST /transfers, GET /transfers/{id}, events)."""
    today = datetime.now(SAO_PAULO).date().isoformat()
    done = status == "DONE"
    resolved = holder_tax_id is not None
    return {
        "object": "transfer",
        "id": transfer_id,
        "dateCreated": today,
        "status": status,
        "effectiveDate": today if done else None,
        "endToEndIdentifier": f"E1954055020261128{transfer_id[-8:]}" if done else None,
        "type": "PIX",
        "value": value,
        "netValue": value,
        "transferFee": Decimal("0"),
        "scheduleDate": today,
        "authorized": True,
        "failReason": fail_reason,
        "transactionReceiptUrl": (
            f"https://sandbox.asaas.com/comprovantes/{transfer_id}" if done else None
        ),
        "bankAccount": (
            {
                "bank": {"ispb": "60701190", "code": "341", "name": "Itaú Unibanco S.A."},
                "accountName": None,
                "ownerName": holder_name,
                "cpfCnpj": holder_tax_id,
                "agency": "0001",
                "agencyDigit": None,
                "account": "123456",
                "accountDigit": "7",
                "pixAddressKey": pix_key,
            }
            if resolved
            else None
        ),
        "operationType": "PIX",
        "description": f"Withdrawal {external_reference}",
        "externalReference": external_reference,
        "recurring": None,
    }


class FakeAsaasTransfers:
    """Asaas's transfers, kept as Asaas keeps them, answering the adapter's calls on a
    `responses` mock: POST /transfers (a transfer PENDING, to the holder registered for the key),
    GET /transfers/{id}, GET /transfers?externalReference=…, DELETE /transfers/{id}/cancel.

    Failure modes, queued per call: `fail_next_post(mode)` with "timeout_after_create" (the
    transfer is created, the answer never comes back), "timeout" (nothing created), "5xx",
    "5xx_after_create", "unreadable_after_create" (an HTML page), "refuse" (a 400);
    `fail_next_get(mode)` with "timeout", "5xx", "unreadable"."""

    def __init__(self, rsps):
        self.transfers: dict[str, dict] = {}
        self.holders: dict[str, tuple[str, str | None]] = {}
        self.post_failures: list[str] = []
        self.get_failures: list[str] = []
        self.posts = 0
        self.cancels = 0
        self._count = 0
        transfer_url = re.compile(rf"{re.escape(BASE_URL)}/transfers/([^/?]+)$")
        cancel_url = re.compile(rf"{re.escape(BASE_URL)}/transfers/([^/?]+)/cancel$")
        rsps.add_callback(responses.POST, f"{BASE_URL}/transfers", callback=self._create)
        rsps.add_callback(responses.GET, transfer_url, callback=self._get)
        rsps.add_callback(
            responses.GET, re.compile(rf"{re.escape(BASE_URL)}/transfers(\?.*)?$"), self._list
        )
        rsps.add_callback(responses.DELETE, cancel_url, callback=self._cancel)

    # --- What the test sets up and does ---------------------------------------------------

    def key_held_by(self, pix_key: str, name: str, tax_id: str | None) -> None:
        """Who Asaas will say holds this key (None: not yet resolved)."""
        self.holders[pix_key] = (name, tax_id)

    def fail_next_post(self, mode: str) -> None:
        self.post_failures.append(mode)

    def fail_next_get(self, mode: str) -> None:
        self.get_failures.append(mode)

    def settle(self, transfer_id: str, status: str, fail_reason: str | None = None) -> dict:
        """The bank's part: the transfer moves on (BANK_PROCESSING, DONE, FAILED...)."""
        transfer = self.transfers[transfer_id]
        transfer["status"] = status
        transfer["failReason"] = fail_reason
        if status == "DONE":
            transfer["effectiveDate"] = transfer["dateCreated"]
        return transfer

    def only(self) -> dict:
        [transfer] = self.transfers.values()
        return transfer

    def event(self, transfer_id: str, event: str, *, event_id: str | None = None) -> str:
        """A transfer event's body as Asaas POSTs it to our notification endpoint."""
        self._count += 1
        return asaas_json(
            {
                "id": event_id or f"evt_transfer_{self._count:04d}&{transfer_id[-6:]}",
                "event": event,
                "dateCreated": "2026-11-28 15:12:44",
                "account": {"id": "47ed0d25-f9fb-4b35-b23a-d8895caf92b7", "ownerId": None},
                "transfer": self.transfers[transfer_id],
            }
        )

    # --- Asaas's side -----------------------------------------------------------------------

    def _create(self, request):
        self.posts += 1
        mode = self.post_failures.pop(0) if self.post_failures else None
        if mode == "timeout":
            raise requests.exceptions.ConnectTimeout("connect timed out")
        if mode == "5xx":
            return 503, {}, "<html><body>Service Unavailable</body></html>"
        sent = json.loads(request.body, parse_float=Decimal, parse_int=Decimal)
        assert sent["operationType"] == "PIX" and sent["pixAddressKeyType"] in {
            "CPF",
            "CNPJ",
            "EMAIL",
            "PHONE",
            "EVP",
        }
        if mode == "refuse":
            return 400, {}, json.dumps(error_body("invalid_action", "Saldo insuficiente."))
        transfer_id = str(uuid.uuid4())
        name, tax_id = self.holders.get(sent["pixAddressKey"], ("Alpha Travel Ltda", TEAM_CNPJ))
        self.transfers[transfer_id] = transfer_body(
            transfer_id=transfer_id,
            value=sent["value"],
            status="PENDING",
            pix_key=sent["pixAddressKey"],
            external_reference=sent.get("externalReference"),
            holder_name=name,
            holder_tax_id=tax_id,
        )
        if mode == "timeout_after_create":
            raise requests.exceptions.ReadTimeout("read timed out")
        if mode == "5xx_after_create":
            return 502, {}, "<html><body>Bad Gateway</body></html>"
        if mode == "unreadable_after_create":
            return 200, {}, "<html><body>OK</body></html>"
        return 200, {}, asaas_json(self.transfers[transfer_id])

    def _get_failure(self):
        mode = self.get_failures.pop(0) if self.get_failures else None
        if mode == "timeout":
            raise requests.exceptions.ReadTimeout("read timed out")
        if mode == "5xx":
            return 500, {}, json.dumps(error_body("internal", "Erro interno"))
        if mode == "unreadable":
            return 200, {}, '{"object": "transfer", "id": '
        return None

    def _get(self, request):
        failure = self._get_failure()
        if failure:
            return failure
        transfer_id = request.url.rsplit("/", 1)[1]
        if transfer_id not in self.transfers:
            return 404, {}, json.dumps(error_body("not_found", "Transferência não encontrada."))
        return 200, {}, asaas_json(self.transfers[transfer_id])

    def _list(self, request):
        failure = self._get_failure()
        if failure:
            return failure
        query = parse_qs(urlsplit(request.url).query)
        wanted = query.get("externalReference", [None])[0]
        found = [t for t in self.transfers.values() if wanted in (None, t["externalReference"])]
        body = {
            "object": "list",
            "hasMore": False,
            "totalCount": len(found),
            "limit": 100,
            "offset": 0,
            "data": found,
        }
        return 200, {}, asaas_json(body)

    def _cancel(self, request):
        self.cancels += 1
        transfer_id = request.url.rsplit("/", 2)[1]
        transfer = self.transfers.get(transfer_id)
        if transfer is None:
            return 404, {}, json.dumps(error_body("not_found", "Transferência não encontrada."))
        if transfer["status"] not in ("PENDING", "BANK_PROCESSING"):
            return 400, {}, json.dumps(error_body("invalid_action", "Não pode ser cancelada."))
        transfer["status"] = "CANCELLED"
        return 200, {}, asaas_json(transfer)
