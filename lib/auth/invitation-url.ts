import { forwardedHostAndProto } from "@/lib/http/proxy";
import { isSecureRequest } from "./secure-request";

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

/**
 * The origin of a page request: its Host header, over HTTPS when the request came over HTTPS
 * (./secure-request); a proxy's X-Forwarded-Host counts only with WORKSTREAMS_TRUST_PROXY=1.
 */
export function originOf(headers: Headers): string {
  const forwarded = forwardedHostAndProto(headers);
  const host = forwarded.host ?? headers.get("host") ?? "localhost:3000";
  return `${isSecureRequest(headers) ? "https" : "http"}://${host}`;
}
