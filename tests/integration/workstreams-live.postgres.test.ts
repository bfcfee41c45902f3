// The live channel across server processes on one Postgres (LISTEN/NOTIFY on its own channel):
// a rename on server A reaches the owner's live stream on server B; and the fan-out itself
// delivers each change exactly once to subscribers in the publishing and in other processes.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applicationName } from "@/db/client";
import { Fanout } from "@/lib/stream/fanout";
import type { LiveEnvelope } from "@/lib/stream/live";
import { CHANNEL, PostgresTransport } from "@/lib/stream/postgres-transport";
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

describe("the fan-out between processes", () => {
  let testDb: TestDatabase;
  const clients: postgres.Sql[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end({ timeout: 5 })));
    await testDb.drop();
  });

  async function closeClients() {
    await Promise.all(clients.splice(0).map((client) => client.end({ timeout: 5 })));
  }

  function connect(origin: string) {
    const client = postgres(testDb.url ?? "", {
      max: 2,
      onnotice: () => {},
      connection: { application_name: applicationName(origin) },
    });
    clients.push(client);
    return client;
  }

  it("H2 a server alone on the database sends no notifications until another one connects", async () => {
    await closeClients(); // the servers of earlier tests are gone
    const heard: string[] = [];
    // Listens like a server would, but under a name that is not a server's.
    const observer = postgres(testDb.url ?? "", {
      max: 1,
      onnotice: () => {},
      connection: { application_name: "observer" },
    });
    clients.push(observer);
    // A server's hello as it starts is not a notification of anything.
    await observer.listen(CHANNEL, (message) => {
      if (!message.includes("|h|")) heard.push(message);
    });
    const transport = await PostgresTransport.create(connect("solo-a"), "solo-a");
    const fanout = await Fanout.create(transport, "solo-a");
    const envelope: LiveEnvelope = { organizationId: "o", userId: "u", event: { type: "refresh" } };
    await fanout.publishLive(envelope);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([]);
    const other = await PostgresTransport.create(connect("solo-b"), "solo-b");
    // A peer check runs every few seconds; the test runs one now instead of waiting.
    await transport.checkPeers();
    await fanout.publishLive(envelope);
    await waitFor(async () => heard.length === 1, "the notification once a peer is connected");
    await Promise.all([fanout.close(), other.close()]);
  });

  it("H2 a server that believed itself alone notifies at once when another one starts", async () => {
    await closeClients(); // the servers of earlier tests are gone
    const transportA = await PostgresTransport.create(connect("hello-a"), "hello-a");
    const processA = await Fanout.create(transportA, "hello-a");
    expect(transportA.hasPeers).toBe(false);
    const processB = await Fanout.create(
      await PostgresTransport.create(connect("hello-b"), "hello-b"),
      "hello-b",
    );
    // No peer check runs in between: B's hello is what tells A.
    await waitFor(async () => transportA.hasPeers, "A to hear B's hello");
    const seen: unknown[] = [];
    processB.subscribeLive({ kind: "user", organizationId: "o", userId: "u" }, (event) =>
      seen.push(event),
    );
    await processA.publishLive({ organizationId: "o", userId: "u", event: { type: "refresh" } });
    await waitFor(async () => seen.length === 1, "the change on B");
    await Promise.all([processA.close(), processB.close()]);
  });

  it("W1 delivers a change once locally and once in every other process", async () => {
    const open = async (origin: string) => {
      const client = connect(origin);
      return Fanout.create(await PostgresTransport.create(client, origin), origin);
    };
    const [processA, processB] = await Promise.all([open("proc-a"), open("proc-b")]);
    const topic = { kind: "user", organizationId: "org1", userId: "u1" } as const;
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const seenOrg: unknown[] = [];
    const strangers: unknown[] = [];
    processA.subscribeLive(topic, (envelope) => seenA.push(envelope));
    processB.subscribeLive(topic, (envelope) => seenB.push(envelope));
    processB.subscribeLive({ kind: "organization", organizationId: "org1" }, (envelope) =>
      seenOrg.push(envelope),
    );
    processB.subscribeLive({ kind: "user", organizationId: "org1", userId: "u2" }, (envelope) =>
      strangers.push(envelope),
    );
    const envelope: LiveEnvelope = {
      organizationId: "org1",
      userId: "u1",
      event: { type: "workstream_deleted", workstreamId: "ws_1" },
    };
    await processA.publishLive(envelope);
    await waitFor(async () => seenB.length > 0 && seenOrg.length > 0, "the notification");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seenA).toEqual([envelope.event]);
    expect(seenB).toEqual([envelope.event]);
    expect(seenOrg).toEqual([envelope.event]);
    expect(strangers).toEqual([]);
    await Promise.all([processA.close(), processB.close()]);
  });
});
