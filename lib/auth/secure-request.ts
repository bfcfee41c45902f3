// Whether a request came over HTTPS, as far as the app can know: BETTER_AUTH_URL's scheme when
// it is set; else, with WORKSTREAMS_TRUST_PROXY=1, the proxy's X-Forwarded-Proto; else plain
// HTTP, which is what `next start` serves. Next.js fills X-Forwarded-Proto itself only when the
// client sent none, so without a trusted proxy the header is the client's word and decides
// nothing.
import { forwardedHostAndProto } from "@/lib/http/proxy";

export function isSecureRequest(
  headers: Headers,
  env: Record<string, string | undefined> = process.env,
): boolean {
  const base = env.BETTER_AUTH_URL?.trim();
  if (base) return base.startsWith("https://");
  return forwardedHostAndProto(headers, env).proto === "https";
}
