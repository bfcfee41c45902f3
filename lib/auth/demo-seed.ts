// The demo organization the first `npm run dev` creates, with an admin and a member whose logins
// are printed at start-up. Idempotent: a second start finds the users and only prints.
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { member, organization, user } from "@/db/schema";
import { getAuth } from "./auth";
import { skipPersonalOrganization } from "./organizations";

export const DEMO_PASSWORD = "workstreams-demo";
export const DEMO_USERS = [
  { email: "admin@demo.workstreams.dev", name: "Ada Admin", role: "admin" },
  { email: "member@demo.workstreams.dev", name: "Max Member", role: "member" },
] as const;
const DEMO_ORG = { name: "Demo Organization", slug: "demo" };

export async function seedDemo(): Promise<void> {
  const db = await getDb();
  const auth = await getAuth();
  let [org] = await db.select().from(organization).where(eq(organization.slug, DEMO_ORG.slug));
  if (!org) {
    [org] = await db
      .insert(organization)
      .values({ id: crypto.randomUUID(), ...DEMO_ORG })
      .onConflictDoNothing()
      .returning();
  }
  if (!org) return;
  for (const demo of DEMO_USERS) {
    const [existing] = await db.select().from(user).where(eq(user.email, demo.email));
    if (existing) continue;
    skipPersonalOrganization.add(demo.email);
    try {
      const created = await auth.api.signUpEmail({
        body: { email: demo.email, name: demo.name, password: DEMO_PASSWORD },
      });
      await db
        .insert(member)
        .values({
          id: crypto.randomUUID(),
          organizationId: org.id,
          userId: created.user.id,
          role: demo.role,
        })
        .onConflictDoNothing();
    } finally {
      skipPersonalOrganization.delete(demo.email);
    }
  }
  console.log(
    [
      "",
      "  Demo organization ready. Sign in with:",
      ...DEMO_USERS.map((demo) => `    ${demo.role.padEnd(6)}  ${demo.email}  /  ${DEMO_PASSWORD}`),
      "",
    ].join("\n"),
  );
}
