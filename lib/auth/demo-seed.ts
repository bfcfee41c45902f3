// The demo organization the first `npm run dev` creates, with an admin and a member whose logins
// are printed at start-up. Idempotent and, on Postgres, serialized across server processes like
// migrations: servers started at once on a fresh database seed it once, and a second start
// finds everything in place and only prints.
import "server-only";
import { eq } from "drizzle-orm";
import { type DatabaseHandle, type Db, getDatabase } from "@/db/client";
import { postgresClient } from "@/db/postgres-target";
import { member, organization, user } from "@/db/schema";
import { getAuth } from "./auth";
import { withoutPersonalOrganization } from "./organizations";

export const DEMO_PASSWORD = "workstreams-demo";
export const DEMO_USERS = [
  { email: "admin@demo.workstreams.dev", name: "Ada Admin", role: "admin" },
  { email: "member@demo.workstreams.dev", name: "Max Member", role: "member" },
] as const;
const DEMO_ORG = { name: "Demo Organization", slug: "demo" };

// Advisory lock key for seeding; the migration lock is 727_001.
const SEED_LOCK = 727_003;

export async function seedDemo(): Promise<void> {
  const handle = await getDatabase();
  await whileSeedLocked(handle, () => seedDemoRows(handle.db));
  console.log(
    [
      "",
      "  Demo organization ready. Sign in with:",
      ...DEMO_USERS.map((demo) => `    ${demo.role.padEnd(6)}  ${demo.email}  /  ${DEMO_PASSWORD}`),
      "",
    ].join("\n"),
  );
}

/**
 * Runs `seed` while this process holds the seed lock. On Postgres the lock lives on a dedicated
 * connection, because the seed itself writes through the pool and better-auth. One PGlite data
 * dir has one process, so there is nobody to wait for.
 */
async function whileSeedLocked(handle: DatabaseHandle, seed: () => Promise<void>): Promise<void> {
  if (handle.kind === "pglite") {
    await seed();
    return;
  }
  const client = await postgresClient(handle.url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${SEED_LOCK})`;
    try {
      await seed();
    } finally {
      await client`select pg_advisory_unlock(${SEED_LOCK})`;
    }
  } finally {
    // Ending the session also releases the lock if the unlock above could not run.
    await client.end({ timeout: 5 });
  }
}

/** Creates what is missing: the organization, each user, each membership. */
async function seedDemoRows(db: Db): Promise<void> {
  await db
    .insert(organization)
    .values({ id: crypto.randomUUID(), ...DEMO_ORG })
    .onConflictDoNothing();
  const [org] = await db.select().from(organization).where(eq(organization.slug, DEMO_ORG.slug));
  if (!org) throw new Error("the demo organization could not be created");
  const auth = await getAuth();
  for (const demo of DEMO_USERS) {
    let [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, demo.email));
    if (!existing) {
      // The seed makes the membership itself, so sign-up must not give the user an
      // organization of its own.
      const created = await auth.api.signUpEmail({
        body: { email: demo.email, name: demo.name, password: DEMO_PASSWORD },
        ...withoutPersonalOrganization,
      });
      existing = created.user;
    }
    await db
      .insert(member)
      .values({
        id: crypto.randomUUID(),
        organizationId: org.id,
        userId: existing.id,
        role: demo.role,
      })
      .onConflictDoNothing();
  }
}
