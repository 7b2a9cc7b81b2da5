"""OpenAPI pieces shared by every app: the Bearer scheme, the error body, envelopes."""

import json
from functools import cache
from pathlib import Path

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from api.key_permissions import PERMISSIONS
from api.modes import ApiAuthentication


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    # The configured ApiAuthentication (agencies' API keys) is named by the settings only.
    target_class = ApiAuthentication
    match_subclasses = True
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "sk_test_… (sandbox) or sk_live_…",
        }


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.JSONField(allow_null=True)


class ErrorSerializer(serializers.Serializer):
    success = serializers.BooleanField(default=False)
    error = ErrorDetailSerializer()


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


def idempotency_key_schema() -> dict:
    """What `api.idempotency.validate_key` accepts."""
    from api.idempotency import KEY_PATTERN, MAX_KEY_LENGTH

    return {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": KEY_PATTERN}


IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    name="Idempotency-Key",
    type=idempotency_key_schema(),
    location=OpenApiParameter.HEADER,
    required=False,
    description="Retry-safe key: 1 to 255 visible ASCII characters (spaces only inside). The "
    "same key with the same request replays the first response for 24 h; with a different "
    "request, or while the first is still running, the answer is 409.",
)


def enveloped(serializer, *, name: str, **extra_fields):
    """A `{success, data: <serializer>}` component named `name` (plus any extra fields).
    `serializer` is a serializer class or instance (e.g. an `inline_serializer`)."""
    data = serializer if isinstance(serializer, serializers.Field) else serializer()
    fields = {"success": serializers.BooleanField(default=True), "data": data, **extra_fields}
    return type(name, (serializers.Serializer,), fields)


# Answers any operation can give, whatever it documents itself.
COMMON_ERRORS = {
    "400": "Invalid request parameters (`details` names each field); also a NUL character in "
    "the path or the query, or a JSON body past the input limits (nesting, NUL characters, "
    "numbers that do not fit)",
    "401": "Unauthorized: no API key, or an unknown or revoked one",
    "413": "payload_too_large: a request body over 1 MiB",
    "429": "Too many requests for this team and mode, or searches, or requests without a valid "
    "key from this address (see the `Retry-After` header)",
}

IDEMPOTENCY_ERRORS = {
    "400": "Invalid request parameters (also an invalid `Idempotency-Key`)",
    "409": "The `Idempotency-Key` was used with a different request, or its first request is "
    "still running",
}


def document_common_errors(result, generator, request, public):
    """drf-spectacular postprocessing hook: add the common errors to every authenticated
    operation, with the one error shape, so clients and the fuzzer know them."""
    error_schema = {"$ref": "#/components/schemas/Error"}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or not operation.get("security"):
                continue
            responses = operation.setdefault("responses", {})
            errors = dict(COMMON_ERRORS)
            if any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", [])):
                errors.update(IDEMPOTENCY_ERRORS)
            for status, description in errors.items():
                responses.setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": error_schema}},
                    },
                )
    return result


# --- What every operation says about itself ---------------------------------------------------

