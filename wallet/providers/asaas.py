"""Asaas (asaas.com), a Brazilian payment institution: PIX and boleto charges over its v3 REST
API, and its payment webhooks; PIX transfers out of the account (withdrawals) and their webhooks.

Calls: find or create the customer (our team, by `externalReference`), create the payment
(`billingType` PIX or BOLETO, `externalReference` = our recharge id), then read the PIX
copy-and-paste payload (`/payments/{id}/pixQrCode`) or the boleto line
(`/payments/{id}/identificationField`). Notifications carry the token configured in Asaas in the
`asaas-access-token` header and a unique event `id`; the payment they name is then read back
(`GET /payments/{id}`), and only Asaas's answer is believed. A PIX payment received names its
PIX transaction (`pixTransaction`), read too (`GET /pix/transactions/{id}`) for who paid
(`externalAccount`) and the end-to-end id: shown on the recharge's page, never needed to credit.

Transfers (docs.asaas.com, "Transfer to another institution's account or Pix key"): `POST
/transfers` with `operationType` PIX, `pixAddressKey`/`pixAddressKeyType` and our withdrawal id in
`externalReference`; read back with `GET /transfers/{id}`; found by our id after a lost answer
with `GET /transfers?externalReference=…`; cancelled while not yet done with `DELETE
/transfers/{id}/cancel`. Transfer events (TRANSFER_CREATED, TRANSFER_PENDING,
TRANSFER_IN_BANK_PROCESSING, TRANSFER_BLOCKED, TRANSFER_DONE, TRANSFER_FAILED,
TRANSFER_CANCELLED) arrive at the same notification endpoint, with a `transfer` object instead
of a `payment`; the transfer is read back before anything is done."""

import json
import logging
from dataclasses import replace
from decimal import Decimal
from typing import Literal
from urllib.parse import quote

import requests
from django.conf import settings
from django.utils.crypto import constant_time_compare

from core.exceptions import register_error
from core.timestamps import business_date
from wallet import boleto, pix
from wallet.providers.base import (
    Charge,
    Claim,
    Notification,
    NotificationRejected,
    NotificationUnusable,
    PaymentProvider,
    ProviderError,
    ProviderPayment,
    ProviderTransfer,
    TransferRefused,
)

