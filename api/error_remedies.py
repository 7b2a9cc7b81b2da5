"""What an integrator does about each error code, and whether sending the same request again can
succeed. Read by the error catalogue (docs/errors.md, the /docs/errors page every error's
`doc_url` points at). Every catalogued code has an entry (api/tests/test_error_remedies.py); the
flight suppliers' refusals (502) share one remedy per group, as their codes are many and their
causes few."""

from dataclasses import dataclass
from enum import StrEnum


class Retry(StrEnum):
    """Can the very same request succeed if it is sent again?"""

    NO = "no"  # it fails the same way until the request changes
    YES = "yes"  # later, with backoff (and the same Idempotency-Key for a POST)
    AFTER_ACTION = "after_action"  # once something outside the request changes (listed)

    @property
    def label(self) -> str:
        return {
            Retry.NO: "No: change the request",
            Retry.YES: "Yes, later (back off; keep the Idempotency-Key)",
            Retry.AFTER_ACTION: "Yes, once the cause is fixed",
        }[self]


@dataclass(frozen=True)
class Remedy:
    action: str
    retry: Retry


def _remedy(action: str, retry: Retry) -> Remedy:
    return Remedy(action, retry)


READ_DETAILS = "Correct the fields `details` names and send the request again."
SEARCH_AGAIN = "Search again and book one of the new offers."