OPERATIONS = {
    "wallet_balance": (
        "Read the wallet balance",
        "The balance, what pending holds tie up and what is available now, and the debt left by "
        "recharges reversed after they were credited (a wallet in debt is restricted). In test "
        "mode the balance is a constant 5000.00 and there is never a debt.",
    ),
    "wallet_transactions": (
        "List wallet transactions",
        "Ledger movements, newest first, with a summary of the whole filtered set. Dates are "
        "calendar days in America/Sao_Paulo, both inclusive.",
    ),
    "wallet_recharge_create": (
        "Recharge the wallet by PIX or boleto",
        "Creates a pending recharge with its payment instructions (PIX copy-and-paste and QR "
        "code, or boleto line, page and PDF). The wallet is credited when the payment arrives.",
    ),
    "wallet_recharge_get": (
        "Read a recharge",
        "Its status, and its payment instructions while it is pending.",
    ),
    "wallet_recharge_cancel": (
        "Cancel a pending recharge",
        "The provider's charge is withdrawn, so it can no longer be paid.",
    ),
    "wallet_recharge_simulate_payment": (
        "Pay a test recharge (test keys only)",
        "Simulates the payer paying a test-mode recharge: it completes and is credited.",
    ),
    "wallet_withdrawals_create": (
        "Withdraw to the team's own account",
        "Debits the wallet and sends the amount by PIX to the team's payout key (registered in "
        "the panel): `pending`, then `completed`, or `failed`/`cancelled` with the amount "
        "credited back. Only a key whose holder has the team's own CNPJ or CPF is paid. Test "
        "keys simulate the transfer (docs/withdrawals.md).",
    ),
    "wallet_withdrawals_list": (
        "List withdrawals",
        "The team's withdrawals of this mode, newest first; filter by status.",
    ),
    "wallet_withdrawals_get": (
        "Read a withdrawal",
        "Its status as the payment provider's transfer last reported it, and the key's holder.",
    ),
    "flights_search": (
        "Search flight offers",
        "Offers priced for the agency: the airline fare converted to BRL at a locked rate "
        "(`exchange_rate_used`: the reference rate `fx_reference_rate` plus the FX margin "
        "`fx_margin_percent`, for a fare in another currency than BRL), plus the team's markup "
        "and fee (`client_amount`). Book one by its id before it expires.",
    ),
    "bookings_create": (
        "Book an offer (hold or instant)",
        "A hold is pending until confirmed (no debit); an instant booking is paid from the "
        "wallet now (its `base_cost_brl`) and normally answers ticketed. If the airline's "
        "answer is uncertain the booking answers `confirmed` and is settled shortly after.",
    ),
    "offers_available_services": (
        "List an offer's extra bags",
        "The bags the airline sells with the offer (Duffel's available services), each priced "
        "for the team: `base_cost_brl` at the offer's locked exchange rate, `client_amount` with "
        "the team's markup (no fee). Buy them with an instant booking's `services`.",
    ),
    "offers_seat_maps": (
        "Read an offer's seat maps",
        "One map per segment in Duffel's shape (cabins, rows, sections, elements); each seat "
        "lists a service per passenger who may take it, priced for the team. An empty list: "
        "the seat is taken. Buy a seat with an instant booking's `services`.",
    ),
    "bookings_available_services": (
        "List the bags a booking can add",
        "The extra bags the airline sells for a ticketed booking now (Duffel's order available "
        "services), priced for the team at the booking's own exchange rate.",
    ),
    "bookings_services_add": (
        "Add bags to a booking",
        "Buys extras for a ticketed booking: the payment is their total in the booking's "
        "currency; the wallet is debited their `base_cost_brl` (reference `booking_services`) "
        "and the booking shows them. A lost answer is `services_outcome_unknown`: debited once, "
        "settled by the reconcile job (refunded if the airline did not add them).",
    ),
    "bookings_list": (
        "List bookings",
        "Newest first; filter by status and by creation day (America/Sao_Paulo).",
    ),
    "bookings_get": ("Read a booking", "The full booking with its status and issued tickets."),
    "bookings_confirm": (
        "Pay for a hold",
        "Debits the wallet and issues the tickets automatically (`confirmed`, then `ticketed`).",
    ),
    "bookings_cancel": (
        "Cancel a booking",
        "Asks the supplier for a cancellation quote and confirms it at once (docs/after-sale.md): "
        "the refund is the supplier's confirmed one, credited to the wallet at the booking's "
        "exchange rate (0.00 for a voucher or airline credits); a pending hold costs nothing.",
    ),
    "bookings_cancellations_create": (
        "Quote a cancellation",
        "Asks the supplier what cancelling now would refund, and where to (`refund_to`), with "
        "what the wallet would be credited in BRL. Nothing is cancelled; confirm it before "
        "`expires_at`. A new quote supersedes the earlier ones.",
    ),
    "bookings_cancellations_list": (
        "List a booking's cancellations",
        "Its cancellation quotes and confirmed cancellation, newest first.",
    ),
    "bookings_cancellations_confirm": (
        "Confirm a cancellation",
        "Cancels the booking at the supplier and credits the wallet the supplier's confirmed "
        "cash refund (once). A lost answer is `cancellation_outcome_unknown`: nothing credited, "
        "settled by the reconcile job.",
    ),
    "bookings_airline_changes_list": (
        "List a booking's airline changes",
        "The changes the airline made to the booking's flights (Duffel's airline-initiated "
        "changes), newest first: `removed` the slices as booked, `added` as changed (local "
        "times), what the airline allows (`available_actions`) and what was done "
        "(`action_taken`). Each is also a `booking.airline_change_detected` event.",
    ),
    "bookings_airline_changes_accept": (
        "Accept an airline change",
        "Accepts the change at the supplier and reads it back: once the supplier says "
        "`accepted`, the booking's slices become the change's `added` ones (a `booking.updated` "
        "event with the old slices in `previous_attributes`). To refuse the new times, cancel "
        "the booking (its cancellations: the airline's involuntary refund).",
    ),
    "bookings_change_requests_create": (
        "Ask for flight changes",
        "Asks the supplier for offers to change the booking's slices (Duffel's order change "
        "request), each priced in BRL at the booking's exchange rate with the agency's price "
        "of the change. Nothing changes yet; confirm one before its `expires_at`.",
    ),
    "bookings_changes_create": (
        "Change flights",
        "Confirms a change offer at the supplier: a positive difference is debited from the "
        "wallet (once), a negative one refunded in cash is credited; the booking's slices, "
        "tickets and total follow. A lost answer is `change_outcome_unknown`, settled by the "
        "reconcile job.",
    ),
    "clients_list": (
        "List and search clients",
        "The team's clients of this mode, newest first. `q` searches the name (accents and case "
        "aside), the e-mail and the CPF/CNPJ (with or without its punctuation).",
    ),
    "clients_create": (
        "Create a client",
        "A client record: name and e-mail (unique in the mode), and optionally phone, CPF or "
        "CNPJ (check digits verified), a Brazilian-shaped address and metadata. Name it in a "
        "booking with `client_id`.",
    ),
    "clients_get": ("Read a client", "One client of the team in this mode."),
    "clients_update": (
        "Update a client",
        'Changes only the fields given; null (or "") clears an optional one. `metadata` is '
        'merged: keys given are set, a key given "" is removed, null removes every key.',
    ),
    "reports_sales": (
        "Sales and commission report",
        "The team's bookings with money in the period (São Paulo days, both included, at most "
        "366): per booking its client, route and travel date, the sale's client amount, cost, "
        "markup and fee, its changes and extras, its refunds and the agency's net revenue; the "
        "period's totals on every page. The cost columns sum to the wallet's booking movements "
        "of the same days (docs/reports.md).",
    ),
    "reports_nfse": (
        "Export the agency's NFS-e (CSV)",
        "One line per ticketed booking whose revenue in the period is positive, in Asaas's "
        "invoice field names (`value` what the customer paid, `deductions` the airline's cost), "
        "for the accountant to import: an export, not an issuance (docs/reports.md).",
    ),
    "webhooks_list": ("List webhooks", "The team's endpoints of this mode, with statistics."),
    "webhooks_create": (
        "Register a webhook",
        "The URL is probed first (HTTPS, public, answers within 5 s). The signing `secret` is "
        "shown only in this response.",
    ),
    "webhooks_retrieve": ("Read a webhook", "One endpoint, in the list shape."),
    "webhooks_update": (
        "Change a webhook",
        "Its URL (probed again), its events, or `active` (true reactivates it).",
    ),
    "webhooks_delete": ("Delete a webhook", "Its deliveries and attempts go with it."),
    "webhooks_recover": (
        "Redeliver events since a moment",
        "Every event of the webhook's types since `since`, those missed while it was disabled "
        "included, delivered again from the first attempt.",
    ),
    "webhooks_rotate_secret": (
        "Roll a webhook's secret",
        "A new signing `secret`, shown only in this response. The one it replaces keeps "
        "signing deliveries (`X-Service-Signature-Previous`) for `expire_previous_in_hours` "
        "(24 by default, 0 to 168).",
    ),
    "webhooks_test": (
        "Send a test event now",
        "A signed `webhook.test` event to this webhook only, sent during the request: the "
        "answer is the receiver's (status, excerpt, latency). Never retried and counted toward "
        "nothing; a receiver that fails is still a 200, with `status` `failed`.",
    ),
    "events_list": (
        "List events",
        "The team's events of this mode, newest first, exactly as they are delivered.",
    ),
    "events_retrieve": ("Read an event", "One event, exactly as it is delivered."),
}