TIMEOUT_SECONDS = 10
NOT_CONFIGURED = "Asaas is not configured (ASAAS_API_KEY, ASAAS_WEBHOOK_TOKEN)"
register_error(ProviderError.code, ProviderError.status_code, NOT_CONFIGURED, module=__name__)
# Events that claim a payment (credited only if the payment read back says so), events that
# claim a failure (acted on only if the payment read back is deleted, refunded or charged back),
# and events that claim money went back to the payer (docs/reversals.md): for a recharge already
# credited, what the payment read back says was refunded or charged back is reversed; for one not
# yet credited, they are failure claims. PAYMENT_RECEIVED_IN_CASH_UNDONE undoes a mark we never
# credit (RECEIVED_IN_CASH, below): ignored.
PAID_EVENTS = {"PAYMENT_RECEIVED", "PAYMENT_CONFIRMED"}
FAILED_EVENTS = {
    "PAYMENT_DELETED",
    "PAYMENT_REFUSED",
    "PAYMENT_CREDIT_CARD_CAPTURE_REFUSED",
}
REVERSAL_EVENTS = {
    "PAYMENT_REFUNDED",
    "PAYMENT_PARTIALLY_REFUNDED",
    "PAYMENT_REFUND_IN_PROGRESS",
    "PAYMENT_CHARGEBACK_REQUESTED",
    "PAYMENT_CHARGEBACK_DISPUTE",
    "PAYMENT_AWAITING_CHARGEBACK_REVERSAL",
}
# Asaas payment statuses (docs.asaas.com, payment object). RECEIVED: the money is in the
# account; CONFIRMED: paid, balance not yet released. RECEIVED_IN_CASH is a mark someone makes by
# hand in Asaas's panel ("received in cash, no balance in the account"): no money reached Asaas,
# so it does not credit a wallet.
PAID_STATUSES = {"RECEIVED", "CONFIRMED"}
REVERSED_STATUSES = {
    "REFUNDED",
    "REFUND_REQUESTED",
    "REFUND_IN_PROGRESS",
    "CHARGEBACK_REQUESTED",
    "CHARGEBACK_DISPUTE",
    "AWAITING_CHARGEBACK_REVERSAL",
}
# What is final enough to take back from a wallet (docs/reversals.md). A refund: each entry of
# the payment's `refunds` whose status is DONE (PENDING and CANCELLED ones moved no money yet;
# REFUND_REQUESTED and REFUND_IN_PROGRESS are not done either), and REFUNDED, the whole value. A
# chargeback, from the moment it is received until the money comes back: the payment's status is
# one of CHARGEBACK_STATUSES (AWAITING_CHARGEBACK_REVERSAL: won, but the acquirer has not paid it
# back yet) or its `chargeback.status` one of CHARGEBACK_IN_FORCE. A chargeback won and paid back
# leaves the payment RECEIVED or CONFIRMED again, its chargeback REVERSED.
REFUND_DONE = "DONE"
CHARGEBACK_STATUSES = {"CHARGEBACK_REQUESTED", "CHARGEBACK_DISPUTE", "AWAITING_CHARGEBACK_REVERSAL"}
CHARGEBACK_IN_FORCE = {"REQUESTED", "IN_DISPUTE", "DISPUTE_LOST", "DONE"}
# Asaas transfer statuses (the transfer object): DONE, the money reached the receiving bank;
# FAILED and CANCELLED are final without it; PENDING, BANK_PROCESSING, BLOCKED are still open.
TRANSFER_STATES: dict[str, Literal["done", "failed", "cancelled"]] = {
    "DONE": "done",
    "FAILED": "failed",
    "CANCELLED": "cancelled",
}
PIX_KEY_TYPES = {"cpf": "CPF", "cnpj": "CNPJ", "email": "EMAIL", "phone": "PHONE", "evp": "EVP"}
# How many pages of 100 transfers a lookup by external reference reads at most.
MAX_TRANSFER_PAGES = 20
# Column sizes: ProviderNotification.event_id and .event_type, Recharge.provider_charge_id.
MAX_ID_LENGTH = 100
MAX_EVENT_TYPE_LENGTH = 60

logger = logging.getLogger(__name__)