REMEDIES: dict[str, Remedy] = {
    # 400: the request itself
    "amount_above_maximum": _remedy(
        "Split the amount into recharges of at most R$ 50,000.00.", Retry.NO
    ),
    "amount_below_minimum": _remedy("Recharge at least R$ 100.00.", Retry.NO),
    "bad_request": _remedy("Send the request to the API's own host name.", Retry.NO),
    "departure_date_in_past": _remedy("Search a departure date from today on.", Retry.NO),
    "instant_payment_required": _remedy(
        'Book the offer with `"type": "instant"` (it is paid and ticketed at once).', Retry.NO
    ),
    "invalid_airport_code": _remedy(
        "Use a three-letter IATA airport or city code (`GRU`, `SAO`).", Retry.NO
    ),
    "invalid_date_format": _remedy("Write dates as `YYYY-MM-DD`.", Retry.NO),
    "invalid_events": _remedy(
        "Subscribe only to the event types listed in docs/webhooks.md (`details` names the "
        "unknown ones).",
        Retry.NO,
    ),
    "invalid_api_version": _remedy(
        "Send one of the versions `details` lists in `Api-Version` (docs/changelog.md), or no "
        "header to use the team's pinned version.",
        Retry.NO,
    ),
    "invalid_passenger_data": _remedy(READ_DETAILS, Retry.NO),
    "invalid_payment_method": _remedy('Use `"method": "pix"` or `"boleto"`.', Retry.NO),
    "invalid_request": _remedy(READ_DETAILS, Retry.NO),
    "invalid_url": _remedy("Register an absolute `https://` URL.", Retry.NO),
    "offer_expired": _remedy(SEARCH_AGAIN, Retry.NO),
    "passport_required": _remedy(
        "Add each passenger's passport in `identity_documents` for an international flight.",
        Retry.NO,
    ),
    "payment_amount_mismatch": _remedy(
        "Pay exactly the offer's `total_amount` in its `total_currency` (read the offer again).",
        Retry.NO,
    ),
    "service_not_available": _remedy(
        "Read the offer's or booking's `available_services` again and choose from them.",
        Retry.NO,
    ),
    "service_quantity_invalid": _remedy(
        "Ask for at most the service's `maximum_quantity`, and one seat per passenger and flight.",
        Retry.NO,
    ),
    "services_need_instant": _remedy(
        'Book with `"type": "instant"` to buy extras with the booking, or add them after '
        "ticketing (`POST /bookings/:id/services`).",
        Retry.NO,
    ),
    "withdrawal_below_minimum": _remedy(
        "Withdraw at least the minimum the message names.", Retry.NO
    ),
    # 401, 403
    "unauthorized": _remedy(
        "Send `Authorization: Bearer <key>` with an active key (the panel lists them).", Retry.NO
    ),
    "forbidden": _remedy("Use a key or a panel user allowed to do this.", Retry.NO),
    "permission_denied": _remedy(
        "Use a key with the permission `details.permission` names, or ask an owner or "
        "developer to create one in the panel.",
        Retry.NO,
    ),
    "test_mode_only": _remedy("Simulate payments with a test key (`sk_test_…`).", Retry.NO),
    # 404
    "airline_change_not_found": _remedy(
        "List the booking's airline changes and use one of their ids.", Retry.NO
    ),
    "booking_not_found": _remedy(
        "Check the id, and the key's mode: a test key sees only test bookings.", Retry.NO
    ),
    "cancellation_not_found": _remedy(
        "Ask for a new cancellation quote and confirm its id.", Retry.NO
    ),
    "change_offer_not_found": _remedy(
        "Create a new change request and confirm one of its offers.", Retry.NO
    ),
    "client_not_found": _remedy(
        "Check the id, and the key's mode: clients are per team and mode.", Retry.NO
    ),
    "event_not_found": _remedy(
        "Check the id; events are kept for the retention period (docs/webhooks.md).", Retry.NO
    ),
    "not_found": _remedy("Check the path against the API reference (`/docs`).", Retry.NO),
    "offer_not_found": _remedy(
        "Book an offer from a search made with a key of the same team and mode.", Retry.NO
    ),
    "recharge_not_found": _remedy(
        "Check the id, and the key's mode: a test key sees only test recharges.", Retry.NO
    ),
    "webhook_not_found": _remedy("List the team's webhooks and use one of their ids.", Retry.NO),
    "withdrawal_not_found": _remedy(
        "Check the id, and the key's mode: a test key sees only test withdrawals.", Retry.NO
    ),
    # 405, 406
    "method_not_allowed": _remedy("Use one of the methods the `Allow` header lists.", Retry.NO),
    "not_acceptable": _remedy("Accept `application/json`.", Retry.NO),
    # 409: the resource's state
    "airline_change_action_unavailable": _remedy(
        "Read the change's `available_actions`; contact the airline (or support) for the others.",
        Retry.NO,
    ),
    "airline_change_already_actioned": _remedy(
        "Read the booking: the change was answered already.", Retry.NO
    ),
    "already_team_member": _remedy("Nothing to do: the person is in the team.", Retry.NO),
    "booking_already_cancelled": _remedy("Nothing to do: the booking is cancelled.", Retry.NO),
    "booking_already_confirmed": _remedy("Nothing to do: the booking is confirmed.", Retry.NO),
    "booking_not_cancellable": _remedy(
        "Read the booking's `status`: an expired or failed booking has nothing to cancel.",
        Retry.NO,
    ),
    "booking_not_changeable": _remedy(
        "Read the booking's `conditions`; the airline may still change it by phone.", Retry.NO
    ),
    "booking_not_payable": _remedy(
        "Read the booking's `status`: only a pending hold before `payment_required_by` can be "
        "confirmed. Book again if it expired.",
        Retry.NO,
    ),
    "booking_outcome_unknown": _remedy(
        "Wait for the booking's next event (or read it in a few minutes), then act on its status.",
        Retry.YES,
    ),
    "booking_services_in_progress": _remedy(
        "Wait for the `booking.services_added` event (or read the booking), then buy again if "
        "still needed.",
        Retry.YES,
    ),
    "booking_services_unavailable": _remedy(
        "Extras are added to a ticketed booking before departure; read its `status`.", Retry.NO
    ),
    "cancellation_expired": _remedy("Ask for a new cancellation quote and confirm it.", Retry.NO),
    "cancellation_in_progress": _remedy(
        "Wait for the `booking.cancelled` event (or read the booking).", Retry.YES
    ),
    "cancellation_superseded": _remedy("Confirm the booking's newest quote.", Retry.NO),
    "change_in_progress": _remedy(
        "Wait for the `booking.updated` event (or read the booking).", Retry.YES
    ),
    "change_offer_expired": _remedy(
        "Create a new change request and confirm one of its offers.", Retry.NO
    ),
    "client_email_taken": _remedy(
        "Use the existing client (search `?q=` by e-mail) or another e-mail.", Retry.NO
    ),
    "duplicate_transaction": _remedy(
        "Nothing to do: the movement was recorded once already.", Retry.NO
    ),
    "idempotency_key_in_flight": _remedy(
        "Wait, then send the same request with the same key: you get the first one's answer.",
        Retry.YES,
    ),
    "idempotency_key_reused": _remedy(
        "Use a new Idempotency-Key for a different request.", Retry.NO
    ),
    "integration_already_connected": _remedy(
        "Disconnect the integration in the panel before connecting it again.", Retry.NO
    ),
    "invitation_invalid": _remedy("Ask a team owner for a new invitation.", Retry.NO),
    "last_owner": _remedy(
        "Make another member owner first: a team keeps at least one active owner.", Retry.NO
    ),
    "notification_not_rejected": _remedy(
        "Nothing to do: the notification was applied or ignored.", Retry.NO
    ),
    "offer_already_booked": _remedy(SEARCH_AGAIN, Retry.NO),
    "price_changed": _remedy(
        "Read `details` (the new amounts); confirm again if the client accepts them.", Retry.NO
    ),
    "recharge_not_pending": _remedy("Read the recharge's `status`: it is final.", Retry.NO),
    "reversal_check_refused": _remedy(
        "Check the payment in the provider's dashboard; try again later.", Retry.YES
    ),
    "test_event_refused": _remedy(
        "Make the receiver answer 2xx to the test event, then reactivate.", Retry.AFTER_ACTION
    ),
    "url_already_registered": _remedy(
        "Use the webhook already registered for the URL (list the webhooks).", Retry.NO
    ),
    "user_exists": _remedy("Log in with the existing user (or reset its password).", Retry.NO),
    "webhook_inactive": _remedy(
        "Reactivate the webhook (PATCH `active: true`), then recover its events.",
        Retry.AFTER_ACTION,
    ),
    "withdrawal_not_pending": _remedy("Nothing to do: the withdrawal is final.", Retry.NO),
    # 410, 413, 415
    "payment_page_expired": _remedy("Create a new recharge.", Retry.NO),
    "payload_too_large": _remedy("Send a body under 1 MiB.", Retry.NO),
    "unsupported_media_type": _remedy("Send the body as `application/json`.", Retry.NO),
    # 422: the team's situation
    "daily_limit_exceeded": _remedy(
        "Recharge again the next São Paulo day, or ask support about the limit.",
        Retry.AFTER_ACTION,
    ),
    "insufficient_balance": _remedy(
        "Recharge the wallet (or wait for a pending recharge), then send the request again.",
        Retry.AFTER_ACTION,
    ),
    "payout_key_required": _remedy(
        "An owner or finance user registers the payout PIX key in the panel.", Retry.AFTER_ACTION
    ),
    "supplier_not_connected": _remedy(
        "Connect a flight supplier (support does it), or use a test key meanwhile.",
        Retry.AFTER_ACTION,
    ),
    "tax_id_required": _remedy(
        "Add the team's CNPJ or CPF in the panel (Equipe).", Retry.AFTER_ACTION
    ),
    "url_not_reachable": _remedy(
        "Make the URL answer over HTTPS from the internet, then register it again.",
        Retry.AFTER_ACTION,
    ),
    "wallet_restricted": _remedy(
        "Recharge the wallet to pay its debt (`debt_amount` in the balance); it is unrestricted "
        "once paid.",
        Retry.AFTER_ACTION,
    ),
    "withdrawal_daily_limit_exceeded": _remedy(
        "Withdraw the rest the next São Paulo day.", Retry.AFTER_ACTION
    ),
    # 429
    "concurrency_limited": _remedy("Wait `Retry-After` seconds and send it again.", Retry.YES),
    "probe_in_progress": _remedy("Wait `Retry-After` seconds and send it again.", Retry.YES),
    "rate_limited": _remedy(
        "Wait `Retry-After` seconds; spread requests out (`RateLimit-*` headers).", Retry.YES
    ),
    # 5xx
    "internal_error": _remedy(
        "Retry later; if it persists, send support the `request_id`.", Retry.YES
    ),
    "airline_change_not_accepted": _remedy(
        "Read the airline change again in a few minutes, then accept it again if still needed.",
        Retry.YES,
    ),
    "cancellation_not_quotable": _remedy(
        "Ask support to cancel it with the airline (quote the `request_id`).",
        Retry.AFTER_ACTION,
    ),
    "cancellation_outcome_unknown": _remedy(
        "Do not confirm again: wait for `booking.cancelled` or read the booking later.",
        Retry.NO,
    ),
    "change_outcome_unknown": _remedy(
        "Do not confirm again: wait for `booking.updated` or read the booking later.", Retry.NO
    ),
    "payment_provider_error": _remedy("Retry later with the same Idempotency-Key.", Retry.YES),
    "services_outcome_unknown": _remedy(
        "Do not buy again: wait for `booking.services_added` or read the booking later.",
        Retry.NO,
    ),
    "supplier_order_absent": _remedy("Support handles it; nothing to do.", Retry.NO),
    "supplier_webhook_not_configured": _remedy(
        "Nothing to do: the supplier sends the event again.", Retry.YES
    ),
}


