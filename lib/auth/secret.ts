// The signing secret for sessions. BETTER_AUTH_SECRET wins; without it (the zero-config path) a
// random secret is generated once and kept under .data/ so sessions survive restarts.
import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function authSecret(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.BETTER_AUTH_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error("BETTER_AUTH_SECRET must be at least 32 characters.");
    return fromEnv;
  }
  const file = path.join(process.cwd(), ".data", "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600, flag: "w" });
  return secret;
}
