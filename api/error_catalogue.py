"""The error catalogue as integrators read it: in the OpenAPI schema (an enum of every code on
`ErrorDetail.code`, and on each operation's error responses the codes it can give, as
`x-error-codes`, a list in the description and one example per code) and in docs/errors.md
(`manage.py error_catalogue`, generated from the schema, `--check` in the tests).

The registry itself is `core.exceptions.ERROR_CATALOGUE`: ApplicationError subclasses register
themselves; a few codes are registered by the module that gives them (`register_error`).
Which operation gives which code is declared here, by operationId: `OPERATION_ERRORS` lists
what is particular to the operation; what every operation can answer (a bad key, the rate
limits, the input limits, the method, the media type, Idempotency-Key) is added from what the
operation declares (security, a request body, the Idempotency-Key parameter)."""

from importlib import import_module

from django.conf import settings

from api.error_remedies import SUPPLIER_GROUPS, Remedy, remedy_for
from core.exceptions import ERROR_CATALOGUE, CataloguedError

# Modules that register codes and that no URL imports (the suppliers are loaded by name).
REGISTERING_MODULES = (
    "flights.suppliers.sandbox",
    "flights.suppliers.duffel",
    "wallet.providers.asaas",
)

# Codes of the flight suppliers (the sandbox's and Duffel's refusals, 502), for the operations
# that call a supplier and pass its refusal on. A code with more than one status (a supplier's
# refusal may share a code of ours) is written `code:status`.
SUPPLIER = "<supplier>"

