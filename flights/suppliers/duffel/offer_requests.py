"""Offer requests (duffel_api's `api/booking/offer_requests.py`): a search is
`POST /air/offer_requests?return_offers=true&supplier_timeout=<ms>` with the slices (the
requested codes: Duffel takes IATA city codes as well as airports), the passengers and the
cabin; the offers come back in the same answer (read by `offers`)."""

import logging

from flights.suppliers.base import PassengerType, SearchRequest, SupplierOffer
from flights.suppliers.duffel.errors import READ_ERRORS, Unreadable
from flights.suppliers.duffel.http_client import SEARCH_TIMEOUT, DuffelClient, read
from flights.suppliers.duffel.offers import OfferContext, offer_from

# One logger for the package, under the name it had as one module.
logger = logging.getLogger("flights.suppliers.duffel")

# How long Duffel waits for each airline (2 to 60 s): below our read timeout, so that Duffel
# answers with the offers it has rather than our request timing out with none.
SUPPLIER_TIMEOUT_MS = 20_000
# The age sent for a child passenger: our searches carry types, Duffel wants children's ages.
# 8 is a child (2 to 11) for every airline.
CHILD_AGE = 8


def create(
    client: DuffelClient, request: SearchRequest, *, supplier_timeout_ms: int | None
) -> list[SupplierOffer]:
    """The offers of a search; an offer that cannot be read is left out (and logged)."""
    params = {"return_offers": "true"}
    if supplier_timeout_ms:
        params["supplier_timeout"] = str(supplier_timeout_ms)
    body = {
        "slices": [
            {
                "origin": s.origin,
                "destination": s.destination,
                "departure_date": s.departure_date.isoformat(),
            }
            for s in request.slices
        ],
        "passengers": [search_passenger(kind) for kind in request.passengers],
        "cabin_class": request.cabin_class,
    }
    data = client.call(
        "POST", "/air/offer_requests", body=body, params=params, timeout=SEARCH_TIMEOUT
    )
    passenger_ids = read(_passenger_ids, data, request.passengers)
    context = OfferContext(passenger_ids=passenger_ids, cabin_class=request.cabin_class)
    offers = []
    for raw in data.get("offers") or []:
        try:
            offers.append(offer_from(raw, context))
        except READ_ERRORS as exc:
            offer_id = raw.get("id") if isinstance(raw, dict) else None
            logger.warning("Left out unreadable Duffel offer %s: %r", offer_id, exc)
    return offers


def search_passenger(kind: PassengerType) -> dict:
    if kind == "child":
        return {"age": CHILD_AGE}
    return {"type": kind}  # "adult" or "infant_without_seat"


def _passenger_ids(data: dict, kinds: tuple[PassengerType, ...]) -> tuple[str, ...]:
    """Duffel's passenger ids in the order of our search's passengers. Each of ours takes the
    first unused Duffel passenger of its kind (by `type`, or by `age` for those searched by
    age); when the kinds cannot be told apart, Duffel's order (the order we sent them in).
    Names Duffel may carry on them (given_name, family_name) are not read."""
    passengers = [p for p in data.get("passengers") or [] if isinstance(p, dict)]
    if len(passengers) != len(kinds):
        raise Unreadable(f"{len(passengers)} passengers for {len(kinds)} searched")
    unused = list(passengers)
    matched = []
    for kind in kinds:
        match = next((p for p in unused if _passenger_kind(p) == kind), None)
        if match is None:
            return tuple(str(p["id"]) for p in passengers)
        unused.remove(match)
        matched.append(str(match["id"]))
    return tuple(matched)


def _passenger_kind(passenger: dict) -> str | None:
    if passenger.get("type"):
        return passenger["type"]
    age = passenger.get("age")
    if isinstance(age, int) and not isinstance(age, bool):
        return "infant_without_seat" if age < 2 else "child" if age < 12 else "adult"
    return None
