// better-auth: email + password sign-in with the organization plugin (owner, admin, member).
// Sign-up gives every new user an organization of their own; a new session opens on the user's
// first organization. Built lazily because the database opens lazily.
//
// Session cookies are `Secure` only for requests that came over HTTPS (./secure-request.ts).
// better-auth fixes that choice when an instance is built, so there are two instances and each
// request uses the one its protocol calls for. (One instance made every cookie `__Secure-…` under
// `next start`, and browsers on http://host:3000 silently dropped them.)
import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { organization } from "better-auth/plugins";
import { getDb } from "@/db/client";
import * as schema from "@/db/schema";
import { CLIENT_ADDRESS_HEADER, trustsProxy } from "@/lib/http/proxy";
import { requestOrigin } from "@/lib/http/request-rules";
import { wakeJobsSoon } from "@/lib/jobs/port";
import { processSingleton } from "@/lib/kernel/singleton";
import {
  createPersonalOrganization,
  firstOrganizationId,
  wantsPersonalOrganization,
} from "./organizations";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordWeakness } from "./password-policy";
import { authSecret } from "./secret";
import { isSecureRequest } from "./secure-request";

async function buildAuth(secure: boolean) {
  const db = await getDb();
  return betterAuth({
    appName: "Workstreams",
    // Its warnings are about setups we do not use (a fixed base URL, per-attempt password logs).
    logger: { level: "error" },
    secret: authSecret(),
    baseURL: process.env.BETTER_AUTH_URL,
    // The origin the browser used (the API's request rules share it); CSRF protection holds
    // because a cross-site page cannot forge the Origin header it is compared with.
    trustedOrigins: (request) => (request ? [requestOrigin(request)] : []),
    database: drizzleAdapter(db, { provider: "pg", schema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
    },
    // No cookie cache: the app reads every session from the database (./session.ts), so a cached
    // copy would only add a signed cookie to each response and let better-auth's own endpoints
    // trust a session for a while after it was signed out.
    session: { cookieCache: { enabled: false } },
    // Sign-in and sign-up are limited per client address (3 per 10 s) in production builds;
    // WORKSTREAMS_AUTH_RATE_LIMIT turns that on or off anywhere.
    rateLimit: { enabled: authRateLimitEnabled() },
    advanced: {
      database: { generateId: () => crypto.randomUUID() },
      useSecureCookies: secure,
      // The address comes from the header the app sets (lib/http/proxy): the trusted proxy's
      // X-Forwarded-For, or none, never a header the client chose.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      trustedProxyHeaders: trustsProxy(),
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-up/email") return;
        const body: unknown = ctx.body;
        const password =
          body && typeof body === "object" && "password" in body ? body.password : undefined;
        // Length is better-auth's own check (PASSWORD_TOO_SHORT); this adds the common ones.
        const weakness =
          typeof password === "string" && password.length >= PASSWORD_MIN_LENGTH
            ? passwordWeakness(password)
            : null;
        if (weakness) {
          throw new APIError("BAD_REQUEST", { code: "PASSWORD_TOO_WEAK", message: weakness });
        }
      }),
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user, endpointContext) => {
            if (!wantsPersonalOrganization(endpointContext)) return;
            await createPersonalOrganization({ userId: user.id, userName: user.name });
          },
        },
      },
      session: {
        create: {
          before: async (session) => {
            const activeOrganizationId = await firstOrganizationId({ userId: session.userId });
            return { data: { ...session, activeOrganizationId } };
          },
        },
      },
    },
    plugins: [
      organization({
        creatorRole: "owner",
        allowUserToCreateOrganization: true,
        organizationHooks: {
          // The delete queued the organization's files for removal (a trigger on its row, in
          // the delete's transaction); the job runs without waiting for the next outbox pass.
          afterDeleteOrganization: async () => wakeJobsSoon(),
        },
      }),
      nextCookies(),
    ],
  });
}

function authRateLimitEnabled(): boolean {
  const setting = process.env.WORKSTREAMS_AUTH_RATE_LIMIT;
  if (setting === "1" || setting === "0") return setting === "1";
  return process.env.NODE_ENV === "production";
}

export type Auth = Awaited<ReturnType<typeof buildAuth>>;

const holder = processSingleton<{ plain?: Promise<Auth>; secure?: Promise<Auth> }>(
  "auth",
  () => ({}),
);

/** The instance for this request's protocol (no headers: a server-side call, no cookies). */
export function getAuth(headers?: Headers): Promise<Auth> {
  if (headers && isSecureRequest(headers)) {
    holder.secure ??= buildAuth(true);
    return holder.secure;
  }
  holder.plain ??= buildAuth(false);
  return holder.plain;
}

/** Forgets the built instances (tests that swap the database). */
export function resetAuth(): void {
  holder.plain = undefined;
  holder.secure = undefined;
}
