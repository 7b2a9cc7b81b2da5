// The agency back office API, typed: `paths` and `components` are generated from the OpenAPI
// schema (src/schema.d.ts, by openapi-typescript; regenerate with bin/clients), requests go
// through openapi-fetch. ../README.md walks an agency's journey with it.
import createFetchClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, paths };
export type Schemas = components["schemas"];

export interface ClientOptions {
  /** The service's address, e.g. "https://api.example.com" (no trailing slash). */
  baseUrl: string;
  /** sk_test_… (sandbox) or sk_live_… */
  apiKey: string;
  /** Pin a dated API version for this client; without it the team's pinned version applies. */
  apiVersion?: string;
  fetch?: typeof globalThis.fetch;
}

export function createClient(options: ClientOptions) {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` };
  if (options.apiVersion !== undefined) {
    headers["Api-Version"] = options.apiVersion;
  }
  return createFetchClient<paths>({
    baseUrl: `${options.baseUrl}/api/v1`,
    headers,
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
  });
}
