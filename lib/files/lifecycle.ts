// Storage that outlives its rows is removed here: a deleted workstream's or organization's prefix
// (queued in the delete's transaction, run as a job until it succeeds), uploads never attached to a message
// (a daily job), and objects no files row owns (a reconciler at start-up: a crash between
// storing an object and writing its row, or a spool a crash left behind).
import "server-only";
import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { enqueueJobEvent } from "@/lib/jobs/enqueue";
import { filesSweepDue } from "@/lib/jobs/events";
import { ownedKeys, takeUnattached } from "./records";
import { getFileStore } from "./store-instance";

/** Removes everything under a deleted workstream's or organization's prefix; safe to run again. */
export function removeWorkstreamFiles(prefix: string): Promise<number> {
  return getFileStore().removePrefix(prefix);
}

/** Removes uploads never attached and older than a day: their rows, then their objects. */
export async function sweepUnattachedUploads(now = Date.now()): Promise<number> {
  const before = new Date(now - config.files.unattachedMaxAgeMs);
  let removed = 0;
  for (;;) {
    const keys = await takeUnattached(before);
    for (const key of keys) await getFileStore().remove(key);
    removed += keys.length;
    if (keys.length < 500) return removed;
  }
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Queues the sweep for the day after `now` (03:00 UTC) unless it is queued already: the event id
 * is the day's, so every server process and every repeat queues it once.
 */
export async function scheduleFileSweep(now = Date.now()): Promise<void> {
  const day = dayOf(now + 86_400_000);
  await enqueueJobEvent(
    await getDb(),
    filesSweepDue,
    { day },
    { id: `files-sweep-${day}`, at: new Date(`${day}T03:00:00.000Z`) },
  );
}

/** Deletes objects no files row owns that are older than an hour; resolves with how many. */
export async function reconcileStorage(now = Date.now()): Promise<number> {
  const cutoff = now - config.files.orphanMinAgeMs;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    const owned = await ownedKeys(batch);
    for (const key of batch) {
      if (owned.has(key)) continue;
      await getFileStore().remove(key);
      removed += 1;
    }
    batch = [];
  };
  for await (const object of getFileStore().list()) {
    if (object.lastModified.getTime() >= cutoff) continue;
    batch.push(object.key);
    if (batch.length >= 500) await flush();
  }
  if (batch.length) await flush();
  return removed;
}

/** At start-up: queue tomorrow's sweep and reconcile storage in the background. */
export function startFileLifecycle(): void {
  scheduleFileSweep().catch((error: unknown) =>
    console.error("[files] scheduling the sweep failed:", error),
  );
  reconcileStorage()
    .then((removed) => {
      if (removed) console.log(`[files] removed ${removed} stored object(s) no file owns`);
    })
    .catch((error: unknown) => console.error("[files] reconciling storage failed:", error));
}