# OpenAPI links, so that stateful tools (and readers) can chain operations:
# source operation and status → {link name: (target operation, parameters, request body)}.
LINKS = {
    ("wallet_recharge_create", "201"): {
        "ReadRecharge": ("wallet_recharge_get", {"recharge_id": "$response.body#/data/id"}),
        "CancelRecharge": ("wallet_recharge_cancel", {"recharge_id": "$response.body#/data/id"}),
    },
    ("wallet_withdrawals_create", "201"): {
        "ReadWithdrawal": (
            "wallet_withdrawals_get",
            {"withdrawal_id": "$response.body#/data/id"},
        ),
    },
    ("bookings_create", "201"): {
        "ReadBooking": ("bookings_get", {"booking_id": "$response.body#/id"}),
        "ConfirmBooking": ("bookings_confirm", {"booking_id": "$response.body#/id"}),
        "CancelBooking": ("bookings_cancel", {"booking_id": "$response.body#/id"}),
    },
    ("bookings_cancellations_create", "201"): {
        "ConfirmCancellation": (
            "bookings_cancellations_confirm",
            {
                "booking_id": "$response.body#/data/booking_id",
                "cancellation_id": "$response.body#/data/id",
            },
        ),
    },
    ("bookings_change_requests_create", "201"): {
        "ConfirmChange": (
            "bookings_changes_create",
            {"booking_id": "$response.body#/data/booking_id"},
        ),
    },
    ("clients_create", "201"): {
        "ReadClient": ("clients_get", {"client_id": "$response.body#/data/id"}),
        "UpdateClient": ("clients_update", {"client_id": "$response.body#/data/id"}),
    },
    ("webhooks_create", "201"): {
        "ReadWebhook": ("webhooks_retrieve", {"webhook_id": "$response.body#/data/id"}),
        "UpdateWebhook": ("webhooks_update", {"webhook_id": "$response.body#/data/id"}),
        "DeleteWebhook": ("webhooks_delete", {"webhook_id": "$response.body#/data/id"}),
        "RecoverWebhook": ("webhooks_recover", {"webhook_id": "$response.body#/data/id"}),
        "RotateWebhookSecret": (
            "webhooks_rotate_secret",
            {"webhook_id": "$response.body#/data/id"},
        ),
        "TestWebhook": ("webhooks_test", {"webhook_id": "$response.body#/data/id"}),
    },
    ("events_list", "200"): {
        "ReadEvent": ("events_retrieve", {"event_id": "$response.body#/data/0/id"}),
    },
}
# Search → book: the offer id goes into the booking's body.
BODY_LINKS = {
    ("flights_search", "200"): {
        "BookOffer": ("bookings_create", {"offerId": "$response.body#/offers/0/id"}),
    },
}

