// The demo seed when several servers start at once on a fresh Postgres: seeding is serialized
// like migrations, so every server comes up and every demo user exists once, in the demo
// organization only.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { member, organization, user } from "@/db/schema";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/auth/demo-seed";
import { type ChildServer, spawnServer } from "../support/child-server";
import { HttpClient } from "../support/http-client";
import { createTestDatabase } from "../support/test-db";

// Each try is a fresh race between two servers started at once (three keep the file near 30 s).
const TRIES = 3;

async function signInAsDemo(url: string, email: string): Promise<number> {
  const client = new HttpClient(url);
  const signIn = await client.json("/api/auth/sign-in/email", {
    method: "POST",
    json: { email, password: DEMO_PASSWORD },
  });
  if (signIn.status !== 200) return signIn.status;
  return (await client.json("/api/me")).status;
}

describe("demo seed on a fresh Postgres", () => {
  it("9.5 two servers started at once both serve and seed each demo user once", {
    timeout: TRIES * 60_000,
  }, async () => {
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      const testDb = await createTestDatabase();
      const children: ChildServer[] = [];
      try {
        const env = { DATABASE_URL: testDb.url ?? "", WORKSTREAMS_SEED_DEMO: "1" };
        const started = await Promise.allSettled([spawnServer(env), spawnServer(env)]);
        for (const result of started)
          if (result.status === "fulfilled") children.push(result.value);
        const failures = started.flatMap((result) =>
          result.status === "rejected" ? [String(result.reason).slice(0, 600)] : [],
        );
        expect({ attempt, failures }).toEqual({ attempt, failures: [] });

        const signIns = await Promise.all(
          children.flatMap((child) =>
            DEMO_USERS.map((demo) => signInAsDemo(child.url, demo.email)),
          ),
        );
        expect({ attempt, signIns }).toEqual({ attempt, signIns: signIns.map(() => 200) });

        const db = testDb.handle.db;
        const emails = DEMO_USERS.map((demo) => demo.email);
        const users = await db.select().from(user).where(inArray(user.email, emails));
        const memberships = await db
          .select({ email: user.email, slug: organization.slug })
          .from(member)
          .innerJoin(user, eq(user.id, member.userId))
          .innerJoin(organization, eq(organization.id, member.organizationId))
          .where(inArray(user.email, emails));
        expect({ attempt, users: users.map((row) => row.email).sort() }).toEqual({
          attempt,
          users: [...emails].sort(),
        });
        // Each demo user belongs to the demo organization and to no personal one.
        expect({
          attempt,
          memberships: memberships.map((row) => `${row.email} ${row.slug}`).sort(),
        }).toEqual({ attempt, memberships: emails.map((email) => `${email} demo`).sort() });
      } finally {
        await Promise.all(children.map((child) => child.kill()));
        await testDb.drop();
      }
    }
  });
});
