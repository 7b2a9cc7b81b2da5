"""The event objects of API keys and integrations (never a secret)."""

from agencies.models import ApiKey, Integration
from core.timestamps import iso_utc


def api_key_event_object(key: ApiKey) -> dict:
    return {
        "id": key.id,
        "object": "api_key",
        "name": key.name,
        "live_mode": key.live_mode,
        "display_prefix": key.display_prefix,
        "created_at": iso_utc(key.created_at),
        "last_used_at": iso_utc(key.last_used_at),
        "revoked_at": iso_utc(key.revoked_at),
    }


def integration_event_object(integration: Integration) -> dict:
    return {
        "id": integration.id,
        "object": "integration",
        "provider": integration.provider,
        "status": integration.status,
        "live_mode": integration.live_mode,
        "connected_at": iso_utc(integration.connected_at),
        "disconnected_at": iso_utc(integration.disconnected_at),
    }