META_SCHEMA = {
    "type": "object",
    "description": "Present on every answer to a test key (`sk_test_…`), errors included.",
    "properties": {
        "test_mode": {"type": "boolean", "enum": [True]},
        "message": {"type": "string"},
    },
    "required": ["test_mode", "message"],
}


# Each operation's request and answer from a sandbox journey, captured by the development
# program `python -m tests.tools.capture_api_examples`.
EXAMPLES_FILE = Path(__file__).resolve().parent / "api_examples.json"


@cache
def sandbox_examples() -> dict:
    return json.loads(EXAMPLES_FILE.read_text()) if EXAMPLES_FILE.exists() else {}


def describe_operations(result, generator, request, public):
    """drf-spectacular postprocessing hook: a summary and a description for every operation,
    its sandbox examples, `_meta` on every answer, 405/415, and links between operations."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Meta"] = META_SCHEMA
    error_schema = {"$ref": "#/components/schemas/Error"}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            operation_id = operation["operationId"]
            if operation_id in OPERATIONS:
                operation["summary"], operation["description"] = OPERATIONS[operation_id]
            responses = operation.setdefault("responses", {})
            responses.setdefault(
                "405",
                {
                    "description": "Method not allowed on this path (`Allow` lists those that are)",
                    "content": {"application/json": {"schema": error_schema}},
                },
            )
            if "requestBody" in operation:
                responses.setdefault(
                    "415",
                    {
                        "description": "The body is not `application/json`",
                        "content": {"application/json": {"schema": error_schema}},
                    },
                )
            _attach_examples(operation, sandbox_examples().get(operation_id))
            for status, response in responses.items():
                _declare_meta(schemas, response)
                links = _links(operation_id, status)
                if links:
                    response["links"] = links
    return result


def _attach_examples(operation: dict, example: dict | None) -> None:
    if not example:
        return
    sandbox = {"summary": "From the sandbox (test key)"}
    answer = operation["responses"].get(example["status"], {}).get("content", {})
    for media_type in ("application/json", "text/csv"):  # a file's example is its text
        if media_type in answer:
            answer[media_type].setdefault("examples", {})["Sandbox"] = {
                **sandbox,
                "value": example["response"],
            }
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None and "request" in example:
        body.setdefault("examples", {})["Sandbox"] = {**sandbox, "value": example["request"]}


RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": "Requests allowed in the current window (the one closest to its limit).",
    "RateLimit-Remaining": "Requests left in that window.",
    "RateLimit-Reset": "Seconds until that window ends.",
}


def declare_headers_and_bodies(result, generator, request, public):
    """drf-spectacular postprocessing hook, the last: every answer's headers (once every error
    response exists), and every request body's unknown keys as the service treats them: ignored,
    so `additionalProperties: true` (api/tests/test_schema_declarations.py checks both)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            idempotent = any(
                p.get("name") == "Idempotency-Key" for p in operation.get("parameters", [])
            )
            for status, response in operation.get("responses", {}).items():
                _declare_headers(
                    response,
                    status,
                    authenticated=bool(operation.get("security")),
                    idempotent=idempotent,
                )
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            reference = (body or {}).get("schema", {}).get("$ref", "")
            component = schemas.get(reference.rsplit("/", 1)[-1]) if reference else None
            if component is not None and component.get("type") == "object":
                component["additionalProperties"] = True
                component["description"] = (
                    f"{component.get('description', '').rstrip()}\n\nUnknown keys are ignored."
                ).lstrip()
    return result