class AsaasProvider(PaymentProvider):
    name = "asaas"

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        webhook_token: str,
        session: requests.Session | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.webhook_token = webhook_token
        self.session = session or requests.Session()
        self.session.headers.update(
            {
                "access_token": api_key,
                "User-Agent": "agency-backoffice",
                "Content-Type": "application/json",
            }
        )

    @classmethod
    def from_settings(cls) -> "AsaasProvider":
        if not settings.ASAAS_API_KEY or not settings.ASAAS_WEBHOOK_TOKEN:
            raise ProviderError(NOT_CONFIGURED)
        return cls(
            api_key=settings.ASAAS_API_KEY,
            base_url=settings.ASAAS_BASE_URL,
            webhook_token=settings.ASAAS_WEBHOOK_TOKEN,
        )

    # --- Outbound ---------------------------------------------------------------------------

    def _send(self, method: str, path: str, **kwargs) -> requests.Response:
        try:
            return self.session.request(
                method, f"{self.base_url}{path}", timeout=TIMEOUT_SECONDS, **kwargs
            )
        except requests.RequestException as exc:
            raise ProviderError(
                details={"provider": "asaas", "reason": type(exc).__name__}
            ) from exc

    def _call(self, method: str, path: str, **kwargs) -> dict:
        response = self._send(method, path, **kwargs)
        if response.status_code >= 400:
            raise ProviderError(
                details={
                    "provider": "asaas",
                    "status": response.status_code,
                    "errors": _error_descriptions(response),
                }
            )
        try:
            body = response.json()
        except ValueError:  # a proxy's HTML page, a truncated body
            body = None
        if not isinstance(body, dict):
            raise ProviderError(
                details={"provider": "asaas", "status": response.status_code, "reason": "not JSON"}
            )
        return body

    def _customer_id(self, team) -> str:
        found = self._call("GET", "/customers", params={"externalReference": team.id})
        data = found.get("data")
        customers = data if isinstance(data, list) else []
        active = [c for c in customers if isinstance(c, dict) and not c.get("deleted")]
        if active:  # a removed customer cannot be charged any more
            return _id_of(active[0], "customer")
        created = self._call(
            "POST",
            "/customers",
            json={
                "name": team.name,
                "cpfCnpj": "".join(c for c in team.tax_id if c.isdigit()),
                "email": team.notification_email,
                "externalReference": team.id,
                "notificationDisabled": True,
            },
        )
        return _id_of(created, "customer")

    def create_charge(self, recharge, *, due_date) -> Charge:
        is_pix = recharge.payment_method == "pix"
        if due_date is None:
            # Asaas reads dueDate as a Brazilian calendar day, not a UTC one.
            due_date = business_date(recharge.expires_at)
        payment = self._call(
            "POST",
            "/payments",
            json={
                "customer": self._customer_id(recharge.team),
                "billingType": "PIX" if is_pix else "BOLETO",
                # A JSON number, as Asaas expects. Amounts here have at most 7 significant digits,
                # so the float's shortest repr is exactly the decimal amount.
                "value": float(recharge.amount),
                "dueDate": due_date.isoformat(),
                "externalReference": recharge.id,
                "description": f"Wallet recharge {recharge.id}",
            },
        )
        payment_id = _id_of(payment, "payment")
        # From here on the payment exists at Asaas: if we cannot hand out its instructions,
        # withdraw it, so that no charge we do not track stays payable.
        try:
            if is_pix:
                return Charge(
                    provider_charge_id=payment_id, pix_copy_paste=self._pix_payload(payment_id)
                )
            code = self._boleto_barcode(payment_id, recharge.amount)
            return Charge(
                provider_charge_id=payment_id,
                boleto_barcode=code,
                boleto_linha_digitavel=boleto.linha_digitavel(code),
            )
        except ProviderError:
            self._delete_quietly(payment_id)
            raise

    def _pix_payload(self, payment_id: str) -> str:
        qr = self._call("GET", f"/payments/{payment_id}/pixQrCode")
        payload = qr.get("payload")
        if not isinstance(payload, str) or not pix.crc_valid(payload):
            raise ProviderError(details={"provider": "asaas", "reason": "invalid PIX payload"})
        return payload

    def _boleto_barcode(self, payment_id: str, amount: Decimal) -> str:
        """The 44-digit barcode, checked: the line and the barcode Asaas gives must be the same
        boleto, with valid check digits, for our amount."""
        line = self._call("GET", f"/payments/{payment_id}/identificationField")
        try:
            code = boleto.barcode_from_linha(line.get("identificationField") or "")
            if line.get("barCode") and line["barCode"] != code:
                raise ValueError("barCode and identificationField are different boletos")
            if int(code[9:19]) != boleto.amount_in_cents(amount):
                raise ValueError(f"the boleto is for {code[9:19]} cents, not {amount}")
        except (ValueError, TypeError, AttributeError) as exc:
            raise ProviderError(
                details={"provider": "asaas", "reason": f"invalid boleto: {exc}"}
            ) from exc
        return code

    def _delete_quietly(self, payment_id: str) -> None:
        try:
            self._call("DELETE", f"/payments/{payment_id}")
        except ProviderError:
            logger.warning("Could not withdraw Asaas payment %s; delete it in Asaas", payment_id)

    def cancel_charge(self, recharge) -> None:
        if recharge.provider_charge_id:
            self._call("DELETE", f"/payments/{recharge.provider_charge_id}")

    def fetch_payment(self, provider_charge_id: str) -> ProviderPayment | None:
        """GET /payments/{id}. A 404 is an answer (no such payment); any other failure (timeout,
        5xx, 401 with a wrong API key, a body that is not Asaas's payment object) raises
        ProviderError, so that the notification is answered 5xx and Asaas sends it again."""
        response = self._send("GET", f"/payments/{quote(provider_charge_id, safe='')}")
        if response.status_code == 404:
            return None
        # Amounts exactly as written, never through float; NaN/Infinity are not amounts.
        body = _exact_json(response, "payment")
        try:
            payment = _payment_from(body)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ProviderError(
                details={"provider": "asaas", "reason": f"unreadable payment: {exc}"}
            ) from exc
        pix_transaction = body.get("pixTransaction")
        if payment.state == "paid" and isinstance(pix_transaction, str) and pix_transaction:
            return self._with_pix_payer(payment, pix_transaction)
        return payment

    def _with_pix_payer(self, payment: ProviderPayment, transaction_id: str) -> ProviderPayment:
        """The PIX's payer and end-to-end id (`GET /pix/transactions/{id}`, the transaction the
        payment names). Shown on the recharge's page, never a condition of the credit: when they
        cannot be read, that is logged and the payment is returned without them."""
        try:
            response = self._send("GET", f"/pix/transactions/{quote(transaction_id, safe='')}")
            name, tax_id, end_to_end = _pix_payer(
                _exact_json(response, "PIX transaction"), payment_id=payment.id
            )
        except (ProviderError, ValueError, TypeError, KeyError, AttributeError) as exc:
            logger.warning(
                "Could not read the payer of Asaas payment %s (PIX transaction %s): %s",
                payment.id,
                transaction_id,
                exc,
            )
            return payment
        return replace(payment, payer_name=name, payer_tax_id=tax_id, end_to_end_id=end_to_end)

    # --- Inbound ----------------------------------------------------------------------------

    def parse_notification(self, *, headers, body: bytes) -> Notification:
        if not self.webhook_token or not constant_time_compare(
            headers.get("asaas-access-token", ""), self.webhook_token
        ):
            raise NotificationRejected("bad or missing asaas-access-token")
        try:
            event = json.loads(body)
            event_id, event_type = event["id"], event["event"]
            # A transfer event names a transfer, any other a payment; only the object's id is
            # read (the rest is read back from Asaas).
            kind: Literal["payment", "transfer"] = (
                "transfer" if isinstance(event, dict) and "transfer" in event else "payment"
            )
            object_id = event[kind]["id"]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise NotificationUnusable(f"not an Asaas payment event: {exc!r}") from None
        for name, text, max_length in (
            ("id", event_id, MAX_ID_LENGTH),
            ("event", event_type, MAX_EVENT_TYPE_LENGTH),
            (f"{kind}.id", object_id, MAX_ID_LENGTH),
        ):
            if not isinstance(text, str) or not text or len(text) > max_length:
                raise NotificationUnusable(f"not an Asaas {kind} event: bad {name}")
            # A NUL cannot be stored (PostgreSQL refuses it in text) and no id has a control
            # character: refused here, not as a 500 the provider would retry forever.
            if any(ord(char) < 32 or ord(char) == 127 for char in text):
                raise NotificationUnusable(
                    f"not an Asaas {kind} event: {name} has control characters"
                )
        # Asaas gives only the payment's date; paid_at is the moment we learn of it.
        return Notification(
            event_id=event_id,
            event_type=event_type,
            provider_charge_id=object_id,
            outcome="ignored" if kind == "transfer" else self.claim_of(event_type),
            kind=kind,
        )

    def claim_of(self, event_type: str) -> Claim:
        if event_type in PAID_EVENTS:
            return "paid"
        if event_type in FAILED_EVENTS:
            return "failed"
        if event_type in REVERSAL_EVENTS:
            return "reversed"
        return "ignored"

    # --- Transfers out ----------------------------------------------------------------------

    def create_transfer(self, withdrawal) -> ProviderTransfer:
        response = self._send(
            "POST",
            "/transfers",
            json={
                # A JSON number, as for payments: at most 7 significant digits, exact as a float.
                "value": float(withdrawal.amount),
                "operationType": "PIX",
                "pixAddressKey": withdrawal.pix_key,
                "pixAddressKeyType": PIX_KEY_TYPES[withdrawal.pix_key_type],
                "description": f"Withdrawal {withdrawal.id}",
                "externalReference": withdrawal.id,
            },
        )
        if response.status_code == 400:
            # Asaas's validation errors (an invalid key, not enough balance in the account...):
            # no transfer was created.
            raise TransferRefused("; ".join(_error_descriptions(response)))
        return self._transfer_answer(response)

    def fetch_transfer(self, transfer_id: str) -> ProviderTransfer | None:
        response = self._send("GET", f"/transfers/{quote(transfer_id, safe='')}")
        if response.status_code == 404:
            return None
        return self._transfer_answer(response)

    def find_transfer(self, withdrawal) -> ProviderTransfer | None:
        """GET /transfers filtered by our id (and, so that a filter Asaas would ignore still
        reads few pages, by the day it was created, in Brazil), every page read, each item's
        `externalReference` checked here."""
        params = {
            "externalReference": withdrawal.id,
            "dateCreated[ge]": business_date(withdrawal.created_at).isoformat(),
            "limit": 100,
        }
        offset = 0
        for _page in range(MAX_TRANSFER_PAGES):
            page = _exact_json(
                self._send("GET", "/transfers", params={**params, "offset": offset}), "transfers"
            )
            items = page.get("data") if isinstance(page, dict) else None
            if not isinstance(items, list):
                raise ProviderError(details={"provider": "asaas", "reason": "not a list"})
            for item in items:
                if isinstance(item, dict) and item.get("externalReference") == withdrawal.id:
                    return _readable_transfer(item)
            if page.get("hasMore") is not True or not items:
                return None
            offset += len(items)
        # Too many transfers that day to be sure: say so rather than answer "none".
        raise ProviderError(details={"provider": "asaas", "reason": "too many transfers to look"})

    def cancel_transfer(self, transfer_id: str) -> None:
        self._call("DELETE", f"/transfers/{quote(transfer_id, safe='')}/cancel")

    def _transfer_answer(self, response: requests.Response) -> ProviderTransfer:
        return _readable_transfer(_exact_json(response, "transfer"))