OPERATION_ERRORS: dict[str, tuple[str, ...]] = {
    "wallet_balance": (),
    "wallet_transactions": (),
    "reports_sales": (),
    "reports_nfse": (),
    "wallet_recharge_create": (
        "amount_below_minimum",
        "amount_above_maximum",
        "invalid_payment_method",
        "daily_limit_exceeded",
        "payment_provider_error:502",
    ),
    "wallet_recharge_get": ("recharge_not_found",),
    "wallet_recharge_cancel": (
        "recharge_not_found",
        "recharge_not_pending",
        "payment_provider_error:502",
    ),
    "wallet_recharge_simulate_payment": ("test_mode_only", "recharge_not_found"),
    "wallet_withdrawals_list": (),
    "wallet_withdrawals_create": (
        "withdrawal_below_minimum",
        "tax_id_required",
        "payout_key_required",
        "withdrawal_daily_limit_exceeded",
        "insufficient_balance",
        "wallet_restricted",
    ),
    "wallet_withdrawals_get": ("withdrawal_not_found",),
    "flights_search": (
        "invalid_airport_code",
        "invalid_date_format",
        "departure_date_in_past",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_create": (
        "offer_not_found:404",
        "client_not_found",
        "offer_expired:400",
        "instant_payment_required:400",
        "invalid_passenger_data",
        "passport_required",
        "payment_amount_mismatch:400",
        "offer_already_booked",
        "insufficient_balance",
        "wallet_restricted",
        "supplier_not_connected",
        "services_need_instant:400",
        "service_not_available:400",
        "service_quantity_invalid:400",
        SUPPLIER,
    ),
    "offers_available_services": (
        "offer_not_found:404",
        "offer_expired:400",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "offers_seat_maps": (
        "offer_not_found:404",
        "offer_expired:400",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_available_services": (
        "booking_not_found",
        "booking_services_unavailable",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_services_add": (
        "booking_not_found",
        "booking_services_unavailable",
        "booking_services_in_progress",
        "service_not_available:400",
        "service_quantity_invalid:400",
        "payment_amount_mismatch:400",
        "insufficient_balance",
        "wallet_restricted",
        "services_outcome_unknown",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_list": (),
    "bookings_get": ("booking_not_found",),
    "bookings_confirm": (
        "payment_amount_mismatch:400",
        "booking_not_found",
        "booking_already_confirmed",
        "booking_already_cancelled",
        "booking_not_payable",
        "booking_outcome_unknown",
        "price_changed:409",
        "insufficient_balance",
        "wallet_restricted",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_cancel": (
        "booking_not_found",
        "booking_already_cancelled",
        "booking_not_cancellable",
        "booking_outcome_unknown",
        "cancellation_in_progress",
        "change_in_progress",
        "cancellation_outcome_unknown",
        "cancellation_not_quotable",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_cancellations_list": ("booking_not_found",),
    "bookings_airline_changes_list": ("booking_not_found", SUPPLIER),
    "bookings_airline_changes_accept": (
        "booking_not_found",
        "airline_change_not_found",
        "airline_change_already_actioned",
        "airline_change_action_unavailable",
        "airline_change_not_accepted",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_cancellations_create": (
        "booking_not_found",
        "booking_already_cancelled",
        "booking_not_cancellable",
        "booking_outcome_unknown",
        "cancellation_in_progress",
        "change_in_progress",
        "supplier_not_connected",
        "cancellation_not_quotable",
        SUPPLIER,
    ),
    "bookings_cancellations_confirm": (
        "booking_not_found",
        "cancellation_not_found",
        "booking_already_cancelled",
        "booking_not_cancellable",
        "booking_outcome_unknown",
        "cancellation_expired",
        "cancellation_superseded",
        "cancellation_in_progress",
        "change_in_progress",
        "cancellation_outcome_unknown",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_change_requests_create": (
        "booking_not_found",
        "booking_not_changeable",
        "booking_outcome_unknown",
        "change_in_progress",
        "cancellation_in_progress",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "bookings_changes_create": (
        "booking_not_found",
        "change_offer_not_found",
        "payment_amount_mismatch:400",
        "booking_not_changeable",
        "booking_outcome_unknown",
        "change_offer_expired",
        "change_in_progress",
        "cancellation_in_progress",
        "insufficient_balance",
        "wallet_restricted",
        "change_outcome_unknown",
        "supplier_not_connected",
        SUPPLIER,
    ),
    "clients_list": (),
    "clients_create": ("client_email_taken",),
    "clients_get": ("client_not_found",),
    "clients_update": ("client_not_found", "client_email_taken"),
    "webhooks_list": (),
    "webhooks_create": (
        "invalid_url",
        "invalid_events",
        "url_already_registered",
        "url_not_reachable",
        "probe_in_progress",
    ),
    "webhooks_retrieve": ("webhook_not_found",),
    "webhooks_update": (
        "webhook_not_found",
        "invalid_url",
        "invalid_events",
        "url_already_registered",
        "url_not_reachable",
        "probe_in_progress",
    ),
    "webhooks_delete": ("webhook_not_found",),
    "webhooks_recover": ("webhook_not_found", "webhook_inactive"),
    "webhooks_rotate_secret": ("webhook_not_found",),
    "webhooks_test": ("webhook_not_found", "probe_in_progress"),
    "events_list": (),
    "events_retrieve": ("event_not_found",),
}

# When each code is answered (the spec's conditions for the spec's errors), for docs/errors.md.
# A code missing here shows its class's docstring; the suppliers' refusals share one text.
WHEN = {
    "amount_below_minimum": "Recharge below the minimum (spec).",
    "amount_above_maximum": "Recharge above R$ 50,000.00 (the spec's per-transaction limit).",
    "invalid_payment_method": "Recharge method not `pix` or `boleto` (spec).",
    "insufficient_balance": "Wallet balance too low for a debit (booking creation or "
    "confirmation) (spec).",
    "daily_limit_exceeded": "Daily recharge limit reached (spec).",
    "recharge_not_found": "Invalid recharge id (spec); also a payment page opened without a "
    "valid token or key.",
    "recharge_not_pending": "Cancelling a recharge that is no longer pending.",
    "wallet_restricted": "The live wallet is in debt after a recharge was refunded or charged "
    "back once credited (docs/reversals.md): new bookings (holds too), hold confirmations, "
    "flight changes that cost something and extras are refused until credits pay the debt.",
    "reversal_check_refused": "Panel: support's check of a recharge's refunds and chargebacks "
    "with the provider, when the provider's answer is not this recharge's payment.",
    "invalid_request": "Missing or invalid fields (spec: flight search with missing or "
    "invalid required fields); `details` names each field. Also an invalid "
    "`Idempotency-Key`, a NUL character in the path or query, a JSON body past the input "
    "limits.",
    "invalid_airport_code": "Search with a non-IATA code (spec).",
    "invalid_date_format": "Search date not `YYYY-MM-DD` (spec).",
    "departure_date_in_past": "Search date not in the future (spec).",
    "unauthorized": "Missing or invalid API key (spec).",
    "rate_limited": "Too many requests (spec): for the team and mode, for searches, for test "
    "events to one webhook, or without a valid key from one address; `Retry-After` says when "
    "to retry.",
    "offer_expired": "Offer past `expires_at` (spec).",
    "invalid_passenger_data": "Incomplete passenger data (spec).",
    "passport_required": "International flight without `identity_documents` (spec).",
    "payment_amount_mismatch": "Payment differs from the offer's original total or currency "
    "(spec).",
    "booking_already_confirmed": "Confirm on a confirmed booking (spec).",
    "price_changed": "409: confirming a hold whose price the airline changed once its price "
    "guarantee ended; `details` carry the new `total_amount`, `total_currency`, "
    "`client_amount` (BRL), `base_cost_brl` and `previous_total_amount`; nothing was "
    "debited: confirm again with the new total. 502: the airline refused an order or a "
    "payment for its price.",
    "booking_already_cancelled": "Cancel on a cancelled booking; cannot be reverted (spec).",
    "invalid_url": "Webhook URL malformed or not HTTPS (spec).",
    "invalid_events": "Unrecognised event types (spec).",
    "webhook_not_found": "Invalid webhook id (spec).",
    "url_already_registered": "Webhook URL already exists (spec).",
    "url_not_reachable": "The service cannot reach the webhook URL (spec).",
    "bad_request": "A request Django refused before any view (a malformed Host header).",
    "not_found": "An unknown path under /api/.",
    "test_mode_only": "Simulating a payment with a live key.",
    "booking_not_found": "Invalid booking id.",
    "client_not_found": "Unknown client id (or another team's or mode's): reading or updating "
    "a client, or a booking's `client_id`.",
    "client_email_taken": "Creating a client, or changing its e-mail, to the e-mail of another "
    "client of the team in this mode.",
    "event_not_found": "Invalid event id, or an event older than the retention.",
    "offer_not_found": "Unknown offer id (or another team's or mode's).",
    "instant_payment_required": "A hold of an offer that must be paid at once.",
    "offer_already_booked": "The offer was booked already (each offer is booked once).",
    "booking_not_payable": "Confirming a booking that is not a pending hold, or past its "
    "payment deadline.",
    "booking_not_cancellable": "Cancelling an expired or failed booking, or after departure.",
    "booking_outcome_unknown": "The supplier has not confirmed the booking's last change yet; "
    "retry in a few minutes.",
    "idempotency_key_reused": "The `Idempotency-Key` was used with a different request.",
    "idempotency_key_in_flight": "The first request with this `Idempotency-Key` is still running.",
    "probe_in_progress": "Another URL of the team is being probed (or a test event sent); "
    "retry shortly.",
    "webhook_inactive": "Recovering events of a disabled webhook.",
    "supplier_not_connected": "Live mode without a connected flight supplier.",
    "payment_provider_error": "The payment provider (Asaas) failed or is not configured.",
    "duplicate_transaction": "Not an API answer: the ledger refuses a second movement of the "
    "same type for one reference.",
    "integration_already_connected": "Panel: connecting a provider already connected.",
    "invitation_invalid": "Panel: an expired or used invitation link.",
    "user_exists": "Panel: accepting an invitation for an e-mail that has a user by then.",
    "already_team_member": "Panel: inviting someone who is already a member of the team.",
    "last_owner": "Panel: demoting or deactivating the team's last active owner.",
    "notification_not_rejected": "Panel: verifying again a notification that was not rejected.",
    "test_event_refused": "Panel: reactivating webhooks whose receiver refused the test event.",
    "supplier_order_absent": "Not an API answer: the reconcile job found no issued order.",
    "cancellation_not_found": "Invalid cancellation id (bcn_) for the booking.",
    "airline_change_not_found": "Invalid airline change id (aic_) for the booking.",
    "airline_change_already_actioned": "Accepting an airline change already accepted, or "
    "answered otherwise (the booking cancelled, changed with the airline).",
    "airline_change_action_unavailable": "Accepting an airline change the airline does not let "
    "be accepted (`available_actions`), of a booking not ticketed, or after departure.",
    "airline_change_not_accepted": "The supplier did not confirm accepting the change, and "
    "reading it back does not show it accepted: nothing changed on the booking.",
    "supplier_webhook_not_configured": "Not an API answer: Duffel's webhook event arrived "
    "without DUFFEL_WEBHOOK_SECRET set (Duffel sends it again).",
    "cancellation_expired": "Confirming a cancellation quote past its `expires_at`.",
    "cancellation_superseded": "Confirming a cancellation quote when a newer one exists (the "
    "supplier confirms only the most recent).",
    "cancellation_in_progress": "A cancellation of the booking is being confirmed, or its "
    "outcome checked with the supplier.",
    "cancellation_outcome_unknown": "The supplier's answer to a cancellation's confirmation was "
    "lost or unreadable: nothing credited, the reconcile job settles it.",
    "concurrency_limited": "Too many requests of the team and mode waiting on a flight "
    "supplier at once (`API_SUPPLIER_CONCURRENCY`, 16); `Retry-After` says when to retry.",
    "cancellation_not_quotable": "The supplier's quote cannot be settled automatically (a "
    "refund in another currency, or of an unknown amount).",
}
WHEN.update(
    {
        "booking_not_changeable": "Changing flights the fare's conditions do not allow, of a "
        "booking not ticketed or departed, or that the airline refuses.",
        "change_offer_not_found": "Invalid change offer id (oco_) for the booking.",
        "change_offer_expired": "Confirming a change offer past its `expires_at` (or that the "
        "airline says expired).",
        "change_in_progress": "A change of the booking is being confirmed, or its outcome "
        "checked with the supplier.",
        "change_outcome_unknown": "The supplier's answer to a change's confirmation was lost or "
        "unreadable: the reconcile job settles it, nothing is debited twice.",
    }
)
SUPPLIER_WHEN = "The flight supplier (the sandbox or Duffel) refused or failed."


def is_supplier_refusal(entry: CataloguedError) -> bool:
    """A flight supplier's refusal passed on (502, registered by flights)."""
    return entry.status == 502 and any(m.startswith("flights.") for m in entry.modules)


def when(entry: CataloguedError) -> str:
    if is_supplier_refusal(entry):
        return SUPPLIER_WHEN
    return WHEN.get(entry.code) or entry.description


AUTHENTICATED = (
    "invalid_request",
    "unauthorized",
    "permission_denied",  # a restricted key outside its permissions (api/key_permissions.py)
    "rate_limited",
    "payload_too_large",
)
EVERY_OPERATION = ("method_not_allowed",)
WITH_BODY = ("unsupported_media_type",)
WITH_IDEMPOTENCY_KEY = ("idempotency_key_reused", "idempotency_key_in_flight")

EXAMPLE_REQUEST_ID = "9f0c2d4e6a8b4c1d8e2f3a5b7c9d1e3f"


def load_error_catalogue() -> dict[tuple[str, int], CataloguedError]:
    """Every registering module imported (the URLs import every view, hence the services and
    selectors), then the registry (without what tests register)."""
    import_module(settings.ROOT_URLCONF)
    for module in REGISTERING_MODULES:
        import_module(module)
    return {key: entry for key, entry in ERROR_CATALOGUE.items() if not _only_tests(entry)}


def _only_tests(entry: CataloguedError) -> bool:
    """Errors that test modules define for themselves are not the service's."""
    return bool(entry.modules) and all(
        module.startswith("tests.") or ".tests." in module for module in entry.modules
    )


def supplier_entries() -> list[CataloguedError]:
    return [entry for entry in load_error_catalogue().values() if is_supplier_refusal(entry)]


def entries_for(code: str) -> list[CataloguedError]:
    """`code` (or `code:status`, for a code with more than one status) in the catalogue."""
    if code == SUPPLIER:
        return supplier_entries()
    code, _, status = code.partition(":")
    found = [
        entry
        for (known, known_status), entry in sorted(load_error_catalogue().items())
        if known == code and (not status or known_status == int(status))
    ]
    if not found:
        raise KeyError(f"{code!r} is not in the error catalogue")
    if len(found) > 1:
        raise KeyError(f"{code!r} has more than one status: write it code:status")
    return found


def operation_error_entries(operation_id: str, operation: dict) -> list[CataloguedError]:
    codes: list[str] = list(EVERY_OPERATION)
    if operation.get("security"):
        codes += AUTHENTICATED
    if "requestBody" in operation:
        codes += WITH_BODY
    if any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", [])):
        codes += WITH_IDEMPOTENCY_KEY
    particular = OPERATION_ERRORS.get(operation_id, ())
    codes += particular
    if SUPPLIER in particular:  # it waits on a supplier: a slot of its team's (api/concurrency.py)
        codes.append("concurrency_limited")
    entries: dict[tuple[str, int], CataloguedError] = {}
    for code in codes:
        for entry in entries_for(code):
            entries[(entry.code, entry.status)] = entry
    return sorted(entries.values(), key=lambda e: (e.status, e.code))


def _error_example(entry: CataloguedError) -> dict:
    return {
        "summary": f"{entry.code}: {entry.message}",
        "value": {
            "success": False,
            "error": {
                "code": entry.code,
                "message": entry.message,
                "details": None,
                "request_id": EXAMPLE_REQUEST_ID,
                "doc_url": f"{EXAMPLE_DOCS_URL}/{entry.code}",
            },
        },
    }


EXAMPLE_DOCS_URL = "https://api.example.com/api/v1/docs/errors"


ERROR_DETAIL_PROPERTIES = {
    "details": {
        "type": "object",
        "nullable": True,
        "description": "Field path (`passengers[1].born_on`, `slices[0].origin`, `body`, "
        "`Idempotency-Key`) → its messages; null when there is nothing to add.",
        "additionalProperties": {"type": "array", "items": {"type": "string"}},
    },
    "request_id": {
        "type": "string",
        "description": "The request's `X-Request-Id` (quote it to support).",
    },
    "doc_url": {
        "type": "string",
        "format": "uri",
        "description": "The code's entry in the error reference: what to do, and whether "
        "sending the same request again can succeed.",
    },
}


def document_error_codes(result, generator, request, public):
    """drf-spectacular postprocessing hook (after api.schema's): the error catalogue in the
    schema. `ErrorDetail.code` is an enum of every code; each operation's error responses list
    the codes they can carry (`x-error-codes`, the description, one example per code)."""
    catalogue = load_error_catalogue()
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    detail = schemas.get("ErrorDetail")
    if detail is not None:
        properties = detail.setdefault("properties", {})
        properties["code"] = {
            "type": "string",
            "enum": sorted({code for code, _ in catalogue}),
            "description": "What went wrong, for programs (see docs/errors.md).",
        }
        properties.update(ERROR_DETAIL_PROPERTIES)
        required = detail.setdefault("required", [])
        required.extend(name for name in ("code", "message", "details") if name not in required)
        required.extend(name for name in ("request_id", "doc_url") if name not in required)
    error_schema = {"$ref": "#/components/schemas/Error"}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            by_status: dict[str, list[CataloguedError]] = {}
            for entry in operation_error_entries(operation["operationId"], operation):
                by_status.setdefault(str(entry.status), []).append(entry)
            responses = operation.setdefault("responses", {})
            for status, entries in by_status.items():
                response = responses.setdefault(
                    status,
                    {
                        "description": entries[0].message,
                        "content": {"application/json": {"schema": error_schema}},
                    },
                )
                _describe_codes(response, entries)
    return result


def _describe_codes(response: dict, entries: list[CataloguedError]) -> None:
    response["x-error-codes"] = [entry.code for entry in entries]
    lines = "\n".join(f"- `{entry.code}`: {' / '.join(entry.messages)}" for entry in entries)
    response["description"] = f"{response.get('description', '').rstrip()}\n\nCodes:\n{lines}"
    content = response.setdefault("content", {}).setdefault("application/json", {})
    examples = content.setdefault("examples", {})
    for entry in entries:
        examples.setdefault(entry.code, _error_example(entry))


# --- docs/errors.md ---------------------------------------------------------------------------

DOC_PATH = "docs/errors.md"


def render_markdown(schema: dict) -> str:
    catalogue = load_error_catalogue()
    lines = [
        "# Errors",
        "",
        "<!-- Generated by `manage.py error_catalogue` from the error registry "
        "(core/exceptions.py) and the OpenAPI schema; do not edit by hand. -->",
        "",
        "Every error answer has one shape, whatever its status:",
        "",
        "```json",
        "{",
        '  "success": false,',
        '  "error": {',
        '    "code": "invalid_passenger_data",',
        '    "message": "Invalid passenger data",',
        '    "details": {"passengers[1].born_on": ["An infant is under 2 on the return date."]},',
        f'    "request_id": "{EXAMPLE_REQUEST_ID}",',
        f'    "doc_url": "{EXAMPLE_DOCS_URL}/invalid_passenger_data"',
        "  }",
        "}",
        "```",
        "",
        "- `code`: what went wrong, for programs; stable. The list below is complete: the "
        "schema's `ErrorDetail.code` is an enum of these codes.",
        "- `message`: for people, in English (the spec's messages are kept word for word).",
        "- `details`: an object mapping a field path (`passengers[1].born_on`, "
        "`slices[0].origin`, `Idempotency-Key`, or `body` for the whole body) to a list of "
        "messages; `null` when there is nothing to add.",
        "- `request_id`: the same value as the answer's `X-Request-Id` header. Quote it to "
        "support: every log line of the request carries it.",
        "- `doc_url`: the code's page in the error reference the service serves "
        "(`/api/v1/docs/errors/<code>`, under `ERROR_DOCS_URL`): its messages, what to do and "
        "whether a retry can succeed, as in the table below.",
        "- Answers to a test key add `_meta`; a `429` says when to retry in `Retry-After`.",
        "- A replayed answer (same `Idempotency-Key`, same request) is the first one, but its "
        "`request_id` is the replay's own.",
        "",
        "## How the catalogue is kept",
        "",
        "- The registry is `core.exceptions.ERROR_CATALOGUE`, keyed by (code, status). An "
        "`ApplicationError` subclass registers itself when it is defined (its `code`, "
        "`status_code`, `message`, the variants in `messages`); codes given at a raise site "
        "(the flight suppliers', the payment pages') are registered with `register_error` by "
        "the module that gives them.",
        "- `api.exceptions.error_body` is the one place an error body is built (DRF's "
        "exception handler, the plain Django error views, the API middleware): it puts "
        "`details` in the one shape (`error_details`) and adds `request_id` (django-guid).",
        "- The tests run with `ERROR_CATALOGUE_STRICT`: an answer whose code, status or "
        "message is not registered fails the test that provoked it, so the whole suite "
        "exercises the catalogue.",
        "- Which operation answers which code is declared in `api/error_catalogue.py` "
        "(`OPERATION_ERRORS`); a drf-spectacular hook puts the codes on each operation's error "
        "responses. api/tests/test_error_catalogue.py provokes each kind of error and checks "
        "the answer against the catalogue and the operation's `x-error-codes`.",
        "- After adding or changing an error: `manage.py error_catalogue` rewrites this file; "
        "`--check` (and a test) fails while it is stale.",
        "- Non-field facts in `details` (a booking's `status`, a supplier's `status` and "
        "`request_id`) are listed under their name, as one-message lists.",
        "",
        "## Codes",
        "",
        "A `{name}` in a message stands for a variable part. A code has one status, except a "
        "flight supplier's refusal (502) that shares a code of ours.",
        "",
        "**Retry** says whether sending the very same request again can succeed: *no* (change "
        "the request), *yes* (later, backing off, with the same `Idempotency-Key`), or *after "
        "action* (once what **What to do** says is done). The flight suppliers' refusals (502) "
        "are grouped under [Supplier refusals](#supplier-refusals), one remedy per group.",
        "",
        "| Status | Code | Message | When | What to do | Retry | Raised in |",
        "|---|---|---|---|---|---|---|",
    ]
    for entry in sorted(catalogue.values(), key=lambda e: (e.status, e.code)):
        if is_supplier_refusal(entry):
            continue
        messages = "<br>".join(_cell(message) for message in entry.messages)
        modules = ", ".join(f"`{module}`" for module in sorted(entry.modules))
        remedy = remedy_for(entry.code, supplier=False)
        lines.append(
            f"| {entry.status} | `{entry.code}` | {messages} | {_cell(when(entry))} "
            f"| {_remedy_cells(remedy)} | {modules} |"
        )
    lines += ["", "## Supplier refusals", ""]
    lines += [
        "A flight supplier's refusal is passed on as a 502 with the supplier's own code "
        f"(“{SUPPLIER_WHEN}”). What to do depends on the group:",
        "",
        "| Group | Codes | What to do | Retry |",
        "|---|---|---|---|",
    ]
    for group in SUPPLIER_GROUPS:
        grouped = ", ".join(f"`{code}`" for code in group.codes)
        lines.append(f"| {group.title} | {grouped} | {_remedy_cells(group.remedy)} |")
    lines += ["", "Their messages:", "", "| Code | Messages |", "|---|---|"]
    for entry in sorted(supplier_entries(), key=lambda e: e.code):
        messages = "<br>".join(_cell(message) for message in entry.messages)
        lines.append(f"| `{entry.code}` | {messages} |")
    common = sorted({*EVERY_OPERATION, *AUTHENTICATED, *WITH_BODY, *WITH_IDEMPOTENCY_KEY})
    suppliers = {entry.code for entry in supplier_entries()}
    lines += [
        "",
        "## By operation",
        "",
        "Besides the codes below, every operation can answer `method_not_allowed` (405); with "
        "an API key, `invalid_request` (400), `unauthorized` (401), `permission_denied` (403), "
        "`payload_too_large` (413) "
        "and `rate_limited` (429); with a body, `unsupported_media_type` (415); with an "
        "`Idempotency-Key`, `idempotency_key_reused` and `idempotency_key_in_flight` (409). "
        "“Supplier refusals” are the 502 codes of the flight suppliers above. The schema "
        "lists them all on each error response (`x-error-codes`, with an example per code).",
        "",
        "| Operation | Codes |",
        "|---|---|",
    ]
    for path, methods in schema.get("paths", {}).items():
        for method, operation in methods.items():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            groups = []
            for status, response in sorted(operation.get("responses", {}).items()):
                codes = [c for c in response.get("x-error-codes", ()) if c not in common]
                if status == "502" and suppliers & set(codes):
                    codes = [c for c in codes if c not in suppliers] + ["supplier refusals"]
                if codes:
                    listed = ", ".join(c if " " in c else f"`{c}`" for c in codes)
                    groups.append(f"{status}: {listed}")
            name = f"`{operation['operationId']}` ({method.upper()} {path})"
            lines.append(f"| {name} | {'<br>'.join(groups) or '—'} |")
    return "\n".join(lines) + "\n"


def _remedy_cells(remedy: Remedy | None) -> str:
    if remedy is None:
        return "— | —"
    return f"{_cell(remedy.action)} | {remedy.retry.value.replace('_', ' ')}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def generated_schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)
