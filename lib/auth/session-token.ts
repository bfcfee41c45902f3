// Removed once the turn opener takes a Viewer (issue 42).
// The session token from a request's cookie, verified the way better-auth signs it (HMAC-SHA256
// with the auth secret), for the turn opener's statement that still reads the session itself.
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "./secret";
import { isSecureRequest } from "./secure-request";

const COOKIE = "better-auth.session_token";

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null; // a malformed escape is no session, not an error
    }
  }
  return null;
}

let secret: { value: string; key: Buffer } | undefined;
function secretKey(): Buffer {
  const value = authSecret();
  if (secret?.value !== value) secret = { value, key: Buffer.from(value) };
  return secret.key;
}

/** The verified token, or null when the cookie is absent, malformed or not signed by us. */
export function sessionToken(headers: Headers): string | null {
  const header = headers.get("cookie");
  if (!header) return null;
  const name = isSecureRequest(headers) ? `__Secure-${COOKIE}` : COOKIE;
  const value = cookieValue(header, name);
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secretKey()).update(token).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  return token;
}
