// The admin console's view of an organization's workstreams: every member's (and former
// member's) workstreams with owner, mode, status, last activity, running state, message count,
// tokens, cost and how often (and when last) it was compacted. Metadata only: no message content
// and no compaction summary leaves this module.
import "server-only";
import { and, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { turns, user, workstreamHasRunningTurn, workstreams } from "@/db/schema";
import { requireOrganizationWorkstream } from "@/lib/workstreams/queries";
import { summaryColumns, toSummary } from "@/lib/workstreams/summary";
import type { WorkstreamSummary } from "@/lib/workstreams/types";

export const ADMIN_PAGE_SIZE = 25;
/** The longest search text the list takes. */
export const ADMIN_SEARCH_MAX_CHARS = 200;
export const ADMIN_KINDS = ["direct", "group", "core"] as const;
export type AdminKind = (typeof ADMIN_KINDS)[number];

export type AdminWorkstreamFilter = {
  organizationId: string;
  /** Title, owner name or owner email contains it (case-insensitive). */
  q?: string;
  kind?: AdminKind;
  status?: "regular" | "archived" | "all";
  running?: boolean;
  ownerId?: string;
  page?: number;
};

/** A workstream's summary (without the owner's unread mark) with its owner and usage. */
export type AdminWorkstream = Omit<WorkstreamSummary, "hasUnread"> & {
  owner: { id: string; name: string; email: string; isMember: boolean } | null;
  messageCount: number;
  turnCount: number;
  /** Sums over the turns whose usage is known. */
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Turns the model answered without reporting usage: not in the sums, not free. */
  turnsWithoutUsage: number;
  /** How many times its older history was compacted, and when last (never the summaries). */
  compactionCount: number;
  lastCompactedAt: string | null;
};

const num = (value: unknown) => Number(value ?? 0) || 0;

// Correlated subqueries spelled out with aliases (drizzle does not qualify columns everywhere);
// each is served by an index on workstream_id.
const messageCountSql = sql<number>`(select count(*) from "messages" as m where m."workstream_id" = "workstreams"."id")`;
const turnCountSql = sql<number>`(select count(*) from "turns" as t where t."workstream_id" = "workstreams"."id")`;
const compactionCountSql = sql<number>`(select count(*) from "compactions" as c where c."workstream_id" = "workstreams"."id")`;
const lastCompactedSql = sql<
  string | null
>`(select max(c."created_at") from "compactions" as c where c."workstream_id" = "workstreams"."id")`;
const turnTotals = (expression: SQL) =>
  sql<number>`(select coalesce(sum(${expression}), 0) from "turns" as t where t."workstream_id" = "workstreams"."id")`;
/**
 * A turn the model answered (a model call succeeded) that ended without known usage, for a turns
 * table aliased `alias`. Turns that never reached the model have no usage to miss.
 */
export function withoutUsageSql(alias: string): SQL {
  return sql.raw(
    `(${alias}."state" in ('completed', 'failed', 'cancelled') and (${alias}."usage" ->> 'inputTokens') is null and ${alias}."attempts" @> '[{"outcome":"ok"}]'::jsonb)`,
  );
}
const turnsWithoutUsageSql = sql<number>`(select count(*) from "turns" as t where t."workstream_id" = "workstreams"."id" and ${withoutUsageSql("t")})`;
const ownerIsMemberSql = sql<boolean>`exists (select 1 from "member" as mb where mb."organization_id" = "workstreams"."organization_id" and mb."user_id" = "workstreams"."owner_id")`;

/** The unread mark is the owner's: the console does not show it. */
function withoutUnread({ hasUnread: _owners, ...summary }: WorkstreamSummary) {
  return summary;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function conditions(filter: AdminWorkstreamFilter): SQL | undefined {
  const parts: Array<SQL | undefined> = [eq(workstreams.organizationId, filter.organizationId)];
  if (filter.kind === "direct") parts.push(eq(workstreams.mode, "direct"));
  if (filter.kind === "group")
    parts.push(and(eq(workstreams.mode, "group"), eq(workstreams.core, false)));
  if (filter.kind === "core") parts.push(eq(workstreams.core, true));
  const status = filter.status ?? "all";
  if (status !== "all") parts.push(eq(workstreams.status, status));
  if (filter.running !== undefined) {
    parts.push(filter.running ? workstreamHasRunningTurn : sql`not ${workstreamHasRunningTurn}`);
  }
  if (filter.ownerId) parts.push(eq(workstreams.ownerId, filter.ownerId));
  const q = filter.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    parts.push(
      or(ilike(workstreams.title, pattern), ilike(user.name, pattern), ilike(user.email, pattern)),
    );
  }
  return and(...parts);
}

export async function listOrganizationWorkstreams(filter: AdminWorkstreamFilter): Promise<{
  workstreams: AdminWorkstream[];
  page: number;
  hasMore: boolean;
  total: number;
}> {
  const page = filter.page ?? 1;
  const db = await getDb();
  const where = conditions(filter);
  const rows = await db
    .select({
      ...summaryColumns,
      ownerName: user.name,
      ownerEmail: user.email,
      ownerIsMember: ownerIsMemberSql,
      messageCount: messageCountSql,
      turnCount: turnCountSql,
      inputTokens: turnTotals(sql.raw(`(t."usage" ->> 'inputTokens')::numeric`)),
      outputTokens: turnTotals(sql.raw(`(t."usage" ->> 'outputTokens')::numeric`)),
      costUsd: turnTotals(sql.raw(`t."cost_usd"`)),
      turnsWithoutUsage: turnsWithoutUsageSql,
      compactionCount: compactionCountSql,
      lastCompactedAt: lastCompactedSql,
    })
    .from(workstreams)
    .leftJoin(user, eq(user.id, workstreams.ownerId))
    .where(where)
    .orderBy(desc(workstreams.updatedAt), desc(workstreams.id))
    .limit(ADMIN_PAGE_SIZE + 1)
    .offset((page - 1) * ADMIN_PAGE_SIZE);
  const [count] = await db
    .select({ total: sql<number>`count(*)` })
    .from(workstreams)
    .leftJoin(user, eq(user.id, workstreams.ownerId))
    .where(where);
  return {
    workstreams: rows.slice(0, ADMIN_PAGE_SIZE).map((row) => ({
      ...withoutUnread(toSummary(row)),
      owner:
        row.ownerId && row.ownerName !== null && row.ownerEmail !== null
          ? {
              id: row.ownerId,
              name: row.ownerName,
              email: row.ownerEmail,
              isMember: String(row.ownerIsMember) === "true",
            }
          : null,
      messageCount: num(row.messageCount),
      turnCount: num(row.turnCount),
      inputTokens: num(row.inputTokens),
      outputTokens: num(row.outputTokens),
      costUsd: num(row.costUsd),
      turnsWithoutUsage: num(row.turnsWithoutUsage),
      compactionCount: num(row.compactionCount),
      lastCompactedAt: row.lastCompactedAt ? new Date(row.lastCompactedAt).toISOString() : null,
    })),
    page,
    hasMore: rows.length > ADMIN_PAGE_SIZE,
    total: num(count?.total),
  };
}

export type AdminTurn = {
  id: string;
  state: string;
  /** The sentence of the turn's code (a stop, a failure), never an exception's text. */
  reason: string | null;
  errorCode: string | null;
  agentId: string | null;
  model: string | null;
  /** Null when the provider reported no usage: unknown, shown as "—". */
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  createdAt: string;
  endedAt: string | null;
};

/** One workstream's runs (newest first) and usage, for the admin console. 404 outside the org. */
export async function getWorkstreamRuns({
  organizationId,
  workstreamId,
  limit = 20,
}: {
  organizationId: string;
  workstreamId: string;
  limit?: number;
}): Promise<AdminTurn[]> {
  await requireOrganizationWorkstream({ organizationId, workstreamId });
  const db = await getDb();
  const rows = await db
    .select({
      id: turns.id,
      state: turns.state,
      reason: turns.reason,
      errorCode: turns.errorCode,
      agentId: turns.agentId,
      model: turns.model,
      inputTokens: sql<number>`(${turns.usage} ->> 'inputTokens')::numeric`,
      outputTokens: sql<number>`(${turns.usage} ->> 'outputTokens')::numeric`,
      costUsd: turns.costUsd,
      createdAt: turns.createdAt,
      endedAt: turns.endedAt,
    })
    .from(turns)
    .where(eq(turns.workstreamId, workstreamId))
    .orderBy(desc(turns.createdAt))
    .limit(limit);
  const known = (value: unknown) => (value === null || value === undefined ? null : num(value));
  return rows.map((row) => ({
    ...row,
    inputTokens: known(row.inputTokens),
    outputTokens: known(row.outputTokens),
    costUsd: known(row.costUsd),
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  }));
}
