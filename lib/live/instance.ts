// The process-wide live fan-out, chosen by the database like the turn-event fan-out: in-process
// on PGlite, LISTEN/NOTIFY on Postgres.
import { getDatabase } from "@/db/client";
import { processSingleton } from "@/lib/server/singleton";
import { InProcessLiveFanout, type LiveFanout } from "./fanout";
import type { LiveEnvelope } from "./types";

type Holder = { fanout?: Promise<LiveFanout>; forHandle?: unknown };
const holder = processSingleton<Holder>("live-fanout", () => ({}));

export async function getLiveFanout(): Promise<LiveFanout> {
  const handle = await getDatabase();
  if (!holder.fanout || holder.forHandle !== handle) {
    holder.forHandle = handle;
    holder.fanout =
      handle.kind === "postgres"
        ? import("./postgres-fanout").then(({ PostgresLiveFanout }) =>
            PostgresLiveFanout.create(handle.client),
          )
        : Promise.resolve(new InProcessLiveFanout());
  }
  return holder.fanout;
}

/**
 * Publishes a committed change. Live updates are a projection: a failed publish is logged and
 * never fails the write that caused it (clients reconcile on their next load).
 */
export async function publishLive(envelope: LiveEnvelope): Promise<void> {
  try {
    await (await getLiveFanout()).publish(envelope);
  } catch (error) {
    console.error("[live] publish failed:", error);
  }
}
