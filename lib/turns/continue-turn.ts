// The same turn, going on after its approvals were answered: it is read back from the database
// (the workstream, its history with the kept answer last, its state, plan and memory block, and
// the owner as the context shows them) and run again here, continuing the kept answer. The
// approved tools run once, in the AI SDK's continuation step; denied ones reach the model as
// denials. Whatever fails before the run starts ends the turn failed, never leaves it taken.
import "server-only";
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { executePrepared, getDb } from "@/db/client";
import { fromJson } from "@/db/json";
import {
  member,
  memoryBlockEntries,
  messages,
  organization,
  turns,
  user,
  workstreamStates,
  workstreams,
} from "@/db/schema";
import { readToolPolicy } from "@/lib/approvals/store";
import { toRole } from "@/lib/auth/organizations";
import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import {
  anyVectorsSql,
  fullTextMemoriesSql,
  memorySearch,
  type RetrievedMemory,
  statisticsHeld,
  topMemoriesSql,
  wordStatisticsVersionSql,
} from "@/lib/memory/retrieve";
import type { Attempt } from "@/lib/models/resilient-model";
import type { TokenUsage } from "@/lib/models/usage";
import { type OfferedSkill, offeredSkillsSql } from "@/lib/skills/store";
import type { MemoryBlockEntry } from "@/lib/state/schema";
import { TurnLog } from "@/lib/stream/event-log";
import { statusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { bus } from "./bus";
import {
  type HistoryMessage,
  historyReadCap,
  type KeptContext,
  newestWithin,
} from "./context-window";
import type { MessageMetadata, WorkstreamMessage } from "./messages";
import { logTurnError } from "./outcome";
import { runRegistry } from "./run-registry";
import { type RunInput, runTurn } from "./run-turn";
import type { ResumedTurn } from "./suspend";
import { closeTurn, keptContext, type TurnRow } from "./turn-store";

type Continuation = {
  turn: TurnRow;
  workstream: WorkstreamRow;
  viewer: Viewer;
  history: HistoryMessage[];
  historyLeftOut: number;
  kept: KeptContext;
  memories: RunInput["memories"];
  skills: RunInput["skills"];
  resumed: ResumedTurn;
};

/**
 * Runs the taken-back turn in this process (not tied to any request). `lastOffset` is the log's
 * last offset when it was taken back: its events follow.
 */
export function continueTurn({
  turnId,
  workstreamId,
  serverRunId,
  lastOffset,
}: {
  turnId: string;
  workstreamId: string;
  serverRunId: string;
  lastOffset: number;
}): void {
  const controller = new AbortController();
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  // Registered before the read-back: the turn is this process's already, and while it is read
  // the reaper must see it as running here (a stop finds it here too).
  runRegistry.register({ turnId, workstreamId, serverRunId, controller, done });
  void (async () => {
    let read: Continuation | null = null;
    try {
      read = await readContinuation(turnId);
    } catch (error) {
      logTurnError(turnId, "could not be read back to go on", error);
    }
    if (!read || read.turn.serverRunId !== serverRunId) {
      await failTaken(turnId, serverRunId, lastOffset);
      runRegistry.unregister(turnId);
      return;
    }
    const { turn, workstream } = read;
    bus.emit({
      type: "SessionTurnStart",
      turnId,
      workstreamId: workstream.id,
      workstream: { ...workstream, isRunning: true },
    });
    await runTurn({
      turn,
      workstream,
      history: read.history,
      historyLeftOut: read.historyLeftOut,
      kept: read.kept,
      memories: read.memories,
      skills: read.skills,
      viewer: read.viewer,
      controller,
      log: TurnLog.after(turn, lastOffset),
      resumed: read.resumed,
    });
  })()
    .catch((error: unknown) => {
      runRegistry.unregister(turnId);
      logTurnError(turnId, "could not go on", error);
    })
    .finally(finished);
}

/** A turn taken back that cannot run: it ends failed here, with the answer it kept. */
async function failTaken(turnId: string, serverRunId: string, lastOffset: number): Promise<void> {
  const db = await getDb();
  const [turn] = await db.select().from(turns).where(eq(turns.id, turnId)).limit(1);
  if (!turn) return;
  const text = ERROR_SENTENCES["turn:failed"];
  const events = TurnLog.after(turn, lastOffset).reserve([
    { type: "error", errorText: text },
    statusChunk(turnId, { state: "error", code: "turn:failed", message: text, retryable: true }),
  ]);
  const closed = await closeTurn({
    turn: { id: turnId, workstreamId: turn.workstreamId, serverRunId },
    end: { state: "failed", reason: text, errorCode: "turn:failed" },
    events,
  }).catch((error: unknown) => {
    logTurnError(turnId, "could not be closed", error);
    return null;
  });
  if (!closed?.closed) return;
  bus.emit({
    type: "SessionTurnEnd",
    turnId,
    workstreamId: turn.workstreamId,
    state: "failed",
    workstream: closed.workstream ? { ...closed.workstream, isRunning: false } : undefined,
  });
}

type MessageRow = typeof messages.$inferSelect;

function toMessage(row: MessageRow): WorkstreamMessage {
  return {
    id: row.id,
    role: row.role,
    parts: row.parts as WorkstreamMessage["parts"],
    metadata: row.metadata as MessageMetadata,
  };
}

/** Everything the turn goes on from, as the database holds it now. */
async function readContinuation(turnId: string): Promise<Continuation | null> {
  const db = await getDb();
  const [found] = await db
    .select({ turn: turns, workstream: workstreams })
    .from(turns)
    .innerJoin(workstreams, eq(workstreams.id, turns.workstreamId))
    .where(eq(turns.id, turnId))
    .limit(1);
  // Taken back by this answer, so active; anything else means it ended meanwhile.
  if (!found) return null;
  if (found.turn.state !== "active") return null;
  const { turn, workstream } = found;
  const [answer] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.workstreamId, workstream.id), eq(messages.id, turn.assistantMessageId)))
    .limit(1);
  if (!answer) return null;
  const [history, kept, viewer, toolPolicy] = await Promise.all([
    readHistory(workstream),
    readKept(workstream.id),
    readOwner(workstream),
    readToolPolicy(workstream.organizationId),
  ]);
  const { memories, skills } = await readKnowledge(workstream, history.history);
  return {
    turn,
    workstream,
    viewer,
    ...history,
    kept: { ...kept, toolPolicy },
    memories,
    skills,
    resumed: {
      message: toMessage(answer),
      record: {
        usage: (turn.usage as TokenUsage | null) ?? null,
        costUsd: turn.costUsd,
        attempts: (turn.attempts as Attempt[] | null) ?? [],
      },
    },
  };
}

