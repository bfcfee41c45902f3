// The process-wide fan-out, chosen by the database: in-process only on PGlite (one process per
// data dir), with the LISTEN/NOTIFY transport on Postgres.
import "server-only";
import { getDatabase } from "@/db/client";
import { processSingleton } from "@/lib/kernel/singleton";
import { Fanout } from "./fanout";
import type { LiveEnvelope } from "./live";

type Holder = { fanout?: Promise<Fanout>; forHandle?: unknown };
const holder = processSingleton<Holder>("fanout", () => ({}));

export async function getFanout(): Promise<Fanout> {
  const handle = await getDatabase();
  if (!holder.fanout || holder.forHandle !== handle) {
    holder.forHandle = handle;
    holder.fanout =
      handle.kind === "postgres"
        ? import("./postgres-transport").then(async ({ PostgresTransport }) =>
            Fanout.create(await PostgresTransport.create(handle.client)),
          )
        : Fanout.create();
  }
  return holder.fanout;
}

/**
 * Publishes a committed change on the live channel. Live updates are a projection: a failed
 * publish is logged and never fails the write that caused it (clients reconcile on next load).
 */
export async function publishLive(envelope: LiveEnvelope): Promise<void> {
  try {
    await (await getFanout()).publishLive(envelope);
  } catch (error) {
    console.error("[live] publish failed:", error);
  }
}
