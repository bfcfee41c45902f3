// The regular memory digest of an organization: every completed turn that ended after the
// organization's cursor (and was not an onboarding turn, which post-chat-memory handles at once)
// is read once, its facts are written as the member's memories, and the cursor moves past it in
// the same transaction as those memories. A digest that crashes before its commit leaves both as
// they were; one that committed and runs again finds the cursor moved and writes nothing.
//
// Why the cursor is more than a timestamp: a turn's end time is taken when its closing statement
// starts, and on Postgres several servers close turns at once, so a turn can become visible after
// a digest already read later ones. Each digest therefore looks back `digestOverlapMs` before its
// cursor and skips the turns it lists as read there (`recent`); a late turn is read by the next
// digest, which its own post-turn event triggers.
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared, transaction } from "@/db/client";
import { fromJson } from "@/db/json";
import type { DigestedTurn } from "@/db/schema/memory-digests";
import { config } from "@/lib/config";
import {
  type ConversationSlice,
  type ExtractedFact,
  learnedFacts,
  planWrites,
  SLICE_COLUMNS,
  SLICE_JOINS,
  type SliceRow,
  toSlice,
  writePlan,
} from "./learn";

/** What one digest round read: the cursor as it was, and the slices after it, oldest first. */
export type DigestRound = {
  organizationId: string;
  /** The cursor's version when read; null when the organization has none yet. */
  version: number | null;
  endedAt: string | null;
  recent: DigestedTurn[];
  slices: ConversationSlice[];
};

/**
 * An onboarding turn: it ended while its member was still onboarding in the organization (the
 * same rule the turn's closing statement uses to mark its post-turn event).
 */
export const ONBOARDING_TURN = sql`exists (select 1 from "member_onboarding" o
  where o."organization_id" = t."organization_id" and o."user_id" = t."user_id"
    and (o."completed_at" is null or t."ended_at" < o."completed_at"))`;

type RoundRow = SliceRow & {
  cursor_version: number | null;
  cursor_ended_at: Date | string | null;
  cursor_recent: DigestedTurn[] | string | null;
};

/** The next at most `limit` undigested slices of the organization, with the cursor they follow. */
export async function readDigestRound(
  organizationId: string,
  limit = config.memory.digestSliceBatch,
): Promise<DigestRound> {
  const overlap = `${config.memory.digestOverlapMs} milliseconds`;
  // The cursor comes back even when no turn does (the outer left join).
  const rows = await executePrepared<RoundRow>(sql`
    with cursor as (
      select "version", "ended_at", "recent" from "memory_digest_cursors"
      where "organization_id" = ${organizationId}
    ), due as (
      select ${SLICE_COLUMNS}
      from "turns" t ${SLICE_JOINS}
      left join cursor c on true
      where t."organization_id" = ${organizationId} and t."state" = 'completed'
        and t."ended_at" is not null and t."user_id" is not null
        and (c."ended_at" is null or t."ended_at" > c."ended_at" - ${overlap}::interval)
        and not coalesce(c."recent" @> jsonb_build_array(jsonb_build_object('id', t."id")), false)
        and not ${ONBOARDING_TURN}
      order by t."ended_at", t."id"
      limit ${limit}
    )
    select due.*, c."version" as cursor_version, c."ended_at" as cursor_ended_at,
      c."recent" as cursor_recent
    from (select 1) as one left join cursor c on true left join due on true
    order by due."ended_at", due."turn_id"`);
  const first = rows[0];
  const recent = first?.cursor_recent ?? [];
  return {
    organizationId,
    version: first?.cursor_version ?? null,
    endedAt: first?.cursor_ended_at ? new Date(first.cursor_ended_at).toISOString() : null,
    recent: fromJson(recent),
    slices: rows.filter((row) => row.turn_id).map(toSlice),
  };
}

/** The cursor after a round: the last slice's end, and what was read within the overlap of it. */
export function advancedCursor(round: DigestRound): { endedAt: string; recent: DigestedTurn[] } {
  const read: DigestedTurn[] = round.slices.map((slice) => ({
    id: slice.turnId,
    endedAt: slice.endedAt,
  }));
  const all = [...round.recent, ...read];
  const latest = Math.max(
    round.endedAt ? new Date(round.endedAt).getTime() : 0,
    ...all.map((turn) => new Date(turn.endedAt).getTime()),
  );
  const endedAt = new Date(latest).toISOString();
  const horizon = latest - config.memory.digestOverlapMs;
  return { endedAt, recent: all.filter((turn) => new Date(turn.endedAt).getTime() > horizon) };
}

/**
 * Writes a round's facts and moves the cursor past its slices, in one transaction, only if the
 * cursor is still the one the round read. False when it was not (another run digested them).
 */
export async function writeDigestRound(
  round: DigestRound,
  facts: readonly ExtractedFact[],
): Promise<{ written: boolean; created: number; reinforced: number }> {
  if (round.slices.length === 0) return { written: false, created: 0, reinforced: 0 };
  // Vectors and near-duplicate reads happen before the transaction: no network call holds it.
  const plan = await planWrites(learnedFacts(round.slices, facts));
  const next = advancedCursor(round);
  return transaction(async (tx) => {
    const moved = await tx.execute(sql`
      insert into "memory_digest_cursors" ("organization_id", "ended_at", "recent", "version")
      values (${round.organizationId}, ${next.endedAt}::timestamptz,
        ${JSON.stringify(next.recent)}::jsonb, 1)
      on conflict ("organization_id") do update set "ended_at" = excluded."ended_at",
        "recent" = excluded."recent", "version" = "memory_digest_cursors"."version" + 1,
        "updated_at" = now()
      where "memory_digest_cursors"."version" = ${round.version ?? -1}::int
      returning "version"`);
    const rows = Array.isArray(moved) ? moved : (moved as { rows: unknown[] }).rows;
    if (rows.length === 0) return { written: false, created: 0, reinforced: 0 };
    const counts = await writePlan(plan, { tx });
    return { written: true, ...counts };
  });
}

/** Where an organization's digest stands (tests and the admin's view of it). */
export async function digestCursor(
  organizationId: string,
): Promise<{ endedAt: string; version: number } | null> {
  const [row] = await executePrepared<{ ended_at: Date | string; version: number }>(sql`
    select "ended_at", "version" from "memory_digest_cursors"
    where "organization_id" = ${organizationId}`);
  return row ? { endedAt: new Date(row.ended_at).toISOString(), version: row.version } : null;
}
