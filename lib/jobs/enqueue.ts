// Writing an event to the outbox, inside the caller's transaction: the event exists exactly when
// the change it reports committed. The data is checked against the event's schema here, so a
// malformed event fails the write that made it rather than a job much later.
import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { jobEvents, jobs } from "@/db/schema";
import type { EventDefinition } from "./define";

export type EnqueueOptions = {
  /** A stable id makes a repeat a no-op (a day's sweep); by default every call is a new event. */
  id?: string;
  /** When the runs it starts are due, if not at once. */
  at?: Date;
};

/** Adds one event to the outbox; resolves with whether it was added (false: its id existed). */
export async function enqueueJobEvent<Data>(
  tx: Tx | Db,
  event: EventDefinition<string, Data>,
  data: Data,
  { id = crypto.randomUUID(), at }: EnqueueOptions = {},
): Promise<boolean> {
  const added = await tx
    .insert(jobEvents)
    .values({ id, name: event.name, data: event.schema.parse(data), ts: at ?? null })
    .onConflictDoNothing({ target: jobEvents.id })
    .returning({ id: jobEvents.id });
  return added.length > 0;
}

/**
 * Whether work on `key` is already on its way, so a caller need not queue more: an event named
 * like `event` whose data's `field` is `key` and that no engine has yet, or a run of `functionId`
 * under concurrency key `key` the embedded runner has not started. A running job is not counted:
 * it may have read its input before the caller's change. Inngest's queue cannot be seen from here.
 */
export async function jobPending(
  tx: Tx | Db,
  {
    event,
    field,
    key,
    functionId,
  }: { event: EventDefinition<string, unknown>; field: string; key: string; functionId: string },
): Promise<boolean> {
  const [pending] = await tx
    .select({ id: jobEvents.id })
    .from(jobEvents)
    .where(
      and(
        isNull(jobEvents.dispatchedAt),
        eq(jobEvents.name, event.name),
        sql`${jobEvents.data} ->> ${field} = ${key}`,
      ),
    )
    .limit(1);
  if (pending) return true;
  const [queued] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(eq(jobs.functionId, functionId), eq(jobs.state, "queued"), eq(jobs.concurrencyKey, key)),
    )
    .limit(1);
  return queued !== undefined;
}