def _no_constant(name: str):
    raise ValueError(f"{name} is not an amount")


def _payment_from(body) -> ProviderPayment:
    """Asaas's payment object, checked field by field: anything else is unreadable."""
    if not isinstance(body, dict) or body.get("object", "payment") != "payment":
        raise ValueError("not a payment object")
    payment_id, status, value = body["id"], body["status"], body["value"]
    reference = body.get("externalReference") or ""
    if not isinstance(payment_id, str) or not payment_id:
        raise ValueError("no payment id")
    if not isinstance(status, str) or not status:
        raise ValueError("no status")
    if not isinstance(value, Decimal) or not value.is_finite():
        raise ValueError(f"value {value!r} is not a number")
    if not isinstance(reference, str):
        raise ValueError("externalReference is not a string")
    state: Literal["paid", "deleted", "reversed", "unpaid"]
    if body.get("deleted") is True:
        state = "deleted"
    elif status in PAID_STATUSES:
        state = "paid"
    elif status in REVERSED_STATUSES:
        state = "reversed"
    else:
        state = "unpaid"
    refunded, refund_notes = _refunds(body.get("refunds"))
    if status == "REFUNDED":
        refunded = max(refunded, value)  # refunded whole, whatever its list of refunds says
    chargeback = body.get("chargeback")
    if chargeback is not None and not isinstance(chargeback, dict):
        raise ValueError("chargeback is not an object")
    chargeback_status = (chargeback or {}).get("status") or ""
    if not isinstance(chargeback_status, str):
        raise ValueError("chargeback.status is not a string")
    charged_back = status in CHARGEBACK_STATUSES or chargeback_status in CHARGEBACK_IN_FORCE
    notes = [*refund_notes]
    if chargeback:
        notes.append(f"chargeback {chargeback_status or '?'} ({chargeback.get('reason') or '-'})")
    return ProviderPayment(
        id=payment_id,
        status=status,
        state=state,
        value=value,
        external_reference=reference,
        refunded=refunded,
        charged_back=charged_back,
        reversal_detail="; ".join(notes)[:255],
    )


