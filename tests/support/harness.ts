// One call per integration file gives it what every test of the file stands on: a fresh copy
// of the migrated database, the app's routes on a local server, and the people, organizations
// and workstreams its tests need, made over HTTP as a user would. `appHarness` registers the
// file's beforeAll and afterAll hooks itself, so a file holds only its behaviour.
import { afterAll, beforeAll } from "vitest";
import { getDb } from "@/db/client";
import { member } from "@/db/schema";
import type { WorkstreamSummary } from "@/lib/workstreams/types";
import { type AppServer, startAppServer } from "./app-server";
import { type Owner, userWithWorkstream } from "./fixtures";
import { type HttpClient, type SignedUpUser, setActiveOrganization, signUp } from "./http-client";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "./test-db";

export type Role = "owner" | "admin" | "member";

/** A user and one group workstream of theirs. */
export type GroupMember = { user: SignedUpUser; workstreamId: string };

export type TestApp = {
  /** The app server's address (from the file's beforeAll on). */
  readonly url: string;
  /** A new user, owner of an organization of their own (their active one). */
  signUp(name: string): Promise<SignedUpUser>;
  /** A new user who joins `organizationId` with `role`, which becomes their active one. */
  memberOf(organizationId: string, role: Role, name: string): Promise<SignedUpUser>;
  /** A new user with a direct workstream. */
  owner(name?: string): Promise<Owner>;
  /** A group workstream titled "<name> notes" of `user`, or of a new user called `name`. */
  withGroup(name: string, user?: SignedUpUser): Promise<GroupMember>;
};

export type TestAppOptions = {
  /** Environment for the whole file, set before the database opens. */
  env?: Record<string, string>;
  /** Wiring the file needs (the composition root's domains, the turn's tools), before the server. */
  wire?: () => unknown;
};

export function appHarness({ env = {}, wire }: TestAppOptions = {}): TestApp {
  let testDb: TestDatabase | undefined;
  let server: AppServer | undefined;
  beforeAll(async () => {
    Object.assign(process.env, env);
    testDb = await useTestDatabase();
    await wire?.();
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.close();
    if (testDb) await releaseTestDatabase(testDb);
  });
  const url = () => {
    if (!server) throw new Error("the test app starts in beforeAll");
    return server.url;
  };
  return {
    get url() {
      return url();
    },
    signUp: (name) => signUp(url(), name),
    memberOf: async (organizationId, role, name) => {
      const user = await signUp(url(), name);
      await joinOrganization(user, organizationId, role);
      return user;
    },
    owner: (name) => userWithWorkstream(url(), name),
    withGroup: async (name, user) => {
      const signed = user ?? (await signUp(url(), name));
      const group = await createGroup(signed.client, `${name} notes`);
      return { user: signed, workstreamId: group.id };
    },
  };
}

/** Adds `user` to `organizationId` with `role` and makes it their active organization. */
export async function joinOrganization(
  user: SignedUpUser,
  organizationId: string,
  role: Role,
): Promise<string> {
  const db = await getDb();
  const id = crypto.randomUUID();
  await db.insert(member).values({ id, organizationId, userId: user.userId, role });
  await setActiveOrganization(user, organizationId);
  return id;
}

export async function createGroup(client: HttpClient, title?: string): Promise<WorkstreamSummary> {
  const response = await client.json<WorkstreamSummary>("/api/workstreams", {
    method: "POST",
    json: title === undefined ? { mode: "group" } : { mode: "group", title },
  });
  if (response.status !== 201) throw new Error(`create group: ${response.status}`);
  return response.body;
}
