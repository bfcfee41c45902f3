// What an approval and its audit keep of a tool call's arguments: a SHA-256 of their RFC 8785
// canonical JSON, so the same arguments always give the same hash (key order, number spelling)
// and nothing of them can be read back.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

export function argsHash(input: unknown): string {
  // A call without arguments hashes like an empty object; undefined has no JSON form.
  const canonical = canonicalize(input ?? {}) ?? "null";
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}
