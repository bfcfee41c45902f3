// The compactions table and the compaction columns of workstreams: the only writer of both. A
// compaction claims its workstream under a lease (is_compacting, a token and an expiry), and
// writes everything it changes in one transaction that holds only while its token is still the
// workstream's: the compaction row, the state delta (through lib/state), the new summary and the
// moved pointer, with the flag cleared. Whatever else happens, the flag is released by the
// compaction itself or, once its lease lapses, by the reaper.
import "server-only";
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { executePrepared, getDb, transaction } from "@/db/client";
import { fromJson } from "@/db/json";
import { type CompactionRow, compactions, workstreams } from "@/db/schema";
import { config } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";
import type { StateItemRef } from "@/lib/state/merge";
import {
  type Eviction,
  emptyState,
  type WorkstreamState,
  type WorkstreamStateDelta,
  workstreamStateSchema,
} from "@/lib/state/schema";
import { mergeDeltaInTransaction } from "@/lib/state/store";
import { toStorableJson, toStorableText } from "@/lib/text/storable";
import type { HistoryEntry } from "./threshold";

/** A message of the uncompacted history, as the job weighs it. */
export type CandidateMessage = HistoryEntry & { seq: number };

/** What a compaction starts from: the workstream's pointers and its uncompacted history. */
export type Candidate = {
  workstreamId: string;
  organizationId: string;
  ownerId: string;
  lastCompactedMessageId: string | null;
  previousSummary: string | null;
  /** The model of the turn that asked (its window is the one that counts), when it is known. */
  model: string | null;
  history: CandidateMessage[];
};

type CandidateRow = {
  organization_id: string;
  owner_id: string | null;
  status: string;
  last_compacted_message_id: string | null;
  compaction_summary: string | null;
  model: string | null;
  history: CandidateMessage[] | string | null;
};

/**
 * The workstream's uncompacted history (ids, roles and stored token counts only) and what the
 * compaction needs beside it; null for a workstream that is gone, archived or without an owner.
 */
export async function readCandidate({
  workstreamId,
  turnId,
}: {
  workstreamId: string;
  turnId: string;
}): Promise<Candidate | null> {
  const [row] = await executePrepared<CandidateRow>(sql`
    select w."organization_id", w."owner_id", w."status", w."last_compacted_message_id",
      w."compaction_summary",
      (select t."model" from "turns" t where t."id" = ${turnId} and t."workstream_id" = w."id")
        as model,
      (select coalesce(json_agg(json_build_object('id', m."id", 'role', m."role", 'seq', m."seq",
          'tokens', m."token_count") order by m."seq"), '[]'::json)
        from "messages" m
        where m."workstream_id" = w."id" and m."seq" > coalesce((
          select a."seq" from "messages" a
          where a."workstream_id" = w."id" and a."id" = w."last_compacted_message_id"), 0))
        as history
    from "workstreams" w where w."id" = ${workstreamId}`);
  if (!row?.owner_id || row.status === "archived") return null;
  return {
    workstreamId,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    lastCompactedMessageId: row.last_compacted_message_id,
    previousSummary: row.compaction_summary,
    model: row.model,
    history: (fromJson(row.history) ?? []).map((entry) => ({ ...entry, seq: Number(entry.seq) })),
  };
}

const leaseInterval = () => sql`now() + ${`${config.compaction.leaseMs} milliseconds`}::interval`;

/** A claim's hold on its workstream: the token its writes must still match. */
export type Claim = { workstreamId: string; token: string };

/**
 * Sets `is_compacting` under a new lease, if no live compaction holds the workstream and its
 * pointer is still the one the candidate was read at. True when this claim holds it.
 */
export async function claimWorkstream({
  workstreamId,
  lastCompactedMessageId,
  token,
}: {
  workstreamId: string;
  lastCompactedMessageId: string | null;
  token: string;
}): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(workstreams)
    .set({ isCompacting: true, compactionToken: token, compactionLeaseExpiresAt: leaseInterval() })
    .where(
      and(
        eq(workstreams.id, workstreamId),
        sql`${workstreams.lastCompactedMessageId} is not distinct from ${lastCompactedMessageId}`,
        or(
          eq(workstreams.isCompacting, false),
          isNull(workstreams.compactionLeaseExpiresAt),
          lt(workstreams.compactionLeaseExpiresAt, sql`now()`),
        ),
      ),
    )
    .returning({ id: workstreams.id });
  return rows.length > 0;
}

/** Extends the claim's lease; false when the claim no longer holds (it was reaped). */
export async function renewClaim(claim: Claim): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(workstreams)
    .set({ compactionLeaseExpiresAt: leaseInterval() })
    .where(
      and(eq(workstreams.id, claim.workstreamId), eq(workstreams.compactionToken, claim.token)),
    )
    .returning({ id: workstreams.id });
  return rows.length > 0;
}

/** Clears the flag if this claim still holds it; true when it did. */
export async function releaseClaim(claim: Claim): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(workstreams)
    .set({ isCompacting: false, compactionToken: null, compactionLeaseExpiresAt: null })
    .where(
      and(eq(workstreams.id, claim.workstreamId), eq(workstreams.compactionToken, claim.token)),
    )
    .returning({ id: workstreams.id });
  return rows.length > 0;
}

