// The live channel across server processes on one Postgres (LISTEN/NOTIFY on its own channel):
// a rename on server A reaches the owner's live stream on server B; and the fan-out itself
// delivers each change exactly once to subscribers in the publishing and in other processes.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresLiveFanout } from "@/lib/live/postgres-fanout";
import type { LiveEnvelope } from "@/lib/live/types";
import { signUp } from "../support/http-client";
import { serverProcesses } from "../support/server-processes";
import { createTestDatabase, type TestDatabase } from "../support/test-db";
import { createGroup, isChange, LiveFollower, waitFor } from "./workstreams-support/helpers";

const { start } = serverProcesses();

describe("live updates between processes", () => {
  it("W1 a rename on server A reaches the owner's live stream on server B", async () => {
    const a = await start();
    const b = await start();
    const user = await signUp(a.url, "Two Tabs");
    const stream = await createGroup(user.client, "Before");
    const onB = await LiveFollower.open(user.client.at(b.url));
    try {
      await user.client.fetch(`/api/workstreams/${stream.id}`, {
        method: "PATCH",
        json: { title: "After" },
      });
      const renamed = await onB.next(isChange("renamed", stream.id));
      expect(renamed.workstream).toMatchObject({ id: stream.id, title: "After" });
    } finally {
      await onB.close();
    }
  });
});

describe("PostgresLiveFanout", () => {
  let testDb: TestDatabase;
  const clients: postgres.Sql[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end({ timeout: 5 })));
    await testDb.drop();
  });

  it("W1 delivers a change once locally and once in every other process", async () => {
    const open = async (origin: string) => {
      const client = postgres(testDb.url ?? "", { max: 2, onnotice: () => {} });
      clients.push(client);
      return PostgresLiveFanout.create(client, origin);
    };
    const [processA, processB] = await Promise.all([open("proc-a"), open("proc-b")]);
    const topic = { kind: "user", organizationId: "org1", userId: "u1" } as const;
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const seenOrg: unknown[] = [];
    const strangers: unknown[] = [];
    processA.subscribe(topic, (envelope) => seenA.push(envelope));
    processB.subscribe(topic, (envelope) => seenB.push(envelope));
    processB.subscribe({ kind: "organization", organizationId: "org1" }, (envelope) =>
      seenOrg.push(envelope),
    );
    processB.subscribe({ kind: "user", organizationId: "org1", userId: "u2" }, (envelope) =>
      strangers.push(envelope),
    );
    const envelope: LiveEnvelope = {
      organizationId: "org1",
      userId: "u1",
      event: { type: "workstream_deleted", workstreamId: "ws_1" },
    };
    await processA.publish(envelope);
    await waitFor(async () => seenB.length > 0 && seenOrg.length > 0, "the notification");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seenA).toEqual([envelope.event]);
    expect(seenB).toEqual([envelope.event]);
    expect(seenOrg).toEqual([envelope.event]);
    expect(strangers).toEqual([]);
    await Promise.all([processA.close(), processB.close()]);
  });
});