type KnowledgeRow = {
  top: RetrievedMemory[] | string | null;
  found: RetrievedMemory[] | string | null;
  any_vectors: boolean | null;
  skills: OfferedSkill[] | string | null;
  word_statistics: string | null;
};

function jsonList<T>(value: T[] | string | null): T[] {
  return (value && fromJson(value)) || [];
}

/**
 * What the opening statement read for the turn's memories and skills, read again for the same
 * member and the turn's own message (the newest user message of the history).
 */
async function readKnowledge(
  workstream: WorkstreamRow,
  history: HistoryMessage[],
): Promise<Pick<Continuation, "memories" | "skills">> {
  if (!workstream.ownerId) {
    return { memories: { top: [], fullText: [], anyVectors: false }, skills: [] };
  }
  const reader = {
    organizationId: workstream.organizationId,
    userId: workstream.ownerId,
    agentId: workstream.agentId,
  };
  const asked = history.findLast((entry) => entry.message.role === "user")?.message;
  const search = await memorySearch(
    (asked?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("\n"),
  );
  const [row] = await executePrepared<KnowledgeRow>(sql`select ${topMemoriesSql(reader)} as "top",
      ${fullTextMemoriesSql(reader, search)} as "found", ${anyVectorsSql(reader)} as "any_vectors",
      ${offeredSkillsSql(reader)} as "skills", ${wordStatisticsVersionSql()} as "word_statistics"`);
  const memory = (list: RetrievedMemory[]) =>
    list.map((entry) => ({ ...entry, importance: Number(entry.importance) }));
  return {
    memories: {
      top: memory(jsonList(row?.top ?? null)),
      // Read with statistics that changed since: the retrieval reads them again.
      fullText: statisticsHeld(search, row?.word_statistics ?? null)
        ? memory(jsonList(row?.found ?? null))
        : null,
      anyVectors: Boolean(row?.any_vectors),
    },
    skills: jsonList(row?.skills ?? null),
  };
}

/** The history since the last compaction, newest first up to what any window could take. */
async function readHistory(
  workstream: WorkstreamRow,
): Promise<{ history: HistoryMessage[]; historyLeftOut: number }> {
  const db = await getDb();
  let afterSeq = 0;
  if (workstream.lastCompactedMessageId) {
    const [anchor] = await db
      .select({ seq: messages.seq })
      .from(messages)
      .where(
        and(
          eq(messages.workstreamId, workstream.id),
          eq(messages.id, workstream.lastCompactedMessageId),
        ),
      )
      .limit(1);
    afterSeq = anchor ? Number(anchor.seq) : 0;
  }
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.workstreamId, workstream.id), gt(messages.seq, afterSeq)))
    .orderBy(desc(messages.seq))
    .limit(config.context.maxHistoryMessages);
  const oldestFirst = rows.reverse().map((row) => ({ row, tokens: row.tokenCount }));
  const kept = newestWithin(oldestFirst, historyReadCap(), oldestFirst.length);
  return {
    history: kept.map(({ row, tokens }) => ({ message: toMessage(row), tokens })),
    historyLeftOut: rows.length - kept.length,
  };
}