def _pix_payer(body, *, payment_id: str) -> tuple[str, str, str]:
    """Asaas's PIX transaction object: the paying account's holder (`externalAccount.name`,
    `externalAccount.cpfCnpj`, which Asaas may mask) and the `endToEndIdentifier`, for the
    payment it belongs to only."""
    if not isinstance(body, dict) or body.get("payment") != payment_id:
        raise ValueError(f"not the PIX transaction of payment {payment_id}")
    account = body.get("externalAccount") or {}
    if not isinstance(account, dict):
        raise ValueError("externalAccount is not an object")
    found = [
        (account.get("name") or "", 200),
        (account.get("cpfCnpj") or "", 30),
        (body.get("endToEndIdentifier") or "", 35),
    ]
    if not all(isinstance(text, str) for text, _ in found):
        raise ValueError("name, cpfCnpj and endToEndIdentifier are text")
    # Stored as text people read: no control characters (PostgreSQL refuses a NUL).
    name, tax_id, end_to_end = (
        "".join(c for c in text if c.isprintable()).strip()[:limit] for text, limit in found
    )
    return name, tax_id, end_to_end


def _refunds(refunds) -> tuple[Decimal, list[str]]:
    """The total of a payment's refunds that are done, and a line about each refund."""
    if refunds is None:
        return Decimal("0"), []
    if not isinstance(refunds, list):
        raise ValueError("refunds is not a list")
    done, notes = Decimal("0"), []
    for refund in refunds:
        if not isinstance(refund, dict):
            raise ValueError("a refund is not an object")
        value, status = refund.get("value"), refund.get("status")
        if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
            raise ValueError(f"refund value {value!r} is not an amount")
        if not isinstance(status, str):
            raise ValueError("a refund has no status")
        if status == REFUND_DONE:
            done += value
        when = refund.get("effectiveDate") or refund.get("dateCreated") or ""
        e2e = refund.get("endToEndIdentifier") or ""
        notes.append(
            f"refund {format(value, 'f')} {status}"
            + (f" {when}" if when else "")
            + (f" E2E {e2e}" if e2e else "")
        )
    return done, notes


