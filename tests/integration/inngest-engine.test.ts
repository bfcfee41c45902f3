// The Inngest engine against a fake Inngest API on 127.0.0.1 (the edge of the world): the outbox
// sends a completed turn's event with its row id, registration (PUT) lists every function with
// its trigger and flow control, and a signed POST runs the title function's steps one by one,
// memoized by Inngest, until the title is written. Unsigned or wrongly signed calls write nothing.
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { approvals, failedJobs, jobEvents, workstreams } from "@/db/schema";
import { JOBS } from "@/inngest/functions";
import { drainJobsOnce } from "@/lib/jobs/port";
import { wireDomains } from "@/root/wiring";
import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeInngest, startFakeInngest } from "../support/fake-inngest";
import { signUp } from "../support/http-client";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import { createGroup, sendTo } from "./workstreams-support/helpers";

const SIGNING_KEY = `signkey-test-${"ab".repeat(32)}`;
let testDb: TestDatabase;
let server: AppServer;
let fake: FakeInngest;

beforeAll(async () => {
  fake = await startFakeInngest();
  process.env.INNGEST_BASE_URL = fake.url;
  process.env.INNGEST_SIGNING_KEY = SIGNING_KEY;
  process.env.INNGEST_EVENT_KEY = "test-event-key";
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase();
  await wireDomains();
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await releaseTestDatabase(testDb);
});

type Op = { op: string; id: string; name: string; data?: unknown };

/** Inngest signs the body it sends (canonical JSON: sorted keys) with the timestamp. */
function signed(body: unknown, key = SIGNING_KEY): { text: string; signature: string } {
  const text = JSON.stringify(sorted(body));
  const ts = Math.floor(Date.now() / 1000).toString();
  const hmac = createHmac("sha256", key.replace(/^signkey-\w+-/, "")).update(text + ts);
  return { text, signature: `t=${ts}&s=${hmac.digest("hex")}` };
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  return value;
}

function callFunction(
  fnId: string,
  event: unknown,
  steps: Record<string, unknown>,
  signature?: (text: string) => string | undefined,
) {
  const body = {
    event,
    events: [event],
    steps,
    ctx: { run_id: "run-1", attempt: 0, stack: { stack: Object.keys(steps), current: 0 } },
    version: -1,
  };
  const { text, signature: valid } = signed(body);
  const header = signature ? signature(text) : valid;
  return fetch(`${server.url}/api/inngest?fnId=workstreams-${fnId}&stepId=step`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(header ? { "x-inngest-signature": header } : {}),
    },
    body: text,
  });
}

type SentEvent = { id: string; name: string; data: Record<string, unknown> };
let sent: SentEvent;
let groupId: string;

