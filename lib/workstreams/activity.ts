// Recent activity: after each completed turn, the workstream's entry is written (one per
// workstream, newest first), with the member's request as its one-line summary. A later job that
// refines titles may rewrite the summary. Written after the turn, never inside it: start-up wiring
// (lib/server/wiring.ts) hands over the completed turn's request.
import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { recentActivity, workstreams } from "@/db/schema";
import { publishLive } from "@/lib/stream/fanout-instance";
import type { ActivityEntry } from "./types";

export const SUMMARY_MAX_CHARS = 140;
export const DEFAULT_ACTIVITY_LIMIT = 8;

export function summarize(text: string): string {
  const line = text.replace(/\s+/gu, " ").trim();
  if ([...line].length <= SUMMARY_MAX_CHARS) return line;
  return `${[...line]
    .slice(0, SUMMARY_MAX_CHARS - 1)
    .join("")
    .trimEnd()}…`;
}

function textOf(parts: ReadonlyArray<{ type: string; text?: string }>): string {
  return parts
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join(" ");
}

type ActivityWorkstream = {
  id: string;
  ownerId: string | null;
  organizationId: string;
  title: string;
  mode: "direct" | "group";
  core: boolean;
};

/**
 * Writes the workstream's activity entry for a completed turn and publishes it; `requestParts`
 * are the parts of the member's message that started the turn.
 */
export async function recordTurnActivity({
  workstreamId,
  turnId,
  requestParts,
  known,
}: {
  workstreamId: string;
  turnId: string;
  requestParts: ReadonlyArray<{ type: string; text?: string }>;
  /** The workstream as the caller holds it, fresh from the turn's end: no need to read it. */
  known?: ActivityWorkstream;
}): Promise<void> {
  const db = await getDb();
  const [workstream] = known
    ? [known]
    : await db
        .select({
          id: workstreams.id,
          ownerId: workstreams.ownerId,
          organizationId: workstreams.organizationId,
          title: workstreams.title,
          mode: workstreams.mode,
          core: workstreams.core,
        })
        .from(workstreams)
        .where(eq(workstreams.id, workstreamId))
        .limit(1);
  // A deleted workstream or one whose owner's account is gone has nobody to show it to.
  if (!workstream?.ownerId) return;
  const summary = summarize(textOf(requestParts)) || workstream.title;
  const [entry] = await db
    .insert(recentActivity)
    .values({
      workstreamId: workstream.id,
      organizationId: workstream.organizationId,
      userId: workstream.ownerId,
      turnId,
      summary,
    })
    .onConflictDoUpdate({
      target: recentActivity.workstreamId,
      set: { turnId, summary, occurredAt: sql`now()` },
    })
    .returning({ occurredAt: recentActivity.occurredAt });
  if (!entry) return;
  await publishLive({
    organizationId: workstream.organizationId,
    userId: workstream.ownerId,
    event: {
      type: "activity",
      entry: {
        workstreamId: workstream.id,
        title: workstream.title,
        mode: workstream.mode,
        core: workstream.core,
        summary,
        occurredAt: entry.occurredAt.toISOString(),
      },
    },
  });
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
