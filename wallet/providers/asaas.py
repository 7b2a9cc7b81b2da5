"""Asaas (asaas.com), a Brazilian payment institution: PIX and boleto charges over its v3 REST
API, and its payment webhooks.

Calls: find or create the customer (our team, by `externalReference`), create the payment
(`billingType` PIX or BOLETO, `externalReference` = our recharge id), then read the PIX
copy-and-paste payload (`/payments/{id}/pixQrCode`) or the boleto line
(`/payments/{id}/identificationField`). Notifications carry the token configured in Asaas in the
`asaas-access-token` header and a unique event `id`."""

import json
from decimal import Decimal

import requests
from django.conf import settings
from django.utils.crypto import constant_time_compare

from wallet import boleto
from wallet.providers.base import (
    Charge,
    Notification,
    NotificationRejected,
    PaymentProvider,
    ProviderError,
)

TIMEOUT_SECONDS = 10
PAID_EVENTS = {"PAYMENT_RECEIVED", "PAYMENT_CONFIRMED"}
FAILED_EVENTS = {"PAYMENT_DELETED", "PAYMENT_REFUSED", "PAYMENT_CREDIT_CARD_CAPTURE_REFUSED"}


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
            raise ProviderError("Asaas is not configured (ASAAS_API_KEY, ASAAS_WEBHOOK_TOKEN)")
        return cls(
            api_key=settings.ASAAS_API_KEY,
            base_url=settings.ASAAS_BASE_URL,
            webhook_token=settings.ASAAS_WEBHOOK_TOKEN,
        )

    # --- Outbound ---------------------------------------------------------------------------

    def _call(self, method: str, path: str, **kwargs) -> dict:
        try:
            response = self.session.request(
                method, f"{self.base_url}{path}", timeout=TIMEOUT_SECONDS, **kwargs
            )
        except requests.RequestException as exc:
            raise ProviderError(
                details={"provider": "asaas", "reason": type(exc).__name__}
            ) from exc
        if response.status_code >= 400:
            raise ProviderError(
                details={
                    "provider": "asaas",
                    "status": response.status_code,
                    "errors": _error_descriptions(response),
                }
            )
        return response.json()

    def _customer_id(self, team) -> str:
        found = self._call("GET", "/customers", params={"externalReference": team.id})
        if found.get("data"):
            return found["data"][0]["id"]
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
        return created["id"]

    def create_charge(self, recharge, *, due_date) -> Charge:
        is_pix = recharge.payment_method == "pix"
        payment = self._call(
            "POST",
            "/payments",
            json={
                "customer": self._customer_id(recharge.team),
                "billingType": "PIX" if is_pix else "BOLETO",
                # A JSON number, as Asaas expects. Amounts here have at most 7 significant digits,
                # so the float's shortest repr is exactly the decimal amount.
                "value": float(recharge.amount),
                "dueDate": (due_date or recharge.expires_at.date()).isoformat(),
                "externalReference": recharge.id,
                "description": f"Wallet recharge {recharge.id}",
            },
        )
        if is_pix:
            qr = self._call("GET", f"/payments/{payment['id']}/pixQrCode")
            return Charge(provider_charge_id=payment["id"], pix_copy_paste=qr["payload"])
        line = self._call("GET", f"/payments/{payment['id']}/identificationField")
        code = line.get("barCode") or boleto.barcode_from_linha(line["identificationField"])
        return Charge(
            provider_charge_id=payment["id"],
            boleto_barcode=code,
            boleto_linha_digitavel=boleto.linha_digitavel(code),
        )

    def cancel_charge(self, recharge) -> None:
        if recharge.provider_charge_id:
            self._call("DELETE", f"/payments/{recharge.provider_charge_id}")

    # --- Inbound ----------------------------------------------------------------------------

    def parse_notification(self, *, headers, body: bytes) -> Notification:
        if not constant_time_compare(headers.get("asaas-access-token", ""), self.webhook_token):
            raise NotificationRejected("bad or missing asaas-access-token")
        try:
            event = json.loads(body)
            event_id, event_type = event["id"], event["event"]
            payment = event["payment"]
            charge_id = payment["id"]
        except (ValueError, KeyError, TypeError) as exc:
            raise NotificationRejected(f"not an Asaas payment event: {exc}") from None
        if event_type in PAID_EVENTS:
            outcome = "paid"
        elif event_type in FAILED_EVENTS:
            outcome = "failed"
        else:
            outcome = "ignored"
        # Asaas gives only the payment's date; paid_at is the moment we learn of it.
        amount = Decimal(str(payment["value"])) if "value" in payment else None
        return Notification(
            event_id=event_id,
            event_type=event_type,
            provider_charge_id=charge_id,
            outcome=outcome,
            amount=amount,
        )


def _error_descriptions(response) -> list[str]:
    try:
        return [e.get("description", "") for e in response.json().get("errors", [])]
    except ValueError:
        return []
