import type { components } from "./api";
type Event = components["schemas"]["Event"];
// Must NOT compile: a wallet.debit's object has no booking_reference.
export function wrong(event: Event): string {
  if (event.type === "wallet.debit") {
    return event.data.object.booking_reference;
  }
  return "";
}
