// The reaper of compactions whose process died: a claim whose lease lapsed leaves is_compacting
// set, which would keep saying "Compacting…" and make every message wait. Each server process
// looks every few seconds (and once at start-up) and clears them; the dead compaction's write,
// should its process come back, is refused because its token no longer matches.
import "server-only";
import { config } from "@/lib/config";
import { errorClass } from "@/lib/kernel/error-class";
import { processSingleton } from "@/lib/kernel/singleton";
import { notifyWorkstreamChanged } from "@/lib/workstreams/live";
import { reapLapsedClaims } from "./store";

/** Clears every lapsed compaction and tells its owner's tabs; returns the workstreams cleared. */
export async function reapCompactions(): Promise<string[]> {
  const reaped = await reapLapsedClaims();
  for (const workstreamId of reaped) {
    console.warn(`[compaction] cleared a compaction of ${workstreamId} whose lease lapsed`);
    await notifyWorkstreamChanged({ workstreamId, reason: "compacting" });
  }
  return reaped;
}

type LoopState = { timer?: NodeJS.Timeout };
const loop = processSingleton<LoopState>("compaction-reaper", () => ({}));

export async function startCompactionReaper(): Promise<void> {
  if (loop.timer) return;
  await reapCompactions();
  loop.timer = setInterval(() => {
    reapCompactions().catch((error: unknown) =>
      console.error(`[compaction] reaping failed (${errorClass(error)})`),
    );
  }, config.turns.leaseRenewMs);
  loop.timer.unref();
}

export function stopCompactionReaper(): void {
  if (loop.timer) clearInterval(loop.timer);
  loop.timer = undefined;
}
