// Helpers for the approval tests: a member with a workstream to act from and one to write to,
// a turn that ends waiting for send_message's approval, answering it, and reading rows back.
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { approvalDecisions, approvals, messages, turns } from "@/db/schema";
import { type Owner, send, userWithWorkstream } from "../support/fixtures";
import type { HttpClient } from "../support/http-client";
import { readSse, type SseEvent, statuses } from "../support/sse";
import { createGroup } from "./workstreams-support/helpers";

export type Desk = Owner & { targetId: string; targetTitle: string };

/** A member with their direct chief workstream and a group workstream to send messages to. */
export async function deskWithTarget(baseUrl: string, title = "Launch notes"): Promise<Desk> {
  const owner = await userWithWorkstream(baseUrl, "Approval Tester");
  const target = await createGroup(owner.client, title);
  return { ...owner, targetId: target.id, targetTitle: title };
}

export type Suspension = {
  turnId: string;
  events: SseEvent[];
  approvalIds: string[];
};

/** Sends `text` and reads the turn until it ends; it should end suspended. */
export async function sendUntilSuspended(owner: Owner, text: string): Promise<Suspension> {
  const response = await send(owner, text);
  if (response.status !== 200) throw new Error(`send: ${response.status}`);
  const turnId = String(response.headers.get("x-turn-id"));
  const { events } = await readSse(response);
  const last = statuses(events).at(-1);
  if (last !== "suspended") throw new Error(`the turn ended ${last}, not suspended`);
  const approvalIds = events
    .filter((event) => event.data.type === "tool-approval-request")
    .map((event) => String(event.data.approvalId));
  return { turnId, events, approvalIds };
}

export function answer(
  client: HttpClient,
  owner: { workstreamId: string },
  turnId: string,
  approvalId: string,
  body: unknown,
) {
  return client.json<{
    state?: string;
    continued?: boolean;
    next?: { approvalId: string } | null;
    error?: { code: string; state?: string; approvalId?: string };
  }>(`/api/workstreams/${owner.workstreamId}/turns/${turnId}/approvals/${approvalId}`, {
    method: "POST",
    json: body,
  });
}

/** Follows the workstream's events from `after` until the turn's terminal event. */
export async function followFrom(owner: Owner, after: number) {
  return readSse(
    await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/events?after=${after}`),
  );
}

export async function turnRow(turnId: string) {
  const [row] = await (await getDb()).select().from(turns).where(eq(turns.id, turnId));
  return row;
}

export async function approvalRows(turnId: string) {
  return (await getDb()).select().from(approvals).where(eq(approvals.turnId, turnId));
}

export async function decisionRows(turnId: string) {
  return (await getDb())
    .select()
    .from(approvalDecisions)
    .where(eq(approvalDecisions.turnId, turnId));
}

export async function messagesOf(workstreamId: string) {
  return (await getDb())
    .select()
    .from(messages)
    .where(eq(messages.workstreamId, workstreamId))
    .orderBy(messages.seq);
}

/** Waits until `check` holds (the continuation runs after the answer returns). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