def _exact_json(response: requests.Response, what: str):
    """A 200's JSON with its numbers read exactly (Decimal, never float); anything else, or a
    body that is not JSON, raises ProviderError."""
    if response.status_code != 200:
        raise ProviderError(
            details={
                "provider": "asaas",
                "status": response.status_code,
                "errors": _error_descriptions(response),
            }
        )
    try:
        return json.loads(
            response.text, parse_float=Decimal, parse_int=Decimal, parse_constant=_no_constant
        )
    except ValueError as exc:
        raise ProviderError(
            details={"provider": "asaas", "reason": f"unreadable {what}: {exc}"}
        ) from exc


def _readable_transfer(body) -> ProviderTransfer:
    try:
        return _transfer_from(body)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ProviderError(
            details={"provider": "asaas", "reason": f"unreadable transfer: {exc}"}
        ) from exc


def _transfer_from(body) -> ProviderTransfer:
    """Asaas's transfer object, checked field by field: anything else is unreadable. The key's
    holder is its `bankAccount` (`ownerName`, `cpfCnpj`), null until Asaas resolved the key."""
    if not isinstance(body, dict) or body.get("object", "transfer") != "transfer":
        raise ValueError("not a transfer object")
    transfer_id, status, value = body["id"], body["status"], body["value"]
    reference = body.get("externalReference") or ""
    if not isinstance(transfer_id, str) or not transfer_id or len(transfer_id) > MAX_ID_LENGTH:
        raise ValueError("no transfer id")
    if not isinstance(status, str) or not status:
        raise ValueError("no status")
    if not isinstance(value, Decimal) or not value.is_finite():
        raise ValueError(f"value {value!r} is not a number")
    if not isinstance(reference, str):
        raise ValueError("externalReference is not a string")
    account = body.get("bankAccount") or {}
    if not isinstance(account, dict):
        raise ValueError("bankAccount is not an object")
    holder_name, holder_tax_id = account.get("ownerName") or "", account.get("cpfCnpj") or ""
    fail_reason = body.get("failReason") or ""
    if not all(isinstance(text, str) for text in (holder_name, holder_tax_id, fail_reason)):
        raise ValueError("ownerName, cpfCnpj and failReason are text")
    return ProviderTransfer(
        id=transfer_id,
        status=status,
        state=TRANSFER_STATES.get(status, "open"),
        value=value,
        external_reference=reference,
        holder_name=holder_name[:200],
        holder_tax_id=holder_tax_id[:30],
        fail_reason=fail_reason[:255],
    )


def _id_of(obj: dict, what: str) -> str:
    object_id = obj.get("id")
    if not isinstance(object_id, str) or not object_id or len(object_id) > MAX_ID_LENGTH:
        raise ProviderError(details={"provider": "asaas", "reason": f"no {what} id"})
    return object_id


def _error_descriptions(response) -> list[str]:
    try:
        errors = response.json().get("errors") or []
        return [str(e.get("description", "")) for e in errors]
    except (ValueError, AttributeError, TypeError):  # not JSON, or not Asaas's error shape
        return []
