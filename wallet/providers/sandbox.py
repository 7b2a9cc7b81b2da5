"""The built-in sandbox: real BR Code and boleto numbers, no real money. Payments are simulated
(`manage.py simulate_payment`, the panel's "mark paid", or the test-mode API call).

Transfers (withdrawals) are simulated too, and settled at once: a transfer is DONE when it is
created, to a key held by the team itself, except an amount whose cents are 66 (e.g. 150.66),
which FAILS, so that integrators can see a withdrawal credited back (docs/withdrawals.md)."""

import hashlib
from decimal import Decimal

from django.conf import settings

from wallet import boleto, pix
from wallet.providers.base import (
    Charge,
    Claim,
    NotificationRejected,
    PaymentProvider,
    ProviderTransfer,
)

SANDBOX_BANK_CODE = "341"
FAILING_CENTS = 66  # a sandbox transfer of an amount with these cents fails


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

    def create_transfer(self, withdrawal) -> ProviderTransfer:
        return _sandbox_transfer(withdrawal)

    def fetch_transfer(self, transfer_id: str) -> ProviderTransfer | None:
        from wallet.models import Withdrawal

        withdrawal = (
            Withdrawal.objects.select_related("team")
            .filter(provider=self.name, provider_transfer_id=transfer_id)
            .first()
        )
        return _sandbox_transfer(withdrawal) if withdrawal else None

    def find_transfer(self, withdrawal) -> ProviderTransfer | None:
        # Answers are never lost here: a withdrawal without a transfer id has none.
        if not withdrawal.provider_transfer_id:
            return None
        return _sandbox_transfer(withdrawal)

    def cancel_transfer(self, transfer_id: str) -> None:
        return None  # settled at creation: nothing open to cancel


def _sandbox_transfer(withdrawal) -> ProviderTransfer:
    fails = int(withdrawal.amount * 100) % 100 == FAILING_CENTS
    return ProviderTransfer(
        id=f"sandbox_{withdrawal.id.split('_', 1)[1]}",
        status="FAILED" if fails else "DONE",
        state="failed" if fails else "done",
        value=Decimal(withdrawal.amount),
        external_reference=withdrawal.id,
        holder_name=withdrawal.team.name,
        holder_tax_id=withdrawal.team.tax_id,
        fail_reason="Sandbox: a transfer of an amount ending in ,66 fails" if fails else "",
    )
