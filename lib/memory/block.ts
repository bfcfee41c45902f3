// The memory block: a workstream's short role-labelled notes and the one summary its older notes
// are folded into. This module is the only writer of memory_block_entries and of the summary
// columns of workstream_states. A note that brings the block to its trigger size queues the
// summary job in the same transaction (through the jobs port's outbox), and the job folds the
// oldest notes by compare-and-set, so a note deleted meanwhile is never summarized and never lost.
// Notes are ordered by their time, then their id: ids are time-ordered (UUIDv7, monotonic within
// the process) because the embedded database's clock counts whole milliseconds, and two notes
// written in the same one must still keep the order they were written in.
import "server-only";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { executePrepared, getDb, transaction } from "@/db/client";
import { fromJson } from "@/db/json";
import { memoryBlockEntries, workstreamStates, workstreams } from "@/db/schema";
import { enqueueJobEvent, jobPending } from "@/lib/jobs/enqueue";
import { memoryBlockFull } from "@/lib/jobs/events";
import { AppError } from "@/lib/kernel/errors";
import { publishContextChange } from "@/lib/state/publish";
import {
  MEMORY_BLOCK_FOLD,
  MEMORY_BLOCK_TRIGGER,
  type MemoryBlockEntry,
  STATE_ITEM_MAX,
} from "@/lib/state/schema";
import { toStorableText } from "@/lib/text/storable";

/** The summary job's function id: a queued run of it means a fold is already on its way. */
export const MEMORY_SUMMARY_JOB_ID = "memory-block-summary";

/** Who a note or a deletion acts for: the workstream's owner in its organization. */
export type MemoryOwner = { userId: string; organizationId: string };

/** A note as it is stored: trimmed, storable, and within the item limit (or refused). */
export function noteText(text: string): string {
  const trimmed = toStorableText(text).replace(/\s+/gu, " ").trim();
  if (!trimmed) throw new AppError("bad_request:validation", { details: { field: "text" } });
  if ([...trimmed].length > STATE_ITEM_MAX) {
    throw new AppError("bad_request:too_long", { details: { field: "text", max: STATE_ITEM_MAX } });
  }
  return trimmed;
}

