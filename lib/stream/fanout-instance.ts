// The process-wide fan-out, chosen by the database: in-process on PGlite (one process per data
// dir), LISTEN/NOTIFY on Postgres.
import { getDatabase } from "@/db/client";
import { processSingleton } from "@/lib/server/singleton";
import { type EventFanout, InProcessFanout } from "./fanout";

type Holder = { fanout?: Promise<EventFanout>; forHandle?: unknown };
const holder = processSingleton<Holder>("fanout", () => ({}));

export async function getFanout(): Promise<EventFanout> {
  const handle = await getDatabase();
  if (!holder.fanout || holder.forHandle !== handle) {
    holder.forHandle = handle;
    holder.fanout =
      handle.kind === "postgres"
        ? import("./postgres-fanout").then(({ PostgresFanout }) =>
            PostgresFanout.create(handle.client),
          )
        : Promise.resolve(new InProcessFanout());
  }
  return holder.fanout;
}
