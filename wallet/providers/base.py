from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from prometheus_client import Histogram

from core.exceptions import ApplicationError
from core.metrics import OUTSIDE_CALL_BUCKETS, meter_calls


class ProviderError(ApplicationError):
    status_code = 502
    code = "payment_provider_error"
    message = "The payment provider is unavailable; try again later"


class NotificationRejected(Exception):
    """An inbound notification that is not authentic or not understood."""


class NotificationUnusable(NotificationRejected):
    """An authentic notification (its token checked) whose body can never be used: not the
    provider's event shape, or ids no payment or transfer can have (a NUL, control
    characters). Answered 200 and dropped: a retry would be the same, and a provider that
    keeps failing to deliver one pauses its whole queue (Asaas does)."""


class TransferRefused(Exception):
    """The provider answered a transfer request with a refusal (a validation error): no
    transfer was created, so nothing will ever leave the account for this request."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class Charge:
    """What a provider returns for a new charge: its id and the payment instructions."""

    provider_charge_id: str
    pix_copy_paste: str = ""
    boleto_barcode: str = ""
    boleto_linha_digitavel: str = ""


# What a notification claims about its payment: paid, failed (before it was paid: deleted,
# refused), reversed (refunded or charged back, possibly after we credited it), or nothing.
Claim = Literal["paid", "failed", "reversed", "ignored"]


@dataclass(frozen=True)
class Notification:
    """What an authenticated notification claims. Only a claim: nothing in it is trusted (no
    amount is even read from it); the payment is read back from the provider before acting."""

    event_id: str
    event_type: str
    provider_charge_id: str  # the payment's id; for a transfer event, the transfer's
    outcome: Claim
    paid_at: datetime | None = None
    kind: Literal["payment", "transfer"] = "payment"


@dataclass(frozen=True)
class ProviderPayment:
    """A payment as the provider itself reports it when we ask (GET), in the provider's words
    (`status`) and in ours (`state`): "paid" (the money is received or confirmed), "deleted"
    (withdrawn, can no longer be paid), "reversed" (refunded or charged back after payment) or
    "unpaid" (anything else: pending, overdue, received in cash...).

    What of it went back to the payer, final: `refunded`, the refunds done (a partial one
    leaves the payment "paid"; a PIX returned through MED is one), and `charged_back`, a
    chargeback in force (requested, disputed, lost, or won but not yet paid back to us): the
    whole value is then taken. `reversal_detail` says it in the provider's words, for support.

    Who paid, when the provider says (empty otherwise): the payer's name and CPF or CNPJ (the
    provider may mask digits) and, for a PIX, the Banco Central's end-to-end id."""

    id: str
    status: str
    state: Literal["paid", "deleted", "reversed", "unpaid"]
    value: Decimal
    external_reference: str
    refunded: Decimal = Decimal("0.00")
    charged_back: bool = False
    reversal_detail: str = ""
    payer_name: str = ""
    payer_tax_id: str = ""
    end_to_end_id: str = ""


@dataclass(frozen=True)
class ProviderTransfer:
    """A transfer out of our account as the provider reports it when we ask (GET, or the
    answer to its creation), in the provider's words (`status`) and in ours (`state`): "done"
    (the money reached the receiving bank), "failed", "cancelled", or "open" (anything else:
    pending, in bank processing, blocked...). The key's holder is whoever the provider says
    owns the receiving account: its document may be masked ("***.143.689-**"), or unknown
    ("") while the provider has not resolved the key."""

    id: str
    status: str
    state: Literal["done", "failed", "cancelled", "open"]
    value: Decimal
    external_reference: str
    holder_name: str = ""
    holder_tax_id: str = ""
    fail_reason: str = ""


PROVIDER_CALLS = Histogram(
    "agency_payment_provider_call_duration_seconds",
    "Calls to a payment provider, by provider, operation and outcome.",
    ["provider", "operation", "outcome"],
    buckets=OUTSIDE_CALL_BUCKETS,
)


def provider_call_outcome(exc: BaseException) -> str:
    return "error" if isinstance(exc, ProviderError) else "exception"


class PaymentProvider(ABC):
    name: str

    def __init_subclass__(cls, **kwargs):
        """Every provider's outgoing calls are timed (docs/operations.md); reading a
        notification is local and is not."""
        super().__init_subclass__(**kwargs)
        meter_calls(
            cls,
            histogram=PROVIDER_CALLS,
            operations=[
                "create_charge",
                "cancel_charge",
                "fetch_payment",
                "create_transfer",
                "fetch_transfer",
                "find_transfer",
                "cancel_transfer",
            ],
            outcome_of=provider_call_outcome,
        )

    @abstractmethod
    def create_charge(self, recharge, *, due_date: date | None) -> Charge:
        """Create the PIX or boleto charge for a pending recharge (its amount, method, expiry)."""

    @abstractmethod
    def cancel_charge(self, recharge) -> None:
        """Withdraw the charge so that it can no longer be paid (best effort)."""

    @abstractmethod
    def parse_notification(self, *, headers, body: bytes) -> Notification:
        """Authenticate and read an inbound notification; raise NotificationRejected."""

    @abstractmethod
    def claim_of(self, event_type: str) -> Claim:
        """What a notification of this type claims about its payment."""

    @abstractmethod
    def fetch_payment(self, provider_charge_id: str) -> ProviderPayment | None:
        """Read a payment back from the provider: None when the provider says it does not
        exist; ProviderError when the provider cannot be reached or its answer is unreadable."""

    # --- Transfers out (withdrawals) --------------------------------------------------------

    @abstractmethod
    def create_transfer(self, withdrawal) -> ProviderTransfer:
        """Ask for a PIX transfer of the withdrawal's amount to its key, with the withdrawal's id
        as the transfer's external reference. TransferRefused: the provider refused it (nothing
        was created). ProviderError: the outcome is unknown (the transfer may exist)."""

    @abstractmethod
    def fetch_transfer(self, transfer_id: str) -> ProviderTransfer | None:
        """Read a transfer back: None when the provider says it does not exist; ProviderError
        when it cannot be reached or its answer is unreadable."""

    @abstractmethod
    def find_transfer(self, withdrawal) -> ProviderTransfer | None:
        """The transfer whose external reference is the withdrawal's id, if the provider has
        one (after a request whose answer was lost); ProviderError when it cannot tell."""

    @abstractmethod
    def cancel_transfer(self, transfer_id: str) -> None:
        """Ask the provider to cancel a transfer not yet done (ProviderError if it cannot)."""