def _declare_headers(response: dict, status: str, *, authenticated: bool, idempotent: bool) -> None:
    headers = response.setdefault("headers", {})
    headers["X-Request-Id"] = {
        "description": "The request's id (quote it to support); on every answer.",
        "required": True,
        "schema": {"type": "string"},
    }
    if idempotent and not status.startswith("5") and status != "429":  # those are not stored
        headers["Idempotent-Replayed"] = {
            "description": "`true` when this answer is the stored answer of an earlier request "
            "with the same `Idempotency-Key`; absent otherwise.",
            "schema": {"type": "string", "enum": ["true"]},
        }
    if authenticated and status != "401":
        for name, description in RATE_LIMIT_HEADERS.items():
            headers[name] = {"description": description, "schema": {"type": "integer"}}
    if status == "429":
        headers["Retry-After"] = {
            "description": "Seconds to wait before trying again.",
            "schema": {"type": "integer"},
        }


def _declare_meta(schemas: dict, response: dict) -> None:
    for content in (response.get("content") or {}).values():
        reference = (content.get("schema") or {}).get("$ref", "")
        component = schemas.get(reference.rsplit("/", 1)[-1]) if reference else None
        if component is not None and component.get("type") == "object":
            component.setdefault("properties", {})["_meta"] = {"$ref": "#/components/schemas/Meta"}


def _links(operation_id: str, status: str) -> dict:
    links = {}
    for name, (target, parameters) in LINKS.get((operation_id, status), {}).items():
        links[name] = {"operationId": target, "parameters": parameters}
    for name, (target, body) in BODY_LINKS.get((operation_id, status), {}).items():
        links[name] = {"operationId": target, "requestBody": body}
    return links


# --- Webhook payloads: one component per event type --------------------------------------------

