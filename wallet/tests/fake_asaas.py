"""A local, stateful stand-in for Asaas's v3 API (payments), for end-to-end runs without Asaas.

It implements, in Asaas's documented shapes (https://docs.asaas.com/reference: customers,
payments, pixQrCode, identificationField, refunds; https://docs.asaas.com/docs/payment-events
and /docs/refunds), the endpoints our adapter (wallet/providers/asaas.py) uses and the one an
operator uses to refund:

- `GET /v3/customers?externalReference=` (a list object) and `POST /v3/customers` (`name` and
  `cpfCnpj` required);
- `POST /v3/payments` (`customer` known, `billingType` PIX or BOLETO, `value` a positive number,
  `dueDate`): a payment `PENDING`; `GET /v3/payments/{id}` (the payment as it is now, with its
  `refunds` and `chargeback`), `DELETE /v3/payments/{id}` (a payment not yet paid only: `deleted`
  true from then on);
- `GET /v3/payments/{id}/pixQrCode` (a real BR Code and its PNG) and
  `GET /v3/payments/{id}/identificationField` (a real boleto line and barcode, for the value);
- `GET /v3/pix/transactions/{id}`: the PIX that paid a PIX payment (its `pixTransaction`), with
  its `endToEndIdentifier` and the paying account (`externalAccount`: `name`, `cpfCnpj`);
- `POST /v3/payments/{id}/refund` (`value` optional: the whole rest by default; a PIX payment
  may be refunded in several parts, never beyond its value; only a RECEIVED or CONFIRMED
  payment): each refund is an entry of the payment's `refunds` (`dateCreated`, `status` DONE,
  `value`, `description`, `endToEndIdentifier`, `transactionReceiptUrl`); refunded whole, the
  payment is `REFUNDED`.

What a payer, a bank or an acquirer does is the fake's own, as methods of `state` (and, for a
running program, `POST /_fake/payments/{id}/<action>`): `pay` (RECEIVED), `refund` (as the API
above; `status="PENDING"` leaves it pending until `finish_refund`), `med_return` (a PIX returned
through the Banco Central's MED: a refund done, described as such), `chargeback` (status
CHARGEBACK_REQUESTED, `chargeback` {status REQUESTED, reason}), `chargeback_dispute`
(CHARGEBACK_DISPUTE, IN_DISPUTE), `chargeback_won` (AWAITING_CHARGEBACK_REVERSAL: won, not yet
paid back) and `chargeback_paid_back` (RECEIVED again, chargeback REVERSED; Asaas does not
document which event says so: the fake sends PAYMENT_RECEIVED).

Every change sends its webhook event as Asaas does (`{id, event, dateCreated, payment}`, header
`asaas-access-token`): appended to `state.events`, and POSTed to `webhook_url` when one is
given. A test delivers `state.events` itself (`undelivered()`), through its test client.

Every request needs the header `access_token` (the one given); errors are Asaas's
`{"errors": [{code, description}]}`. A path listed in `state.unavailable` answers 503.

In a test: `with FakeAsaas(api_key=…, webhook_token=…) as asaas: ... asaas.base_url`. As a
program: `python -m wallet.tests.fake_asaas --port 8766 --api-key K --webhook-token T
[--webhook-url http://localhost:8000/api/v1/payments/asaas/notifications]`.
"""

import argparse
import base64
import contextlib
import json
import secrets
import threading
import uuid
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import requests

from wallet import boleto, pix

SAO_PAULO = ZoneInfo("America/Sao_Paulo")
CENTS = Decimal("0.01")
FEE = Decimal("1.99")  # Asaas's fee per payment received, in `netValue`
BANK_CODE = "461"  # Asaas's own bank (Asaas IP S.A.)


def now_text() -> str:
    return datetime.now(SAO_PAULO).strftime("%Y-%m-%d %H:%M:%S")


def today() -> str:
    return datetime.now(SAO_PAULO).date().isoformat()


class AsaasError(Exception):
    def __init__(self, status: int, code: str, description: str):
        super().__init__(description)
        self.status, self.code, self.description = status, code, description

    def body(self) -> dict:
        return {"errors": [{"code": self.code, "description": self.description}]}


def not_found() -> AsaasError:
    return AsaasError(404, "not_found", "O recurso solicitado não foi encontrado.")


def invalid(description: str) -> AsaasError:
    return AsaasError(400, "invalid_action", description)


