"""Payment providers behind one interface. Test mode always uses the sandbox; live mode uses
settings.PAYMENT_PROVIDER ("sandbox" by default, "asaas" with ASAAS_API_KEY)."""

from django.conf import settings

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

__all__ = [
    "Charge",
    "Claim",
    "Notification",
    "NotificationRejected",
    "NotificationUnusable",
    "PaymentProvider",
    "ProviderError",
    "ProviderPayment",
    "ProviderTransfer",
    "TransferRefused",
    "get_provider",
    "provider_for",
]


def get_provider(name: str) -> PaymentProvider:
    if name == "sandbox":
        from wallet.providers.sandbox import SandboxProvider

        return SandboxProvider()
    if name == "asaas":
        from wallet.providers.asaas import AsaasProvider

        return AsaasProvider.from_settings()
    raise ValueError(f"Unknown payment provider {name!r}")


def provider_for(*, live_mode: bool) -> PaymentProvider:
    return get_provider(settings.PAYMENT_PROVIDER if live_mode else "sandbox")
