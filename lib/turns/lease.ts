// Crash safety. A running turn holds a lease that its process renews; a turn whose lease lapsed
// (its process died) is reaped: it ends failed (internal:server_restarted) with its partial output
// kept and the busy flag cleared. Only pending and active turns are reaped, never suspended.

import "server-only";
import { hostname } from "node:os";
import { readUIMessageStream, type UIMessageChunk } from "ai";
import { and, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import { getDatabase, getDb } from "@/db/client";
import { isRunningSql, turns } from "@/db/schema";
import { config } from "@/lib/config";
import { errorClass } from "@/lib/kernel/error-class";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { PROCESS_ID, parseProcessId } from "@/lib/kernel/process-id";
import { processSingleton } from "@/lib/kernel/singleton";
import { latestOffset, readTurnEvents, TurnLog } from "@/lib/stream/event-log";
import { getFanout } from "@/lib/stream/fanout-instance";
import { statusChunk } from "@/lib/stream/types";
import { bus } from "./bus";
import { closeTurn } from "./close-turn";
import type { WorkstreamMessage } from "./messages";
import { runRegistry } from "./run-registry";
import type { TurnRow } from "./turn-records";

/** Renews this process's leases and picks up stop requests recorded by other processes. */
export async function renewLeases(): Promise<void> {
  const local = runRegistry.all().map((run) => run.turnId);
  if (local.length === 0) return;
  const db = await getDb();
  const renewed = await db
    .update(turns)
    .set({ leaseExpiresAt: sql`now() + ${`${config.turns.leaseMs} milliseconds`}::interval` })
    .where(
      and(
        // One array parameter: the same statement text whatever the number of runs.
        sql`${turns.id} = any(${sql.param(local)}::text[])`,
        eq(turns.ownerId, PROCESS_ID),
        isRunningSql(turns.state),
      ),
    )
    .returning({ id: turns.id, stopRequestedAt: turns.stopRequestedAt });
  for (const row of renewed) {
    if (row.stopRequestedAt) runRegistry.abort(row.id, "turn:stopped");
  }
}

function ownerIsGone(ownerId: string | null, embedded: boolean): boolean {
  if (!ownerId || ownerId === PROCESS_ID) return false;
  // An embedded database is opened by one process only: any other owner is a dead one.
  if (embedded) return true;
  const owner = parseProcessId(ownerId);
  if (!owner || owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Ends every running turn whose owner is gone or whose lease lapsed. Returns their ids. */
export async function reapOrphanedTurns(): Promise<string[]> {
  const handle = await getDatabase();
  const db = handle.db;
  const candidates = await db
    .select()
    .from(turns)
    .where(
      and(
        isRunningSql(turns.state),
        or(lt(turns.leaseExpiresAt, sql`now()`), isNotNull(turns.ownerId)),
      ),
    );
  const reaped: string[] = [];
  for (const turn of candidates) {
    if (turn.ownerId === PROCESS_ID && runRegistry.get(turn.id)) continue;
    const expired = turn.leaseExpiresAt !== null && turn.leaseExpiresAt.getTime() < Date.now();
    // About to be registered here (its lease still runs): not a failed close.
    if (turn.ownerId === PROCESS_ID && !expired && runRegistry.isReserved(turn.id)) continue;
    const orphanedHere = turn.ownerId === PROCESS_ID; // ours, but no run: a failed close
    if (!expired && !orphanedHere && !ownerIsGone(turn.ownerId, handle.kind === "pglite")) continue;
    if (await reapTurn(turn)) reaped.push(turn.id);
  }
  return reaped;
}

async function reapTurn(turn: TurnRow): Promise<boolean> {
  const logged = await readTurnEvents({ turnId: turn.id });
  const partial = await reassemble(logged.map((event) => event.chunk as UIMessageChunk));
  const message: WorkstreamMessage | null =
    partial && partial.parts.length > 0
      ? {
          ...partial,
          id: turn.assistantMessageId,
          role: "assistant",
          metadata: {
            ...partial.metadata,
            turnId: turn.id,
            failed: true,
            finishedAt: new Date().toISOString(),
          },
        }
      : null;
  // The closing events go at the end of the workstream's log, which is not always this turn's
  // last event: events the log refused were never written, and a stale holder may have written
  // after them. The turn is still open, so no other turn writes here.
  const lastOffset =
    logged.at(-1)?.offset ?? (await latestOffset({ workstreamId: turn.workstreamId }));
  const text = ERROR_SENTENCES["internal:server_restarted"];
  const events = TurnLog.after(turn, lastOffset).reserve([
    { type: "error", errorText: text },
    statusChunk(turn.id, {
      state: "error",
      code: "internal:server_restarted",
      message: text,
      retryable: true,
    }),
  ]);
  const { closed, workstream } = await closeTurn({
    turn,
    end: { state: "failed", reason: text, errorCode: "internal:server_restarted" },
    events,
    message,
    ownerCheck: false,
    reap: true,
  });
  if (!closed) return false;
  console.warn(`[turns] reaped ${turn.id}: its server process is gone`);
  bus.emit({
    type: "SessionTurnEnd",
    turnId: turn.id,
    workstreamId: turn.workstreamId,
    state: "failed",
    workstream: workstream ? { ...workstream, isRunning: false } : undefined,
  });
  return true;
}

async function reassemble(chunks: UIMessageChunk[]): Promise<WorkstreamMessage | null> {
  const uiChunks = chunks.filter((chunk) => chunk.type !== "data-status");
  if (uiChunks.length === 0) return null;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of uiChunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: WorkstreamMessage | null = null;
  for await (const message of readUIMessageStream<WorkstreamMessage>({ stream })) last = message;
  return last;
}

type LoopState = { timer?: NodeJS.Timeout; stopListener?: () => void };
const loop = processSingleton<LoopState>("lease-loop", () => ({}));

/** Starts lease renewal, stop-request handling and reaping for this process. */
export async function startLeaseLoop(): Promise<void> {
  if (loop.timer) return;
  const fanout = await getFanout();
  loop.stopListener = fanout.onStopRequest((turnId) => {
    runRegistry.abort(turnId, "turn:stopped");
  });
  await reapOrphanedTurns();
  loop.timer = setInterval(() => {
    renewLeases()
      .then(() => reapOrphanedTurns())
      .catch((error: unknown) => console.error(`[turns] lease loop failed (${errorClass(error)})`));
  }, config.turns.leaseRenewMs);
  loop.timer.unref();
}

export function stopLeaseLoop(): void {
  if (loop.timer) clearInterval(loop.timer);
  loop.timer = undefined;
  loop.stopListener?.();
}
