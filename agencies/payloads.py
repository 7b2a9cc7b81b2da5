"""What the API and the events show of the agencies' records: clients, and the event objects
of API keys and integrations (never a secret)."""

from agencies.models import ApiKey, Client, Integration
from core.tax_ids import tax_id_display, tax_id_type
from core.timestamps import iso_utc

BRAZIL = "BR"


def postal_code_display(client: Client) -> str:
    """A Brazilian CEP as written (`01310-100`); another country's postal code as given."""
    code = client.postal_code
    if client.country == BRAZIL and len(code) == 8:
        return f"{code[:5]}-{code[5:]}"
    return code


def client_object(client: Client) -> dict:
    """A client as the API shows it: the tax id formatted, what is not set null."""
    return {
        "id": client.id,
        "live_mode": client.live_mode,
        "full_name": client.full_name,
        "email": client.email,
        "phone_number": client.phone_number or None,
        "tax_id": tax_id_display(client.tax_id) or None,
        "tax_id_type": tax_id_type(client.tax_id),
        "postal_code": postal_code_display(client) or None,
        "street": client.street or None,
        "street_number": client.street_number or None,
        "complement": client.complement or None,
        "district": client.district or None,
        "city": client.city or None,
        "state": client.state or None,
        "country": client.country,
        "metadata": client.metadata,
        "created_at": iso_utc(client.created_at),
    }


def api_key_event_object(key: ApiKey) -> dict:
    return {
        "id": key.id,
        "object": "api_key",
        "name": key.name,
        "live_mode": key.live_mode,
        "display_prefix": key.display_prefix,
        # null: full access (every key made before restricted keys); else what it may do.
        "permissions": list(key.permissions) or None,
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