class AsaasState:
    """Customers, payments and the events they sent, shared by the server's threads."""

    def __init__(self, *, webhook_token: str = "", webhook_url: str = ""):
        self.lock = threading.RLock()
        self.customers: dict[str, dict] = {}
        self.payments: dict[str, dict] = {}
        self.pix_transactions: dict[str, dict] = {}
        self.events: list[dict] = []
        self.delivered = 0  # how many of `events` a test has delivered (`undelivered`)
        self.requests: list[tuple[str, str]] = []
        self.unavailable: set[str] = set()
        self.webhook_token, self.webhook_url = webhook_token, webhook_url
        self._numbers = iter(range(368604920, 10**12))

    # --- Asaas's API ---------------------------------------------------------------------------

    def find_customers(self, external_reference: str | None) -> dict:
        with self.lock:
            found = [
                c
                for c in self.customers.values()
                if external_reference is None or c["externalReference"] == external_reference
            ]
        return {
            "object": "list",
            "hasMore": False,
            "totalCount": len(found),
            "limit": 10,
            "offset": 0,
            "data": found,
        }

    def create_customer(self, body: dict) -> dict:
        if not body.get("name"):
            raise invalid("O nome do cliente deve ser informado.")
        if not body.get("cpfCnpj"):
            raise invalid("O CPF/CNPJ do cliente deve ser informado.")
        customer = {
            "object": "customer",
            "id": f"cus_{secrets.randbelow(10**12):012d}",
            "dateCreated": today(),
            "name": body["name"],
            "email": body.get("email"),
            "cpfCnpj": body["cpfCnpj"],
            "personType": "JURIDICA" if len(body["cpfCnpj"]) == 14 else "FISICA",
            "deleted": False,
            "externalReference": body.get("externalReference"),
            "notificationDisabled": bool(body.get("notificationDisabled")),
        }
        with self.lock:
            self.customers[customer["id"]] = customer
        return customer

    def create_payment(self, body: dict) -> dict:
        with self.lock:
            if body.get("customer") not in self.customers:
                raise invalid("Cliente inválido ou não informado.")
        if body.get("billingType") not in ("PIX", "BOLETO"):
            raise invalid("Forma de pagamento inválida.")
        value = body.get("value")
        if not isinstance(value, Decimal) or value <= 0:
            raise invalid("O valor da cobrança deve ser informado.")
        try:
            due = date.fromisoformat(body.get("dueDate") or "")
        except ValueError:
            raise invalid("Data de vencimento inválida.") from None
        number = f"{secrets.randbelow(10**12):012d}"
        payment = {
            "object": "payment",
            "id": f"pay_{number}",
            "dateCreated": today(),
            "customer": body["customer"],
            "value": value,
            "netValue": value - FEE,
            "originalValue": None,
            "description": body.get("description"),
            "billingType": body["billingType"],
            "pixTransaction": None,
            "status": "PENDING",
            "dueDate": due.isoformat(),
            "originalDueDate": due.isoformat(),
            "paymentDate": None,
            "clientPaymentDate": None,
            "confirmedDate": None,
            "invoiceUrl": f"https://sandbox.asaas.com/i/{number}",
            "bankSlipUrl": (
                f"https://sandbox.asaas.com/b/pdf/{number}"
                if body["billingType"] == "BOLETO"
                else None
            ),
            "externalReference": body.get("externalReference"),
            "deleted": False,
            "anticipated": False,
            "anticipable": False,
            "transactionReceiptUrl": None,
            "chargeback": None,
            "refunds": None,
        }
        with self.lock:
            self.payments[payment["id"]] = payment
            self._event("PAYMENT_CREATED", payment)
        return payment

    def payment(self, payment_id: str) -> dict:
        with self.lock:
            found = self.payments.get(payment_id)
            if found is None:
                raise not_found()
            return json.loads(dumps(found), parse_float=Decimal, parse_int=Decimal)

    def delete_payment(self, payment_id: str) -> dict:
        with self.lock:
            payment = self._payment(payment_id)
            if payment["status"] not in ("PENDING", "OVERDUE"):
                raise invalid("Somente cobranças aguardando pagamento podem ser removidas.")
            payment["deleted"] = True
            self._event("PAYMENT_DELETED", payment)
        return {"deleted": True, "id": payment_id}

    def pix_qr_code(self, payment_id: str) -> dict:
        with self.lock:
            payment = self._payment(payment_id)
        payload = pix.brcode_payload(
            location_url=f"pix.asaas.com/qr/cobv/{payment_id.removeprefix('pay_')}",
            amount=payment["value"],
            merchant_name="ASAAS GESTAO FINANCEIRA",
            merchant_city="JOINVILLE",
            txid=payment_id.removeprefix("pay_").upper()[:25],
        )
        return {
            "encodedImage": base64.b64encode(pix.qr_png(payload, box_size=2)).decode(),
            "payload": payload,
            "expirationDate": f"{payment['dueDate']} 23:59:59",
        }

    def identification_field(self, payment_id: str) -> dict:
        with self.lock:
            payment = self._payment(payment_id)
        if payment["billingType"] != "BOLETO":
            raise invalid("Esta cobrança não é um boleto.")
        number = payment_id.removeprefix("pay_")
        code = boleto.barcode(
            bank_code=BANK_CODE,
            amount=payment["value"],
            due=date.fromisoformat(payment["dueDate"]),
            free_field=number.zfill(25)[-25:],
        )
        return {
            "identificationField": boleto.linha_digitavel(code).replace(".", "").replace(" ", ""),
            "nossoNumero": number[-8:],
            "barCode": code,
        }

    def refund(
        self,
        payment_id: str,
        value: Decimal | None = None,
        *,
        description: str = "",
        status: str = "DONE",
        end_to_end: str | None = None,
    ) -> dict:
        """POST /payments/{id}/refund, and a refund made any other way (MED)."""
        with self.lock:
            payment = self._payment(payment_id)
            if payment["status"] not in ("RECEIVED", "CONFIRMED"):
                raise invalid("Somente cobranças recebidas ou confirmadas podem ser estornadas.")
            refunds = payment["refunds"] or []
            left = payment["value"] - sum(
                (r["value"] for r in refunds if r["status"] != "CANCELLED"), Decimal("0")
            )
            value = left if value is None else value
            if value <= 0 or value > left:
                raise invalid(f"O valor do estorno não pode ultrapassar {left}.")
            if payment["billingType"] != "PIX" and value != payment["value"]:
                raise invalid("Somente cobranças Pix permitem estornos parciais.")
            refunds.append(
                {
                    "dateCreated": now_text(),
                    "status": status,
                    "value": value,
                    "endToEndIdentifier": end_to_end or "D" + secrets.token_hex(16).upper()[:31],
                    "description": description or None,
                    "effectiveDate": now_text() if status == "DONE" else None,
                    "transactionReceiptUrl": (
                        f"https://sandbox.asaas.com/comprovantes/{secrets.randbelow(10**16)}"
                    ),
                    "refundedSplits": None,
                }
            )
            payment["refunds"] = refunds
            if status == "DONE":
                self._refund_done(payment)
            return self.payment(payment_id)

    # --- What payers, banks and acquirers do ---------------------------------------------------

    def pay(
        self,
        payment_id: str,
        *,
        payer_name: str = "Maria Souza",
        payer_tax_id: str = "***.533.447-**",
    ) -> dict:
        """The payer pays; a PIX is a PIX transaction (`pixTransaction`) from the payer's
        account (its holder's CPF masked, as Asaas shows it)."""
        with self.lock:
            payment = self._payment(payment_id)
            if payment["deleted"] or payment["status"] not in ("PENDING", "OVERDUE"):
                raise invalid("Esta cobrança não pode ser paga.")
            if payment["billingType"] == "PIX":
                payment["pixTransaction"] = self._pix_transaction(
                    payment, payer_name=payer_name, payer_tax_id=payer_tax_id
                )
            payment.update(
                status="RECEIVED",
                paymentDate=today(),
                clientPaymentDate=today(),
                confirmedDate=today(),
                creditDate=today(),
                transactionReceiptUrl=(
                    f"https://sandbox.asaas.com/comprovantes/{secrets.randbelow(10**16)}"
                ),
            )
            self._event("PAYMENT_RECEIVED", payment)
            return self.payment(payment_id)

    def finish_refund(self, payment_id: str, index: int = -1) -> dict:
        with self.lock:
            payment = self._payment(payment_id)
            refund = payment["refunds"][index]
            refund.update(status="DONE", effectiveDate=now_text())
            self._refund_done(payment)
            return self.payment(payment_id)

    def med_return(self, payment_id: str, value: Decimal | None = None) -> dict:
        """The payer's bank asked the PIX back through MED (fraud): the amount is returned."""
        return self.refund(
            payment_id, value, description="Devolução MED (Mecanismo Especial de Devolução)"
        )

    def chargeback(self, payment_id: str, reason: str = "PROCESS_ERROR") -> dict:
        return self._chargeback(
            payment_id, "CHARGEBACK_REQUESTED", "REQUESTED", "PAYMENT_CHARGEBACK_REQUESTED", reason
        )

    def chargeback_dispute(self, payment_id: str) -> dict:
        return self._chargeback(
            payment_id, "CHARGEBACK_DISPUTE", "IN_DISPUTE", "PAYMENT_CHARGEBACK_DISPUTE"
        )

    def chargeback_won(self, payment_id: str) -> dict:
        return self._chargeback(
            payment_id,
            "AWAITING_CHARGEBACK_REVERSAL",
            "IN_DISPUTE",
            "PAYMENT_AWAITING_CHARGEBACK_REVERSAL",
        )

    def chargeback_paid_back(self, payment_id: str) -> dict:
        return self._chargeback(payment_id, "RECEIVED", "REVERSED", "PAYMENT_RECEIVED")

    # --- Events ----------------------------------------------------------------------------------

    def undelivered(self) -> list[dict]:
        """The events sent since the last call (a test delivers them itself)."""
        with self.lock:
            fresh = self.events[self.delivered :]
            self.delivered = len(self.events)
            return fresh

    def _event(self, event_type: str, payment: dict) -> dict:
        event = {
            "id": f"evt_{secrets.token_hex(16)}&{next(self._numbers)}",
            "event": event_type,
            "dateCreated": now_text(),
            "payment": json.loads(dumps(payment), parse_float=Decimal, parse_int=Decimal),
        }
        self.events.append(event)
        if self.webhook_url:
            threading.Thread(target=self._send, args=(event,), daemon=True).start()
        return event

    def _send(self, event: dict) -> None:
        try:
            requests.post(
                self.webhook_url,
                data=dumps(event).encode(),
                headers={
                    "Content-Type": "application/json",
                    "asaas-access-token": self.webhook_token,
                },
                timeout=10,
            )
        except requests.RequestException as exc:  # kept in `events`; the fake says so
            print(f"fake Asaas: {event['event']} {event['id']} not delivered: {exc}")

    def pix_transaction(self, transaction_id: str) -> dict:
        """GET /pix/transactions/{id}."""
        with self.lock:
            found = self.pix_transactions.get(transaction_id)
            if found is None:
                raise not_found()
            return json.loads(dumps(found), parse_float=Decimal, parse_int=Decimal)

    # --- Helpers ---------------------------------------------------------------------------------

    def _pix_transaction(self, payment: dict, *, payer_name: str, payer_tax_id: str) -> str:
        transaction_id = str(uuid.uuid4())
        # E + the payer bank's ISPB + yyyyMMddHHmm + 11 characters: 32 in all (Banco Central).
        stamp = datetime.now(SAO_PAULO).strftime("%Y%m%d%H%M")
        end_to_end = f"E18236120{stamp}{secrets.token_hex(6)[:11]}"
        self.pix_transactions[transaction_id] = {
            "id": transaction_id,
            "endToEndIdentifier": end_to_end,
            "value": payment["value"],
            "status": "DONE",
            "type": "CREDIT",
            "originType": "DYNAMIC_QRCODE",
            "effectiveDate": now_text(),
            "externalAccount": {
                "ispb": 18236120,
                "ispbName": "NU PAGAMENTOS S.A. - INSTITUIÇÃO DE PAGAMENTO",
                "name": payer_name,
                "agency": "0001",
                "account": "1234567",
                "accountDigit": "8",
                "accountType": "CHECKING_ACCOUNT",
                "cpfCnpj": payer_tax_id,
            },
            "payment": payment["id"],
        }
        return transaction_id

    def _payment(self, payment_id: str) -> dict:
        payment = self.payments.get(payment_id)
        if payment is None:
            raise not_found()
        return payment

    def _refund_done(self, payment: dict) -> None:
        done = sum((r["value"] for r in payment["refunds"] if r["status"] == "DONE"), Decimal(0))
        if done >= payment["value"]:
            payment["status"] = "REFUNDED"
            self._event("PAYMENT_REFUNDED", payment)
        else:
            self._event("PAYMENT_PARTIALLY_REFUNDED", payment)

    def _chargeback(
        self, payment_id: str, status: str, chargeback: str, event: str, reason: str = ""
    ) -> dict:
        with self.lock:
            payment = self._payment(payment_id)
            if payment["paymentDate"] is None:
                raise invalid("Esta cobrança não foi paga.")
            previous = payment["chargeback"] or {}
            payment["status"] = status
            payment["chargeback"] = {
                "status": chargeback,
                "reason": reason or previous.get("reason") or "PROCESS_ERROR",
            }
            self._event(event, payment)
            return self.payment(payment_id)


