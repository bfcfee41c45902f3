// Writing an event to the outbox, inside the caller's transaction: the event exists exactly when
// the change it reports committed. The data is checked against the event's schema here, so a
// malformed event fails the write that made it rather than a job much later.
import "server-only";
import type { Db, Tx } from "@/db/client";
import { jobEvents } from "@/db/schema";
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
