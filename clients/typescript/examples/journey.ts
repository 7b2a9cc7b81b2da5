// An agency's journey with the typed client: balance, search, hold, confirm, events. The suite
// compiles it under `tsc --strict` (tests/test_published_clients.py); README.md walks through it.
import { createClient } from "../src/index";
import type { Schemas } from "../src/index";

export async function journey(baseUrl: string, apiKey: string): Promise<void> {
  const api = createClient({ baseUrl, apiKey });

  const balance = await api.GET("/wallet/balance");
  if (balance.error) throw new Error(balance.error.error.message);
  console.log(`Balance: ${balance.data.data.balance} ${balance.data.data.currency}`);

  const search = await api.POST("/flights/search", {
    body: {
      type: "one_way",
      slices: [{ origin: "GRU", destination: "LIS", departureDate: "2027-03-10" }],
      passengers: [{ type: "adult", count: 1 }],
    },
  });
  if (search.error) throw new Error(`${search.error.error.code}: ${search.error.error.doc_url}`);
  const offer: Schemas["Offer"] | undefined = search.data.offers[0];
  const passenger = search.data.passengers[0];
  if (offer === undefined || passenger === undefined) return;

  const hold = await api.POST("/bookings", {
    params: { header: { "Idempotency-Key": `hold-${offer.id}` } },
    body: {
      offerId: offer.id,
      type: "hold",
      passengers: [
        {
          id: passenger.id,
          given_name: "Ana",
          family_name: "Souza",
          gender: "f",
          born_on: "1990-05-17",
          email: "ana.souza@example.com",
          phone_number: "+5511912345678",
          identity_documents: [
            {
              type: "passport",
              unique_identifier: "FX123456",
              issuing_country_code: "BR",
              expires_on: "2031-01-01",
            },
          ],
        },
      ],
    },
  });
  if (hold.error) throw new Error(hold.error.error.message);
  const booking = hold.data;

  const confirmed = await api.PUT("/bookings/{booking_id}/confirm", {
    params: {
      path: { booking_id: booking.id },
      header: { "Idempotency-Key": `confirm-${booking.id}` },
    },
    body: {
      payment: { type: "balance", amount: offer.total_amount, currency: offer.total_currency },
    },
  });
  if (confirmed.error) throw new Error(confirmed.error.error.message);
  console.log(`Confirmed ${confirmed.data.data.booking_reference}`);

  const events = await api.GET("/events", { params: { query: { limit: 20 } } });
  if (events.error) throw new Error(events.error.error.message);
  for (const event of events.data.data) {
    console.log(event.type, event.created_at);
  }
}
