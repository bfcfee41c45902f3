// better-auth: email + password sign-in with the organization plugin (owner, admin, member).
// Sign-up gives every new user an organization of their own; a new session opens on the user's
// first organization. Built lazily because the database opens lazily.
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { organization } from "better-auth/plugins";
import { getDb } from "@/db/client";
import * as schema from "@/db/schema";
import { requestOrigin } from "@/lib/http/request-rules";
import { processSingleton } from "@/lib/server/singleton";
import {
  createPersonalOrganization,
  firstOrganizationId,
  wantsPersonalOrganization,
} from "./organizations";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordWeakness } from "./password-policy";
import { authSecret } from "./secret";

async function buildAuth() {
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
    session: { cookieCache: { enabled: true, maxAge: 60 } },
    advanced: { database: { generateId: () => crypto.randomUUID() } },
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
      organization({ creatorRole: "owner", allowUserToCreateOrganization: true }),
      nextCookies(),
    ],
  });
}

export type Auth = Awaited<ReturnType<typeof buildAuth>>;

const holder = processSingleton<{ auth?: Promise<Auth> }>("auth", () => ({}));

export function getAuth(): Promise<Auth> {
  holder.auth ??= buildAuth();
  return holder.auth;
}

/** Forgets the built instance (tests that swap the database). */
export function resetAuth(): void {
  holder.auth = undefined;
}
