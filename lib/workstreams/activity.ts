// Recent activity: after each completed turn, the workstream's entry is rewritten (one per
// workstream, newest first) with a generated line of what happened in the turn, never the
// member's own words. Written by the recent-activity job (inngest/functions), in two steps: the
// line is generated, then written and published to the owner alone.
import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { executePrepared, getDb } from "@/db/client";
import { recentActivity, workstreams } from "@/db/schema";
import { cleanLine, generateShortText, writeTranscript } from "@/lib/models/short-text";
import { publishLive } from "@/lib/stream/fanout-instance";
import { turnConversation } from "./conversation";
import type { ActivityEntry } from "./types";

export const SUMMARY_MAX_CHARS = 140;
export const SUMMARY_MAX_WORDS = 14;
export const DEFAULT_ACTIVITY_LIMIT = 8;

/**
 * One generated line of what happened in the turn; null when the turn left nothing to describe,
 * or when a later turn of the workstream has completed since: the entry shows the newest turn's
 * line, so this one would never be seen, and no model call is spent on it (turns that end faster
 * than their jobs run: a burst, a loaded server, a client sending in a loop).
 */
export async function describeTurn(workstreamId: string, turnId: string): Promise<string | null> {
  const entries = await turnConversation(workstreamId, turnId);
  if (!entries.length) return null;
  const raw = await generateShortText({ task: "activity", transcript: writeTranscript(entries) });
  const line = cleanLine(raw, { maxWords: SUMMARY_MAX_WORDS, maxChars: SUMMARY_MAX_CHARS });
  return line || null;
}

/**
 * Writes the workstream's entry for the turn and publishes it to the owner. The entry is dated by
 * the turn's end, so a late job for an older turn never replaces a newer turn's entry, and a
 * re-run of the same job rewrites the same entry.
 */
export async function writeTurnActivity({
  workstreamId,
  turnId,
  summary,
}: {
  workstreamId: string;
  turnId: string;
  summary: string;
}): Promise<boolean> {
  const [entry] = await executePrepared<{
    occurred_at: Date | string;
    organization_id: string;
    user_id: string;
    title: string;
    mode: "direct" | "group";
    core: boolean;
  }>(sql`
    with source as (
      select w."id", w."organization_id", w."owner_id", w."title", w."mode", w."core",
        coalesce(t."ended_at", now()) as "occurred_at"
      from "workstreams" w join "turns" t on t."id" = ${turnId} and t."workstream_id" = w."id"
      where w."id" = ${workstreamId} and w."owner_id" is not null
    ), written as (
      insert into "recent_activity" ("workstream_id", "organization_id", "user_id", "turn_id",
        "summary", "occurred_at")
      select "id", "organization_id", "owner_id", ${turnId}, ${summary}, "occurred_at" from source
      on conflict ("workstream_id") do update set "turn_id" = excluded."turn_id",
        "summary" = excluded."summary", "occurred_at" = excluded."occurred_at",
        "user_id" = excluded."user_id"
      where "recent_activity"."occurred_at" <= excluded."occurred_at"
      returning "occurred_at", "organization_id", "user_id"
    )
    select written.*, source."title", source."mode", source."core"
    from written join source on true`);
  // A deleted workstream, one without an owner, or a newer entry already there: nothing to show.
  if (!entry) return false;
  await publishLive({
    organizationId: entry.organization_id,
    userId: entry.user_id,
    event: {
      type: "activity",
      entry: {
        workstreamId,
        title: entry.title,
        mode: entry.mode,
        core: entry.core,
        summary,
        occurredAt: new Date(entry.occurred_at).toISOString(),
      },
    },
  });
  return true;
}

/** The member's most recently touched workstreams, newest first; archived ones are left out. */
export async function listRecentActivity({
  userId,
  organizationId,
  limit = DEFAULT_ACTIVITY_LIMIT,
}: {
  userId: string;
  organizationId: string;
  limit?: number;
}): Promise<ActivityEntry[]> {
  const db = await getDb();
  const rows = await db
    .select({
      workstreamId: recentActivity.workstreamId,
      title: workstreams.title,
      mode: workstreams.mode,
      core: workstreams.core,
      summary: recentActivity.summary,
      occurredAt: recentActivity.occurredAt,
    })
    .from(recentActivity)
    .innerJoin(workstreams, eq(workstreams.id, recentActivity.workstreamId))
    .where(
      and(
        eq(recentActivity.organizationId, organizationId),
        eq(recentActivity.userId, userId),
        eq(workstreams.ownerId, userId),
        eq(workstreams.status, "regular"),
      ),
    )
    .orderBy(desc(recentActivity.occurredAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, occurredAt: row.occurredAt.toISOString() }));
}