@dataclass(frozen=True)
class SupplierGroup:
    slug: str  # the anchor of the group in the docs
    title: str
    remedy: Remedy
    codes: tuple[str, ...]


# The flight suppliers' refusals (502), by what the integrator does about them.
SUPPLIER_GROUPS = (
    SupplierGroup(
        "supplier-unavailable",
        "The supplier failed or is busy",
        _remedy(
            "Retry later with the same Idempotency-Key. Before retrying a booking, a confirm or "
            "a cancellation, read the booking: the message says when it may have changed.",
            Retry.YES,
        ),
        (
            "supplier_unavailable",
            "supplier_error",
            "supplier_bad_response",
            "supplier_rate_limited",
        ),
    ),
    SupplierGroup(
        "supplier-offer-gone",
        "The offer or quote is gone",
        _remedy(
            "Search again (or ask for a new quote or change offer) and use the new one.", Retry.NO
        ),
        (
            "offer_expired",
            "offer_no_longer_available",
            "offer_not_found",
            "price_changed",
            "quote_expired",
            "quote_not_found",
            "order_expired",
            "order_change_offer_expired",
            "order_change_offer_not_found",
        ),
    ),
    SupplierGroup(
        "supplier-refused-data",
        "The airline refused the request's data",
        _remedy(
            "Correct the request as the message and `details` say (passengers, services, "
            "amounts, the fare's conditions), then send it again.",
            Retry.NO,
        ),
        (
            "invalid_passenger",
            "supplier_validation_error",
            "payment_amount_mismatch",
            "service_not_available",
            "service_quantity_invalid",
            "services_need_instant",
            "instant_payment_required",
            "change_not_allowed",
        ),
    ),
    SupplierGroup(
        "supplier-state",
        "The order is not in the state the request needs",
        _remedy(
            "Read the booking: it shows the order's state now (cancelled, changed, paid or not).",
            Retry.NO,
        ),
        (
            "order_already_cancelled",
            "order_change_already_confirmed",
            "order_change_not_found",
            "order_not_found",
            "order_not_paid",
            "order_not_created",
            "supplier_not_found",
        ),
    ),
    SupplierGroup(
        "supplier-outcome-unknown",
        "The outcome is not known yet",
        _remedy(
            "Do not send it again: we check with the supplier and send the booking's event "
            "(or `booking.failed`) when it is known.",
            Retry.NO,
        ),
        ("supplier_outcome_unknown", "order_pending", "issuance_failed"),
    ),
    SupplierGroup(
        "supplier-account",
        "The connection to the supplier needs support",
        _remedy(
            "Tell support (quote the `request_id`): the supplier account's access or balance "
            "needs fixing.",
            Retry.AFTER_ACTION,
        ),
        ("supplier_authentication_failed", "supplier_insufficient_balance"),
    ),
)

SUPPLIER_GROUP_OF = {code: group for group in SUPPLIER_GROUPS for code in group.codes}


def remedy_for(code: str, *, supplier: bool) -> Remedy | None:
    """A supplier's refusal (a 502 from flights) takes its group's remedy; the rest their own."""
    if supplier and code in SUPPLIER_GROUP_OF:
        return SUPPLIER_GROUP_OF[code].remedy
    return REMEDIES.get(code)
