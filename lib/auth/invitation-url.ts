// The link an invited person opens: on the app's public origin (BETTER_AUTH_URL when set, so a
// proxy's internal host never leaks into links), else the origin the request came to.
export function invitationUrl({
  origin,
  invitationId,
}: {
  origin: string;
  invitationId: string;
}): string {
  const base = process.env.BETTER_AUTH_URL?.trim() || origin;
  return new URL(`/invite/${encodeURIComponent(invitationId)}`, base).toString();
}

/** The origin of a page request, from its Host header. */
export function originOf(headers: Headers): string {
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? "localhost:3000";
  const proto =
    headers.get("x-forwarded-proto") ??
    (host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https");
  return `${proto}://${host}`;
}
