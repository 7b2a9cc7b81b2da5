"""Duffel (duffel.com/docs/api, version v2): real offers, orders and tickets from hundreds of
airlines, through the team's own Duffel access token (the `Integration`).

Calls (JSON bodies wrapped in `{"data": ...}`, answers likewise):

- search: `POST /air/offer_requests?return_offers=true&supplier_timeout=<ms>` with the slices
  (the requested codes: Duffel takes IATA city codes as well as airports), the passengers and
  the cabin; the offers come back in the same answer.
- create_order: `POST /air/orders`, type `hold` (no payment) or `instant` (paid from the Duffel
  balance), the passengers by the offer request's ids, and `metadata: {"booking_id": "ord_…"}`
  (Duffel's metadata: string values). It reads only `offer.supplier_offer_id` from the stored
  offer; the amount and currency paid are the method's arguments.
- pay_order: `POST /air/payments` (balance), then `GET /air/orders/{id}` for the tickets.
- get_order: `GET /air/orders/{id}`.
- find_order: `GET /air/orders?limit=200&passenger_name[]=<lead family name>`, following
  `meta.after` for at most MAX_ORDER_PAGES pages, for the order whose `metadata.booking_id` is
  ours.
- quote_cancellation: `POST /air/order_cancellations`; confirm_cancellation:
  `POST /air/order_cancellations/{id}/actions/confirm`.
- list_airline_changes: `GET /air/airline_initiated_changes?order_id=…`; accept_airline_change:
  `POST /air/airline_initiated_changes/{id}/actions/accept` (a change: its answer is read back).

Mapping decisions (Duffel's nulls included):

- Amounts are strings at Duffel and stay Decimal (the JSON is read with `parse_float=Decimal`
  too), in the offer's `total_currency` (any currency: pricing converts it to BRL). A missing
  `base_amount` or `tax_amount`, or one in another currency than the total's (`base_currency`,
  `tax_currency`), is the total minus the other (both: base = total, tax = 0).
- Passengers are sent as `{"type": "adult"}`, `{"type": "infant_without_seat"}` and, for a
  child, `{"age": CHILD_AGE}`: Duffel prices children by age and our search has no ages.
  `supplier_passenger_ids` are the offer request's passenger ids in the order of
  `SearchRequest.passengers`: each of ours takes the first Duffel passenger of its kind (`type`,
  or `age` when searched by age), else Duffel's order. Names on them are ignored.
- Segment times are Duffel's local wall-clock times, kept naive. Durations are ISO 8601
  (`PT2H26M`, `P1DT2H`) in minutes (seconds rounded); a missing duration is computed from the
  local times and the airports' time zones (Duffel's `time_zone`, else ours).
- Aircraft unknown (null): `""`. Distance unknown (null): the great-circle distance between the
  airports (`flights.airports`), or 0 for an airport we do not know. Operating flight number
  unknown: the marketing one when the same airline operates, else `""`. Fare brand, cabin
  marketing name and fare basis unknown: `""` (the cabin's name for the marketing name).
- Cabin, fare basis and baggage are those of the first passenger of the search (an adult).
- A condition that is null (the airline did not say) counts as not allowed; an allowed one with
  no penalty amount keeps `penalty_amount=None` (unknown, not free).
- Instants (expiry, hold deadlines) are aware UTC. An offer that requires instant payment has no
  hold deadlines (`payment_required_by` and `price_guarantee_expires_at` are None). A holdable
  offer whose `payment_required_by` is null stays holdable; the deadline comes with the order.
- An offer that cannot be read is left out of the results (and logged), not the whole search.
- Offers' document rules: `passenger_identity_documents_required` (anything but `true` is
  false) and the allowed types from `supported_passenger_identity_document_types`, else
  `allowed_passenger_identity_document_types` (its earlier name), else passports only; types
  other than ours (`passenger_redress_number`) are dropped.
- Order passengers: at most one identity document, the first of a type the offer allows;
  `loyalty_programme_accounts` as given.
- An order's `total_amount`, `total_currency`, and its base and tax amounts when in the total's
  currency, are read into the SupplierOrder: a hold's price may change once its guarantee ends.
- Order documents: only `electronic_ticket` ones, for the first of their `passenger_ids`.
  `awaiting_payment` is `payment_status.awaiting_payment`; `cancelled` is `cancelled_at` set.
- Order passengers: Duffel requires a title among mr, ms, mrs, miss, dr; a missing or other
  title becomes "mr" (gender m) or "ms" (gender f).

Errors become `SupplierError` with an agency-safe message, a code and, for HTTP errors, details
(status, Duffel's `request_id` and its errors' type/code/title/message/field). Known Duffel codes
first (offer_no_longer_available, offer_expired, price_changed, insufficient_balance,
already_cancelled, order_not_created), then by status: 401/403 supplier_authentication_failed,
404 a not-found code per call (offer_not_found, order_not_found, quote_not_found), 422
validation_error supplier_validation_error, 429 supplier_rate_limited, 5xx supplier_unavailable,
any other refusal supplier_error. Connection errors and timeouts are supplier_unavailable. A
success we cannot read is supplier_bad_response.

When creating an order or paying may have taken effect anyway, the error is
SupplierOutcomeUnknown (code supplier_outcome_unknown), never a refusal: a read timeout or a
connection dropped after the request was sent, a 5xx without one of the known codes above, an
unreadable 2xx, a 202 on order creation (accepted, not confirmed: code order_pending), and a
payment whose order cannot be read back. A request that never reached Duffel (connect timeout,
refused, a name that does not resolve, a failed TLS handshake) is a plain SupplierError.
Confirming a cancellation that may have taken effect is a plain SupplierError whose message says
to check before retrying.

Timeouts: connect 5 s; read 30 s for searches, 130 s for everything else (Duffel's advice for
orders). The access token lives
only in the session's Authorization header: it is never logged, put in an error or in `repr`.

The package, by resource as Duffel's own SDK (duffel_api) splits them: `supplier`
(DuffelSupplier, the FlightSupplier interface), `http_client` (the session, timeouts and what
failed answers become), `errors` (the codes and messages, in the error catalogue under this
package's name), `offer_requests` (search), `offers` (an offer read into a SupplierOffer),
`orders`, `payments`, `order_cancellations`, `airline_initiated_changes`, and `values` (amounts,
instants, durations, codes).
The names callers use are exported here.
"""

from flights.suppliers.duffel.orders import order_passenger
from flights.suppliers.duffel.supplier import DuffelSupplier
from flights.suppliers.duffel.values import duration_minutes

__all__ = ["DuffelSupplier", "duration_minutes", "order_passenger"]
