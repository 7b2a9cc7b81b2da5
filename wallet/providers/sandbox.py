"""The built-in sandbox: real BR Code and boleto numbers, no real money. Payments are simulated
(`manage.py simulate_payment`, the panel's "mark paid", or the test-mode API call)."""

import hashlib

from django.conf import settings

from wallet import boleto, pix
from wallet.providers.base import Charge, Claim, NotificationRejected, PaymentProvider

SANDBOX_BANK_CODE = "341"


class SandboxProvider(PaymentProvider):
    name = "sandbox"

    def create_charge(self, recharge, *, due_date) -> Charge:
        opaque = recharge.id.split("_", 1)[1]
        if recharge.payment_method == "pix":
            payload = pix.brcode_payload(
                pix_key=settings.PIX_RECEIVER_KEY,
                amount=recharge.amount,
                merchant_name=settings.PIX_RECEIVER_NAME,
                merchant_city=settings.PIX_RECEIVER_CITY,
                txid=opaque[-25:].upper(),
            )
            return Charge(provider_charge_id=f"sandbox_{opaque}", pix_copy_paste=payload)
        # A 25-digit free field derived from the recharge id: stable for the charge.
        free_field = str(int(hashlib.sha256(opaque.encode()).hexdigest(), 16) % 10**25).zfill(25)
        code = boleto.barcode(
            bank_code=SANDBOX_BANK_CODE, amount=recharge.amount, due=due_date, free_field=free_field
        )
        return Charge(
            provider_charge_id=f"sandbox_{opaque}",
            boleto_barcode=code,
            boleto_linha_digitavel=boleto.linha_digitavel(code),
        )

    def cancel_charge(self, recharge) -> None:
        return None  # nothing to withdraw: nobody can pay a sandbox charge for real

    def parse_notification(self, *, headers, body: bytes):
        raise NotificationRejected("The sandbox sends no notifications; simulate a payment")

    def claim_of(self, event_type: str) -> Claim:
        return "ignored"

    def fetch_payment(self, provider_charge_id: str) -> None:
        return None  # sandbox payments are simulated by us, never reported from outside
