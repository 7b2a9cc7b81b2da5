// Events narrow by their `type` with no cast under --strict (the schema's Event is a oneOf with a
// discriminator on `type`); compiled by the suite (tests/test_published_clients.py).
import type { components } from "../src/schema";

type Event = components["schemas"]["Event"];
type EventList = components["schemas"]["EventListEnvelope"];

// Narrowing on `type` alone, no cast: each branch sees its own object.
export function describe(event: Event): string {
  switch (event.type) {
    case "booking.ticketed":
      return `${event.data.object.booking_reference} ticketed, ${event.data.object.documents.length} tickets`;
    case "wallet.debit":
      return `debit ${event.data.object.amount} → ${event.data.object.balance_after}`;
    case "wallet.low_balance":
      return `low: ${event.data.object.balance} < ${event.data.object.threshold}`;
    case "api_key.revoked":
      return `key ${event.data.object.display_prefix} revoked at ${event.data.object.revoked_at}`;
    default:
      return `${event.type} ${event.id} live=${event.live_mode}`;
  }
}

export function ids(page: EventList): string[] {
  return page.data.map((e) => (e.type === "wallet.credit" ? e.data.object.id : e.id));
}
