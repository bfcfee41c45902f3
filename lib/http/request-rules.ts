// What every state-changing API request must satisfy before its handler runs (route() applies
// these to every method but GET, HEAD and OPTIONS):
// - Origin: a browser names the page that sent the request. A request from a page of another
//   site is refused (403 `forbidden:origin`), unless that origin is listed in
//   WORKSTREAMS_TRUSTED_ORIGINS. A request without Origin (curl, a server) is not a browser's
//   cross-site request and is allowed; it needs the session cookie or nothing happens anyway.
// - Content type: a body is JSON (`application/json`, parameters such as charset allowed), else
//   415 `unsupported_media_type:body`. This also stops the form and text/plain posts a browser
//   sends cross-site without a preflight. A POST without a body may leave the type out.
// Not covered: /api/auth/* (better-auth checks origins itself); /api/inngest (signed requests).
// A file upload route declares a multipart body instead: its origin is checked alike, and its
// body must be `multipart/form-data`. A browser sends such a form cross-site without a preflight,
// but always with its Origin, so the origin check refuses it.
import { config } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";
import { forwardedHostAndProto } from "./proxy";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function changesState(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * The origin the browser used. Behind `next start` the request URL always says localhost, so
 * without BETTER_AUTH_URL the Host header decides, with the scheme the server served; a proxy's
 * X-Forwarded-Host and X-Forwarded-Proto count only with WORKSTREAMS_TRUST_PROXY=1 (./proxy).
 * A cross-site page cannot set these headers on a request without a preflight we never allow.
 */
export function requestOrigin(
  request: Request,
  env: Record<string, string | undefined> = process.env,
): string {
  const url = new URL(request.url);
  const forwarded = forwardedHostAndProto(request.headers, env);
  const host = forwarded.host ?? request.headers.get("host") ?? url.host;
  const proto = forwarded.proto ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/** The app's own origin: BETTER_AUTH_URL when set, else the one the request came through. */
export function ownOrigin(
  request: Request,
  env: Record<string, string | undefined> = process.env,
): string | null {
  const base = env.BETTER_AUTH_URL?.trim();
  return normalizeOrigin(base || requestOrigin(request, env));
}

/** The serialized origin, or null for anything that names no site (the literal "null"). */
function normalizeOrigin(value: string): string | null {
  const origin = URL.parse(value)?.origin;
  return origin && origin !== "null" ? origin : null;
}

export function assertAllowedOrigin(request: Request): void {
  const header = request.headers.get("origin");
  if (header === null) return;
  const origin = normalizeOrigin(header);
  if (
    origin !== null &&
    (origin === ownOrigin(request) || config.security.trustedOrigins.includes(origin))
  ) {
    return;
  }
  throw new AppError("forbidden:origin");
}

export function isJsonContentType(value: string): boolean {
  const [type = ""] = value.split(";");
  return type.trim().toLowerCase() === "application/json";
}

/** True when the request announces a body (a length above zero, or a chunked one). */
export function announcesBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null && length.trim() !== "0") return true;
  return request.headers.has("transfer-encoding");
}

export function assertJsonContentType(request: Request): void {
  const type = request.headers.get("content-type");
  if (type === null ? announcesBody(request) : !isJsonContentType(type)) {
    throw new AppError("unsupported_media_type:body");
  }
}

export function isMultipartContentType(value: string | null): boolean {
  const [type = ""] = (value ?? "").split(";");
  return type.trim().toLowerCase() === "multipart/form-data";
}

/** Origin and content type of a request that changes state; safe methods pass untouched. */
export function assertRequestRules(request: Request, body: "json" | "multipart" = "json"): void {
  if (!changesState(request.method)) return;
  assertAllowedOrigin(request);
  if (body === "json") assertJsonContentType(request);
  else if (!isMultipartContentType(request.headers.get("content-type"))) {
    throw new AppError("unsupported_media_type:body", {
      details: { expected: "multipart/form-data" },
    });
  }
}
