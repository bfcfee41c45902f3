// What the app believes about where a request came from. Any client can send X-Forwarded-*
// headers (and Next.js keeps a client's own X-Forwarded-For, filling in the socket's address only
// when there is none), so they count only with WORKSTREAMS_TRUST_PROXY=1: the operator's word
// that a reverse proxy in front of the app sets them. Without it:
// - the origin is the Host header with the scheme the server itself served (see requestOrigin);
// - the client's address is unknown, so better-auth's sign-in and sign-up limits fall back to one
//   bucket per endpoint for everyone (a client cannot pick its own by sending a header).

type Env = Record<string, string | undefined>;

/**
 * The header better-auth reads the client's address from. The app sets it on every request it
 * hands to better-auth (and removes a copy the client sent), so no client-supplied header can
 * choose the rate-limit bucket.
 */
export const CLIENT_ADDRESS_HEADER = "x-workstreams-client-address";

export function trustsProxy(env: Env = process.env): boolean {
  return env.WORKSTREAMS_TRUST_PROXY === "1";
}

/**
 * The client's address as the trusted proxy saw it: the last X-Forwarded-For entry, the one
 * the proxy next to the app added (entries before it are whatever the client claimed). Null
 * without a trusted proxy or without the header.
 */
export function clientAddress(headers: Headers, env: Env = process.env): string | null {
  if (!trustsProxy(env)) return null;
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.at(-1) ?? null;
}

/** The headers of a request as better-auth gets them: the client's address set by the app. */
export function headersForAuth(headers: Headers, env: Env = process.env): Headers {
  const copy = new Headers(headers);
  copy.delete(CLIENT_ADDRESS_HEADER);
  const address = clientAddress(headers, env);
  if (address) copy.set(CLIENT_ADDRESS_HEADER, address);
  return copy;
}

/** Host and scheme the browser used, from a trusted proxy's X-Forwarded-Host/-Proto if any. */
export function forwardedHostAndProto(
  headers: Headers,
  env: Env = process.env,
): { host: string | null; proto: string | null } {
  if (!trustsProxy(env)) return { host: null, proto: null };
  const first = (name: string) => headers.get(name)?.split(",")[0]?.trim() || null;
  return {
    host: first("x-forwarded-host"),
    proto: first("x-forwarded-proto")?.toLowerCase() ?? null,
  };
}