/** An agent id or "member": short, one line, storable. */
function roleLabel(role: string): string {
  const label = toStorableText(role).replace(/\s+/gu, " ").trim().slice(0, 64);
  return label || "member";
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

/**
 * Adds a note to the owner's workstream. When the block now holds the trigger's number of notes
 * and no summary job is pending for it (an event not yet handed over, or an embedded run not yet
 * started), the same transaction queues one. A running job re-reads the block when it is done, so
 * it does not count as pending; Inngest's queue cannot be seen from here, so with Inngest a later
 * note may queue a second run, which waits for the first (one per workstream) and finds less to
 * fold. `queued` says whether the caller should wake the job engine.
 */
export async function addMemoryNote({
  workstreamId,
  organizationId,
  ownerId,
  role,
  text,
}: {
  workstreamId: string;
  organizationId: string;
  ownerId: string;
  role: string;
  text: string;
}): Promise<{ entry: MemoryBlockEntry; queued: boolean }> {
  const stored = noteText(text);
  const { entry, queued } = await transaction(async (tx) => {
    const [workstream] = await tx
      .select({ id: workstreams.id })
      .from(workstreams)
      .where(
        and(
          eq(workstreams.id, workstreamId),
          eq(workstreams.organizationId, organizationId),
          eq(workstreams.ownerId, ownerId),
        ),
      )
      .limit(1);
    if (!workstream) throw new AppError("not_found:workstream");
    const [added] = await tx
      .insert(memoryBlockEntries)
      .values({ id: uuidv7(), workstreamId, role: roleLabel(role), text: stored })
      .returning();
    if (!added) throw new AppError("not_found:workstream");
    const [held] = await tx
      .select({ notes: count() })
      .from(memoryBlockEntries)
      .where(eq(memoryBlockEntries.workstreamId, workstreamId));
    const full = (held?.notes ?? 0) >= MEMORY_BLOCK_TRIGGER;
    const queue =
      full &&
      !(await jobPending(tx, {
        event: memoryBlockFull,
        field: "workstreamId",
        key: workstreamId,
        functionId: MEMORY_SUMMARY_JOB_ID,
      }));
    if (queue) await enqueueJobEvent(tx, memoryBlockFull, { workstreamId, organizationId });
    return { entry: added, queued: queue };
  });
  await publishContextChange({
    organizationId,
    ownerId,
    workstreamId,
    reason: "memory_block",
  });
  return {
    entry: { id: entry.id, role: entry.role, text: entry.text, createdAt: iso(entry.createdAt) },
    queued,
  };
}

type DeletedRow = { id: string; deleted: number };

/** Deletes one note of the owner's workstream: another's workstream or note is not found. */
export async function deleteMemoryEntry({
  owner,
  workstreamId,
  entryId,
}: {
  owner: MemoryOwner;
  workstreamId: string;
  entryId: string;
}): Promise<{ deleted: true }> {
  const [row] = await executePrepared<DeletedRow>(sql`
    with ws as (
      select "id" from "workstreams"
      where "id" = ${workstreamId} and "organization_id" = ${owner.organizationId}
        and "owner_id" = ${owner.userId}
    ), deleted as (
      delete from "memory_block_entries" e using ws
      where e."id" = ${entryId} and e."workstream_id" = ws."id"
      returning e."id"
    )
    select ws."id", (select count(*) from deleted)::int as "deleted" from ws`);
  if (!row) throw new AppError("not_found:workstream");
  if (!row.deleted) throw new AppError("not_found:memory_entry");
  await publishContextChange({
    organizationId: owner.organizationId,
    ownerId: owner.userId,
    workstreamId,
    reason: "memory_block",
  });
  return { deleted: true };
}

/** What one fold works on: the oldest notes and the summary they will be folded into. */
export type FoldInput = {
  workstreamId: string;
  organizationId: string;
  ownerId: string | null;
  /** The current summary, and how many notes it already folds (0 without one). */
  previous: { text: string; entries: number } | null;
  entries: MemoryBlockEntry[];
};

type FoldRow = {
  organization_id: string;
  owner_id: string | null;
  memory_summary: string | null;
  memory_summary_entries: number | null;
  entries: unknown;
};

/** The oldest notes to fold, or null when the block is below its trigger size (or gone). */
export async function readFoldInput(workstreamId: string): Promise<FoldInput | null> {
  const [row] = await executePrepared<FoldRow>(sql`
    select w."organization_id", w."owner_id", s."memory_summary", s."memory_summary_entries",
      (select json_agg(json_build_object('id', e."id", 'role', e."role", 'text', e."text",
          'createdAt', e."created_at") order by e."created_at", e."id")
        from "memory_block_entries" e where e."workstream_id" = w."id") as entries
    from "workstreams" w
    left join "workstream_states" s on s."workstream_id" = w."id"
    where w."id" = ${workstreamId}`);
  if (!row) return null;
  const raw = fromJson(row.entries);
  const all = (raw ?? []) as MemoryBlockEntry[];
  if (all.length < MEMORY_BLOCK_TRIGGER) return null;
  return {
    workstreamId,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    previous: row.memory_summary
      ? { text: row.memory_summary, entries: row.memory_summary_entries ?? 0 }
      : null,
    entries: all
      .slice(0, MEMORY_BLOCK_FOLD)
      .map((entry) => ({ ...entry, createdAt: iso(entry.createdAt) })),
  };
}

/** Thrown inside the fold's transaction to undo it when the block changed under it. */
class FoldConflict extends Error {}

/**
 * Writes the summary in place of the notes it folds, in one transaction and only if nothing
 * moved: every one of those notes is still there and the summary is still the one that was read.
 * Otherwise nothing is written (false) and a later run folds the block as it then is.
 */
export async function writeFold(fold: FoldInput, summary: string): Promise<boolean> {
  const text = summaryText(summary);
  const ids = fold.entries.map((entry) => entry.id);
  const expected = fold.previous?.entries ?? 0;
  let written: boolean;
  try {
    written = await transaction(async (tx) => {
      const present = await tx
        .select({ id: memoryBlockEntries.id })
        .from(memoryBlockEntries)
        .where(
          and(
            eq(memoryBlockEntries.workstreamId, fold.workstreamId),
            inArray(memoryBlockEntries.id, ids),
          ),
        )
        .for("update");
      if (present.length !== ids.length) return false;
      await tx
        .insert(workstreamStates)
        .values({ workstreamId: fold.workstreamId, organizationId: fold.organizationId })
        .onConflictDoNothing();
      const updated = await tx
        .update(workstreamStates)
        .set({
          memorySummary: text,
          memorySummaryEntries: sql`${workstreamStates.memorySummaryEntries} + ${ids.length}`,
          memorySummaryAt: sql`now()`,
          version: sql`${workstreamStates.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(workstreamStates.workstreamId, fold.workstreamId),
            eq(workstreamStates.memorySummaryEntries, expected),
          ),
        )
        .returning({ id: workstreamStates.workstreamId });
      // Another fold got there first: undo the row this one may have created.
      if (!updated.length) throw new FoldConflict();
      await tx.delete(memoryBlockEntries).where(inArray(memoryBlockEntries.id, ids));
      return true;
    });
  } catch (error) {
    if (!(error instanceof FoldConflict)) throw error;
    written = false;
  }
  if (written) {
    await publishContextChange({
      organizationId: fold.organizationId,
      ownerId: fold.ownerId,
      workstreamId: fold.workstreamId,
      reason: "memory_block",
    });
  }
  return written;
}

/** A model's summary as stored: one paragraph, storable, at most the item limit (whole words). */
export function summaryText(raw: string): string {
  const text = toStorableText(raw).replace(/\s+/gu, " ").trim();
  const chars = [...text];
  if (chars.length <= STATE_ITEM_MAX) return text;
  const cut = chars.slice(0, STATE_ITEM_MAX).join("");
  const space = cut.lastIndexOf(" ");
  return (space > STATE_ITEM_MAX / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/**
 * One fold without the job's steps (a caller that already runs in the background): read, ask
 * `summarize` for one summary of the previous summary and the oldest notes, write by
 * compare-and-set. False when there was nothing to fold or the block moved meanwhile.
 */
export async function foldOldestEntries(
  workstreamId: string,
  summarize: (fold: FoldInput) => Promise<string>,
): Promise<boolean> {
  const fold = await readFoldInput(workstreamId);
  if (!fold) return false;
  return writeFold(fold, await summarize(fold));
}

/** The workstream's memory block as a turn's context shows it: its summary, then its notes. */
export async function readMemoryBlock(
  workstreamId: string,
): Promise<{ summary: string | null; entries: MemoryBlockEntry[] }> {
  const db = await getDb();
  const [summary] = await db
    .select({ text: workstreamStates.memorySummary })
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
  return {
    summary: summary?.text ?? null,
    entries: entries.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  };
}