_TIMESTAMP = {"type": "string", "format": "date-time"}
_NULLABLE_TIMESTAMP = {**_TIMESTAMP, "nullable": True}
_MONEY = {"type": "string", "pattern": r"^\d+\.\d{2}$"}
EVENT_OBJECTS = {
    "BookingEventObject": {
        "type": "object",
        "description": "A booking as booking events carry it (no identity documents).",
        "properties": {
            "id": {"type": "string"},
            "booking_reference": {"type": "string"},
            "status": {"$ref": "#/components/schemas/BookingStatusEnum"},
            "total_amount": _MONEY,
            # The latest version's name (api/versions.py; 2026-11-22 said `currency`).
            "total_currency": {"type": "string"},
            "documents": {"type": "array", "items": {"$ref": "#/components/schemas/Document"}},
            "passengers": {
                "type": "array",
                "items": {"$ref": "#/components/schemas/BookingPassenger"},
            },
            "slices": {"type": "array", "items": {"$ref": "#/components/schemas/BookingSlice"}},
            "created_at": _TIMESTAMP,
            "refund": {
                "allOf": [{"$ref": "#/components/schemas/Refund"}],
                "description": "Only in the objects of a cancellation (`booking.cancelled` and "
                "its `booking.updated`): the refund as DELETE /bookings/:id answers it, the "
                "supplier's confirmed refund, where it went, the airline credits and what the "
                "wallet was credited.",
            },
        },
        "required": [
            "id",
            "booking_reference",
            "status",
            "total_amount",
            "total_currency",
            "documents",
            "passengers",
            "slices",
            "created_at",
        ],
    },
    "LowBalanceObject": {
        "type": "object",
        "properties": {
            "object": {"type": "string", "enum": ["balance"]},
            "balance": _MONEY,
            "currency": {"type": "string", "enum": ["BRL"]},
            "threshold": _MONEY,
            "transaction_id": {"type": "string"},
        },
        "required": ["object", "balance", "currency", "threshold", "transaction_id"],
    },
    "ReversalObject": {
        "type": "object",
        "description": "A recharge taken back after it was credited (docs/reversals.md): "
        "refunded or charged back. The wallet was debited what its balance covered "
        "(`transaction`, null when the balance was 0.00); the rest is debt, which restricts the "
        "wallet until credits pay it. A chargeback later decided in the agency's favour comes "
        "again as `cancelled`, with what it had taken credited back (`credit_transaction`).",
        "properties": {
            "id": {"type": "string", "description": "rvs_…"},
            "object": {"type": "string", "enum": ["reversal"]},
            "reason": {"type": "string", "enum": ["refund", "chargeback"]},
            "status": {"type": "string", "enum": ["applied", "cancelled"]},
            "amount": {**_MONEY, "description": "What was taken back by this reversal."},
            "currency": {"type": "string", "enum": ["BRL"]},
            "recharge": {"$ref": "#/components/schemas/Recharge"},
            "transaction": {
                "allOf": [{"$ref": "#/components/schemas/Transaction"}],
                "nullable": True,
                "description": "The debit (`reference_type` `reversal`) of what the balance "
                "covered.",
            },
            "debt_created": {**_MONEY, "description": "What the balance could not cover."},
            "debt_outstanding": {**_MONEY, "description": "What of it is still owed."},
            "credit_transaction": {
                "allOf": [{"$ref": "#/components/schemas/Transaction"}],
                "nullable": True,
                "description": "A cancelled chargeback's credit back.",
            },
            "wallet": {
                "type": "object",
                "description": "The wallet's debt and restriction after this change.",
                "properties": {"debt_amount": _MONEY, "restricted": {"type": "boolean"}},
                "required": ["debt_amount", "restricted"],
            },
            "created_at": _TIMESTAMP,
            "cancelled_at": _NULLABLE_TIMESTAMP,
        },
        "required": [
            "id",
            "object",
            "reason",
            "status",
            "amount",
            "currency",
            "recharge",
            "transaction",
            "debt_created",
            "debt_outstanding",
            "credit_transaction",
            "wallet",
            "created_at",
            "cancelled_at",
        ],
    },
    "IntegrationObject": {
        "type": "object",
        "description": "Never the supplier's access token.",
        "properties": {
            "id": {"type": "string"},
            "object": {"type": "string", "enum": ["integration"]},
            "provider": {"type": "string", "enum": ["duffel"]},
            "status": {"type": "string", "enum": ["active", "disconnected"]},
            "live_mode": {"type": "boolean"},
            "connected_at": _TIMESTAMP,
            "disconnected_at": _NULLABLE_TIMESTAMP,
        },
        "required": ["id", "object", "provider", "status", "live_mode", "connected_at"],
    },
    "ApiKeyObject": {
        "type": "object",
        "description": "The key's display prefix only, never the key.",
        "properties": {
            "id": {"type": "string"},
            "object": {"type": "string", "enum": ["api_key"]},
            "name": {"type": "string"},
            "live_mode": {"type": "boolean"},
            "display_prefix": {"type": "string"},
            "permissions": {
                "type": "array",
                "items": {"type": "string", "enum": list(PERMISSIONS)},
                "nullable": True,
                "description": "What a restricted key may do; null: full access.",
                "example": ["flights:read", "bookings:read", "bookings:write"],
            },
            "created_at": _TIMESTAMP,
            "last_used_at": _NULLABLE_TIMESTAMP,
            "revoked_at": _NULLABLE_TIMESTAMP,
        },
        "required": [
            "id",
            "object",
            "name",
            "live_mode",
            "display_prefix",
            "permissions",
            "created_at",
        ],
    },
}
# Which object each event type carries in `data.object`.
EVENT_OBJECT_OF = {
    "booking.airline_change_detected": "BookingAirlineChangeEventObject",
    "booking": "BookingEventObject",
    "wallet.credit": "Transaction",
    "wallet.debit": "Transaction",
    "wallet.recharge": "Recharge",
    "wallet.withdrawal": "Withdrawal",
    "wallet.low_balance": "LowBalanceObject",
    "wallet.reversal": "ReversalObject",
    "integration": "IntegrationObject",
    "api_key": "ApiKeyObject",
}


