// RECEIVE_INPUT (seed 000 pre-turn setup, seed 004 naming): wait while the workstream is
// compacting, validate the message, register the run, compare-and-set the busy flag and persist
// the user message before any model call. Then the turn runs on its own, not tied to the request.
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { AppError } from "@/lib/http/errors";
import { getOwnedWorkstream, type WorkstreamRow } from "@/lib/workstreams/queries";
import { bus, stage } from "./bus";
import { GuardRefusal, runStageHooks } from "./hooks";
import { findMessage, type WorkstreamMessage } from "./messages";
import { runRegistry } from "./run-registry";
import { runTurn } from "./run-turn";
import { TurnEmitter } from "./turn-emitter";
import { getTurn, openTurn, type TurnRow } from "./turn-store";

export type StartedTurn = { turn: TurnRow; followAfter: number };

async function waitWhileCompacting(workstream: WorkstreamRow): Promise<void> {
  if (!workstream.isCompacting) return;
  const db = await getDb();
  const deadline = Date.now() + config.turns.compactionWaitMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [row] = await db
      .select({ isCompacting: workstreams.isCompacting })
      .from(workstreams)
      .where(eq(workstreams.id, workstream.id));
    if (!row?.isCompacting) return;
  }
  throw new AppError("unavailable:compacting", { headers: { "retry-after": "5" } });
}

/** A re-POST of a message is Retry only when its turn failed or was cancelled. */
async function checkRetry(workstreamId: string, message: WorkstreamMessage): Promise<void> {
  const existing = await findMessage({ workstreamId, messageId: message.id });
  if (!existing) return;
  if (existing.role !== "user") {
    throw new AppError("conflict:message_id");
  }
  const previous = existing.turnId ? await getTurn({ turnId: existing.turnId }) : null;
  if (previous && (previous.state === "failed" || previous.state === "cancelled")) return;
  throw new AppError("conflict:duplicate_message", {
    details: { turnId: previous?.id ?? null },
  });
}

export async function startTurn({
  viewer,
  workstreamId,
  message,
}: {
  viewer: Viewer;
  workstreamId: string;
  message: WorkstreamMessage;
}): Promise<StartedTurn> {
  const turnId = `turn_${crypto.randomUUID().replaceAll("-", "")}`;
  const serverRunId = crypto.randomUUID();
  const { workstream, turn, lastOffset } = await stage(turnId, "RECEIVE_INPUT", async () => {
    const workstream = await getOwnedWorkstream({ viewer, workstreamId });
    if (workstream.status === "archived") {
      throw new AppError("conflict:archived");
    }
    await waitWhileCompacting(workstream);
    await checkRetry(workstreamId, message);
    const ctx = {
      turnId,
      workstreamId,
      organizationId: viewer.organizationId,
      userId: viewer.userId,
    };
    const input = await runStageHooks("RECEIVE_INPUT", { message }, ctx).catch((error: unknown) => {
      if (error instanceof GuardRefusal) {
        throw new AppError("forbidden:guard", {
          details: { hook: error.hook },
        });
      }
      throw error;
    });
    // Also counts the turn against the user's rate limit, atomically with opening it.
    const opened = await openTurn({
      turnId,
      workstreamId,
      organizationId: viewer.organizationId,
      userId: viewer.userId,
      serverRunId,
      message: { ...input.message, metadata: { ...input.message.metadata, turnId } },
      assistantMessageId: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
      agentId: workstream.agentId,
    });
    return { workstream, ...opened };
  });

  const controller = new AbortController();
  const emitter = new TurnEmitter(turn, lastOffset + 1);
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  runRegistry.register({ turnId, workstreamId, serverRunId, controller, done });
  bus.emit({ type: "SessionTurnStart", turnId, workstreamId });
  emitter.status({ state: "acknowledged" }, { immediate: true });
  void runTurn({ turn, workstream, viewer, controller, emitter }).finally(finished);
  return { turn, followAfter: lastOffset };
}