/** Clears every compaction whose lease lapsed (its process died); returns their workstreams. */
export async function reapLapsedClaims(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .update(workstreams)
    .set({ isCompacting: false, compactionToken: null, compactionLeaseExpiresAt: null })
    .where(
      and(
        eq(workstreams.isCompacting, true),
        or(
          isNull(workstreams.compactionLeaseExpiresAt),
          lt(workstreams.compactionLeaseExpiresAt, sql`now()`),
        ),
      ),
    )
    .returning({ id: workstreams.id });
  return rows.map((row) => row.id);
}

/** A message of the range, as the summary reads it. */
export type RangeMessage = { role: string; parts: unknown };

/** The range's messages, oldest first, and the state the delta will be merged into. */
export async function readRange({
  workstreamId,
  fromSeq,
  toSeq,
}: {
  workstreamId: string;
  fromSeq: number;
  toSeq: number;
}): Promise<{ messages: RangeMessage[]; state: WorkstreamState }> {
  const [row] = await executePrepared<{ messages: RangeMessage[] | string | null; state: unknown }>(
    sql`
    select (select coalesce(json_agg(json_build_object('role', m."role", 'parts', m."parts")
          order by m."seq"), '[]'::json)
        from "messages" m
        where m."workstream_id" = ${workstreamId} and m."seq" between ${fromSeq} and ${toSeq})
        as messages,
      (select s."state" from "workstream_states" s where s."workstream_id" = ${workstreamId})
        as state`,
  );
  const state = workstreamStateSchema.safeParse(fromJson(row?.state ?? null) ?? {});
  return {
    messages: fromJson(row?.messages ?? null) ?? [],
    state: state.success ? (state.data as WorkstreamState) : emptyState(),
  };
}

/** What the state merge changed: the items it added and the ones it evicted to stay in bounds. */
export type StateChanges = { added: StateItemRef[]; evicted: Eviction[] };

export type CompactionWrite = {
  id: string;
  claim: Claim;
  organizationId: string;
  first: { id: string; seq: number };
  last: { id: string; seq: number };
  messageCount: number;
  summary: string;
  delta: WorkstreamStateDelta;
  tokensBefore: number;
  tokensAfter: number;
  model: string;
  durationMs: number;
};

/**
 * Records the compaction, merges its delta into the state, points the workstream at the new
 * summary and range end, and clears the flag: one transaction, written only while the claim
 * still holds. Null when it no longer did (nothing is written).
 */
export async function writeCompaction(
  write: CompactionWrite,
): Promise<{ row: CompactionRow; changes: StateChanges } | null> {
  const { claim } = write;
  return transaction(async (tx) => {
    const [held] = await tx
      .select({ id: workstreams.id })
      .from(workstreams)
      .where(
        and(eq(workstreams.id, claim.workstreamId), eq(workstreams.compactionToken, claim.token)),
      )
      .for("update");
    if (!held) return null;
    const merged = await mergeDeltaInTransaction(tx, {
      workstreamId: claim.workstreamId,
      organizationId: write.organizationId,
      delta: write.delta,
    });
    const changes: StateChanges = { added: merged.added, evicted: merged.lastEvictions };
    const summary = toStorableText(write.summary);
    const [row] = await tx
      .insert(compactions)
      .values({
        id: write.id,
        workstreamId: claim.workstreamId,
        organizationId: write.organizationId,
        firstMessageId: write.first.id,
        lastMessageId: write.last.id,
        firstSeq: write.first.seq,
        lastSeq: write.last.seq,
        messageCount: write.messageCount,
        summary,
        stateDelta: toStorableJson(write.delta),
        stateChanges: changes,
        tokensBefore: write.tokensBefore,
        tokensAfter: write.tokensAfter,
        model: write.model,
        durationMs: write.durationMs,
      })
      .returning();
    if (!row) return null;
    await tx
      .update(workstreams)
      .set({
        compactionSummary: summary,
        lastCompactedMessageId: write.last.id,
        isCompacting: false,
        compactionToken: null,
        compactionLeaseExpiresAt: null,
      })
      .where(eq(workstreams.id, claim.workstreamId));
    return { row, changes };
  });
}

/** A workstream's compactions, oldest first (each one's range follows the one before). */
export async function listCompactionRows({
  workstreamId,
}: {
  workstreamId: string;
}): Promise<CompactionRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(compactions)
    .where(eq(compactions.workstreamId, workstreamId))
    .orderBy(asc(compactions.lastSeq));
}

/** One compaction of the workstream, or 404 `not_found:compaction`. */
export async function getCompactionRow({
  workstreamId,
  compactionId,
}: {
  workstreamId: string;
  compactionId: string;
}): Promise<CompactionRow> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(compactions)
    .where(and(eq(compactions.id, compactionId), eq(compactions.workstreamId, workstreamId)))
    .limit(1);
  if (!row) throw new AppError("not_found:compaction");
  return row;
}