describe("Inngest engine", () => {
  it("J3 a completed turn's event goes to Inngest with its outbox row id as the event id", async () => {
    const user = await signUp(server.url, "Inngest Member");
    const group = await createGroup(user.client);
    groupId = group.id;
    fake.failSendsWith = 503;
    const response = await sendTo(user.client, group.id, "Plan the lighthouse restoration budget");
    await readSse(response);
    const db = await getDb();
    // The outbox also holds what the server queued at start-up (tomorrow's upload sweep).
    const turnEvents = () =>
      db.select().from(jobEvents).where(eq(jobEvents.name, "workstreams/turn.completed"));
    // The first send failed (503): the row is still pending, to be retried.
    await drainJobsOnce();
    const [pending] = await turnEvents();
    expect(pending?.dispatchedAt).toBeNull();
    expect(pending?.attempts).toBe(1);
    fake.failSendsWith = null;
    await db.update(jobEvents).set({ nextAttemptAt: new Date(0) });
    await drainJobsOnce();
    const [row] = await turnEvents();
    expect(row?.dispatchedAt).not.toBeNull();
    const sends = fake.requests.filter((request) => request.path === "/e/test-event-key");
    const last = ((sends.at(-1)?.body ?? []) as SentEvent[]).filter(
      (event) => event.name === "workstreams/turn.completed",
    );
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(last).toHaveLength(1);
    sent = last[0] as SentEvent;
    expect(sent).toMatchObject({
      id: row?.id,
      name: "workstreams/turn.completed",
      data: {
        workstreamId: group.id,
        completed: true,
        untitled: true,
        compact: false,
        userId: user.userId,
      },
    });
    // Ids only: the event never carries the member's words.
    expect(JSON.stringify(sent)).not.toContain("lighthouse");
  });

  it("J1 PUT registers every function with its trigger and flow control", async () => {
    const response = await fetch(`${server.url}/api/inngest`, { method: "PUT" });
    expect(response.status).toBe(200);
    const registration = fake.requests.find((request) => request.path.startsWith("/fn/register"));
    const { functions } = (registration?.body ?? { functions: [] }) as {
      functions: Array<Record<string, unknown>>;
    };
    for (const job of JOBS) {
      const registered = functions.find((fn) => fn.id === `workstreams-${job.id}`);
      expect(registered, job.id).toMatchObject({
        triggers: [
          { event: job.trigger.name, ...(job.when ? { expression: expect.any(String) } : {}) },
        ],
        ...(job.flow.concurrency ? { concurrency: job.flow.concurrency } : {}),
        ...(job.flow.throttle ? { throttle: expect.anything() } : {}),
        ...(job.flow.debounce
          ? {
              debounce: {
                key: job.flow.debounce.key,
                period: job.flow.debounce.period,
                ...(job.flow.debounce.timeout ? { timeout: job.flow.debounce.timeout } : {}),
              },
            }
          : {}),
      });
      // Each function's failures are recorded by its onFailure handler, registered beside it.
      expect(functions.some((fn) => fn.id === `workstreams-${job.id}-failure`)).toBe(true);
    }
    // Introspection in Inngest's cloud mode is for Inngest alone: it is signed too.
    const ts = Math.floor(Date.now() / 1000).toString();
    const key = SIGNING_KEY.replace(/^signkey-\w+-/, "");
    const introspect = await fetch(`${server.url}/api/inngest`, {
      headers: {
        "x-inngest-signature": `t=${ts}&s=${createHmac("sha256", key).update(ts).digest("hex")}`,
      },
    });
    const introspection = (await introspect.json()) as { function_count: number };
    // Inngest counts each function's failure handler as a function of its own.
    expect(introspection.function_count).toBe(functions.length);
    expect(functions.length).toBe(2 * JOBS.length);
  });

  it("J1 an unsigned or wrongly signed POST gets 401 and writes nothing", async () => {
    const unsigned = await callFunction("title-generation", sent, {}, () => undefined);
    const forged = await callFunction("title-generation", sent, {}, (text) => {
      const ts = Math.floor(Date.now() / 1000).toString();
      return `t=${ts}&s=${createHmac("sha256", "wrong")
        .update(text + ts)
        .digest("hex")}`;
    });
    expect([unsigned.status, forged.status]).toEqual([401, 401]);
    const db = await getDb();
    const [row] = await db.select().from(workstreams).where(eq(workstreams.id, groupId));
    expect(row?.title).toBe("New Workstream");
    expect(await db.select().from(failedJobs)).toEqual([]);
  });

  it("J1 signed POSTs run the title function step by step until the title is written", async () => {
    const steps: Record<string, unknown> = {};
    const ran: string[] = [];
    for (let call = 0; call < 5; call++) {
      const response = await callFunction("title-generation", sent, steps);
      const body = (await response.json()) as Op[] | { titled: boolean };
      if (response.status === 200) {
        expect(body).toEqual({ titled: true });
        break;
      }
      expect(response.status).toBe(206);
      const [op] = body as Op[];
      if (!op) throw new Error("no op");
      ran.push(op.name);
      // Inngest keeps each step's result and sends it back with the next call.
      steps[op.id] = { data: op.data };
    }
    expect(ran).toEqual(["read-conversation", "propose-title", "write-title"]);
    const db = await getDb();
    const [row] = await db.select().from(workstreams).where(eq(workstreams.id, groupId));
    expect(row?.title).toMatch(/Lighthouse/);
    expect(row?.title).toMatch(/Budget|Restoration/);
  });

  it("J1 an approval's expiry goes to Inngest with the deadline as the event's ts, so Inngest delays the run to it", async () => {
    const user = await signUp(server.url, "Inngest Approver");
    await createGroup(user.client, "Harbour log");
    const own = await user.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "direct", agentId: "chief" },
    });
    const response = await sendTo(user.client, own.body.id, "tell my Harbour log workstream: hi");
    await readSse(response);
    await drainJobsOnce();
    const db = await getDb();
    const [approval] = await db
      .select()
      .from(approvals)
      .where(eq(approvals.workstreamId, own.body.id));
    const sends = fake.requests.filter((request) => request.path === "/e/test-event-key");
    const due = sends
      .flatMap((request) => request.body as Array<SentEvent & { ts?: number }>)
      .find((event) => event.name === "workstreams/approvals.due");
    expect(due).toMatchObject({
      data: { workstreamId: own.body.id, approvalIds: [approval?.id] },
      ts: approval?.expiresAt.getTime(),
    });
  });
});
