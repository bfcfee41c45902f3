// HMAC-signed, expiring URLs for the local store: `/api/files/<fileId>?exp=…&dl=0|1&sig=…`. The
// signature covers the file id, the expiry and whether it is a download, keyed by a secret
// derived from the auth secret, so a URL cannot be stretched, pointed at another file or turned
// from viewing into downloading. Checked in constant time.
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";

let key: Buffer | null = null;

function signingKey(): Buffer {
  key ??= createHmac("sha256", authSecret()).update("workstreams file urls v1").digest();
  return key;
}

function signature(fileId: string, expires: number, download: boolean): string {
  return createHmac("sha256", signingKey())
    .update(`${fileId}\n${expires}\n${download ? 1 : 0}`)
    .digest("base64url");
}

export function signedFilePath(
  fileId: string,
  options: { ttlMs: number; download?: boolean; now?: number },
): string {
  const expires = Math.floor(((options.now ?? Date.now()) + options.ttlMs) / 1000);
  const download = options.download === true;
  const sig = signature(fileId, expires, download);
  return `/api/files/${encodeURIComponent(fileId)}?exp=${expires}&dl=${download ? 1 : 0}&sig=${sig}`;
}

export type SignatureCheck = "valid" | "expired" | "invalid";

export function checkSignature(
  fileId: string,
  query: { exp: number; dl: boolean; sig: string },
  now = Date.now(),
): SignatureCheck {
  const expected = Buffer.from(signature(fileId, query.exp, query.dl));
  const given = Buffer.from(query.sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  return query.exp * 1000 < now ? "expired" : "valid";
}