def _object_of(event_type: str) -> str:
    return next(name for prefix, name in EVENT_OBJECT_OF.items() if event_type.startswith(prefix))


def event_component_name(event_type: str) -> str:
    """`booking.ticketed` → `BookingTicketedEvent`."""
    words = event_type.replace(".", "_").split("_")
    return "".join(word.capitalize() for word in words) + "Event"


def event_union(event_types) -> dict:
    """An event of any of `event_types`: one of their components (`BookingTicketedEvent`…),
    told apart by `type`, so that a generated client narrows `data.object` by the type. Each
    type has a component of its own although several carry the same object: a discriminator's
    mapping names one schema per value."""
    refs = {t: f"#/components/schemas/{event_component_name(t)}" for t in sorted(event_types)}
    return {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }


def document_webhook_payloads(result, generator, request, public):
    """drf-spectacular postprocessing hook: every event type's delivery payload as a component
    (`BookingTicketedEvent`…), with a real example, referenced from docs/webhooks.md. The types
    are those of the schema's `EventTypeEnum` (webhooks' subscribable types; this app does not
    import webhooks), so it runs after drf-spectacular's enum hook."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    event_types = schemas["EventTypeEnum"]["enum"]
    schemas.update(EVENT_OBJECTS)
    schemas["BookingAirlineChangeEventObject"] = {
        "description": "The booking (as in every booking event) and the change the airline made.",
        "allOf": [
            {"$ref": "#/components/schemas/BookingEventObject"},
            {
                "type": "object",
                "properties": {"airline_change": {"$ref": "#/components/schemas/AirlineChange"}},
                "required": ["airline_change"],
            },
        ],
    }
    examples = sandbox_examples().get("events", {})
    for event_type in sorted(event_types):
        component = {
            "type": "object",
            "description": f"The body of a `{event_type}` delivery (signed; see docs/webhooks.md).",
            "properties": {
                "id": {"type": "string", "description": "evt_…"},
                "type": {"type": "string", "enum": [event_type]},
                "api_version": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
                "created_at": _TIMESTAMP,
                "data": {
                    "type": "object",
                    "properties": {
                        "object": {"$ref": f"#/components/schemas/{_object_of(event_type)}"},
                        "previous_attributes": {
                            "type": "object",
                            "description": "What changed (update-type events), e.g. status.",
                        },
                    },
                    "required": ["object", "previous_attributes"],
                },
                "team_id": {"type": "string"},
                "webhook_id": {"type": "string", "nullable": True},
                "live_mode": {
                    "type": "boolean",
                    "description": "true for the live mode's events, false for the test mode's.",
                },
            },
            "required": [
                "id",
                "type",
                "api_version",
                "created_at",
                "data",
                "team_id",
                "webhook_id",
                "live_mode",
            ],
        }
        if event_type in examples:
            component["example"] = examples[event_type]
        schemas[event_component_name(event_type)] = component
    return result