def dumps(body) -> str:
    """JSON as Asaas writes it: amounts are numbers, written exactly (never through float)."""
    marks: dict[str, str] = {}

    def walk(value):
        if isinstance(value, Decimal):
            mark = f"__number_{len(marks)}__"
            marks[mark] = str(value)
            return mark
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    text = json.dumps(walk(body), ensure_ascii=False)
    for mark, number in marks.items():
        text = text.replace(f'"{mark}"', number)
    return text


class Handler(BaseHTTPRequestHandler):
    server: "FakeAsaasServer"

    def log_message(self, format, *args):  # quiet
        return

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_DELETE(self):
        self._handle("DELETE")

    def _handle(self, method: str) -> None:
        state = self.server.state
        url = urlsplit(self.path)
        path = url.path.rstrip("/")
        state.requests.append((method, path))
        try:
            if path in state.unavailable:
                raise AsaasError(503, "service_unavailable", "Serviço indisponível.")
            if path.startswith("/_fake/"):
                body = self._control(path)
            else:
                if self.headers.get("access_token") != self.server.api_key:
                    raise AsaasError(401, "invalid_access_token", "Chave de API inválida.")
                body = self._api(method, path, parse_qs(url.query))
        except AsaasError as exc:
            self._reply(exc.status, exc.body())
            return
        self._reply(200, body)

    def _json(self) -> dict:
        length = int(self.headers.get("Content-Length") or 0)
        if not length:
            return {}
        try:
            body = json.loads(self.rfile.read(length), parse_float=Decimal, parse_int=Decimal)
        except (ValueError, InvalidOperation):
            raise invalid("JSON inválido.") from None
        if not isinstance(body, dict):
            raise invalid("JSON inválido.")
        return body

    def _api(self, method: str, path: str, query: dict) -> dict:
        state = self.server.state
        parts = path.removeprefix("/v3/").split("/")
        if parts == ["customers"]:
            if method == "GET":
                return state.find_customers((query.get("externalReference") or [None])[0])
            if method == "POST":
                return state.create_customer(self._json())
        if parts == ["payments"] and method == "POST":
            return state.create_payment(self._json())
        if len(parts) == 2 and parts[0] == "payments":
            if method == "GET":
                return state.payment(parts[1])
            if method == "DELETE":
                return state.delete_payment(parts[1])
        if len(parts) == 3 and parts[:2] == ["pix", "transactions"] and method == "GET":
            return state.pix_transaction(parts[2])
        if len(parts) == 3 and parts[0] == "payments":
            if (method, parts[2]) == ("GET", "pixQrCode"):
                return state.pix_qr_code(parts[1])
            if (method, parts[2]) == ("GET", "identificationField"):
                return state.identification_field(parts[1])
            if (method, parts[2]) == ("POST", "refund"):
                body = self._json()
                value = body.get("value")
                if value is not None and not isinstance(value, Decimal):
                    raise invalid("Valor inválido.")
                return state.refund(parts[1], value, description=body.get("description") or "")
        raise not_found()

    def _control(self, path: str) -> dict:
        """POST /_fake/payments/{id}/{pay|refund|med_return|chargeback|chargeback_dispute|
        chargeback_won|chargeback_paid_back}: what a payer, bank or acquirer does."""
        parts = path.split("/")
        actions = {
            "pay",
            "refund",
            "med_return",
            "chargeback",
            "chargeback_dispute",
            "chargeback_won",
            "chargeback_paid_back",
        }
        if len(parts) != 5 or parts[2] != "payments" or parts[4] not in actions:
            raise not_found()
        body = self._json()
        action = getattr(self.server.state, parts[4])
        if parts[4] in ("refund", "med_return") and body.get("value") is not None:
            return action(parts[3], body["value"])
        return action(parts[3])

    def _reply(self, status: int, body: dict) -> None:
        data = dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class FakeAsaasServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, *, api_key: str, state: AsaasState):
        super().__init__(address, Handler)
        self.api_key, self.state = api_key, state


class FakeAsaas:
    """The server on a free port of 127.0.0.1, in a thread: `with FakeAsaas(...) as asaas`."""

    def __init__(self, *, api_key: str, webhook_token: str, webhook_url: str = "", port: int = 0):
        self.state = AsaasState(webhook_token=webhook_token, webhook_url=webhook_url)
        self.server = FakeAsaasServer(("127.0.0.1", port), api_key=api_key, state=self.state)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v3"

    def __enter__(self) -> "FakeAsaas":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--webhook-token", required=True)
    parser.add_argument("--webhook-url", default="")
    args = parser.parse_args()
    fake = FakeAsaas(
        api_key=args.api_key,
        webhook_token=args.webhook_token,
        webhook_url=args.webhook_url,
        port=args.port,
    )
    print(f"fake Asaas at {fake.base_url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        fake.server.serve_forever()


if __name__ == "__main__":
    main()
