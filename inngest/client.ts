// The Inngest client. Inngest runs the background functions when it is configured: Inngest Cloud
// (INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY) or a self-hosted or dev server (INNGEST_BASE_URL,
// or INNGEST_DEV=1 for a dev server on its default address). With none of these, the same
// functions run in the app server on the embedded runner (inngest/engine.ts decides).
import { Inngest } from "inngest";

export const INNGEST_APP_ID = "workstreams";

const SETTINGS = ["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_BASE_URL", "INNGEST_DEV"];

export function inngestConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return SETTINGS.some((name) => Boolean(env[name]?.trim()));
}

/** An Inngest that never answers must not hold the outbox sender forever. */
const REQUEST_TIMEOUT_MS = 10_000;

const fetchWithTimeout: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  return fetch(input, { ...init, signal });
};

let client: Inngest | undefined;

/**
 * The client, made on first use: it reads its settings (keys, base URL, dev mode) from the
 * environment when it is made, which must be after the process's settings are in place.
 */
export function getInngest(): Inngest {
  client ??= new Inngest({ id: INNGEST_APP_ID, fetch: fetchWithTimeout });
  return client;
}