async function readKept(workstreamId: string) {
  const db = await getDb();
  const [state] = await db
    .select({
      state: workstreamStates.state,
      plan: workstreamStates.plan,
      memorySummary: workstreamStates.memorySummary,
    })
    .from(workstreamStates)
    .where(eq(workstreamStates.workstreamId, workstreamId))
    .limit(1);
  const entries = await db
    .select({
      id: memoryBlockEntries.id,
      role: memoryBlockEntries.role,
      text: memoryBlockEntries.text,
      createdAt: memoryBlockEntries.createdAt,
    })
    .from(memoryBlockEntries)
    .where(eq(memoryBlockEntries.workstreamId, workstreamId))
    .orderBy(asc(memoryBlockEntries.createdAt), asc(memoryBlockEntries.id));
  const blockEntries: MemoryBlockEntry[] = entries.map((entry) => ({
    ...entry,
    createdAt: entry.createdAt.toISOString(),
  }));
  return keptContext(state ?? null, blockEntries);
}

/** The workstream's owner as the context's member section shows them. */
async function readOwner(workstream: WorkstreamRow): Promise<Viewer> {
  const db = await getDb();
  const [row] = workstream.ownerId
    ? await db
        .select({
          name: user.name,
          email: user.email,
          role: sql<string | null>`(select ${member.role} from ${member}
            where ${member.userId} = ${user.id}
              and ${member.organizationId} = ${workstream.organizationId} limit 1)`,
          organizationName: sql<string | null>`(select ${organization.name} from ${organization}
            where ${organization.id} = ${workstream.organizationId})`,
        })
        .from(user)
        .where(eq(user.id, workstream.ownerId))
        .limit(1)
    : [];
  return {
    userId: workstream.ownerId ?? "",
    userName: row?.name ?? "",
    email: row?.email ?? "",
    sessionId: "",
    organizationId: workstream.organizationId,
    organizationName: row?.organizationName ?? "",
    role: toRole(row?.role ?? "member"),
  };
}
