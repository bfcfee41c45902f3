// The context view of one workstream for its owner: the state, the active plan, the memory block
// and what the last turn's context held, read in one statement. Another member's or
// organization's workstream is not found.
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { fromJson } from "@/db/json";
import type { Viewer } from "@/lib/auth/viewer";
import { AppError } from "@/lib/kernel/errors";
import {
  type ContextView,
  type Eviction,
  type ExecutionPlan,
  executionPlanSchema,
  type MemoryBlockEntry,
  workstreamStateSchema,
} from "./schema";

type ViewRow = {
  id: string;
  version: number | null;
  state: unknown;
  plan: unknown;
  last_evictions: unknown;
  memory_summary: string | null;
  memory_summary_entries: number | null;
  memory_summary_at: Date | string | null;
  entries: unknown;
  last_turn: unknown;
};

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

export async function loadContextView({
  viewer,
  workstreamId,
}: {
  viewer: Pick<Viewer, "userId" | "organizationId">;
  workstreamId: string;
}): Promise<ContextView> {
  const [row] = await executePrepared<ViewRow>(sql`
    select w."id", s."version", s."state", s."plan", s."last_evictions", s."memory_summary",
      s."memory_summary_entries", s."memory_summary_at",
      (select coalesce(json_agg(json_build_object('id', e."id", 'role', e."role", 'text', e."text",
          'createdAt', e."created_at") order by e."created_at", e."id"), '[]'::json)
        from "memory_block_entries" e where e."workstream_id" = w."id") as entries,
      (select json_build_object('turnId', t."id", 'at', coalesce(t."ended_at", t."created_at"),
          'context', t."context",
          -- The memories it used, as they read now: a memory deleted since is left out.
          'memories', (select coalesce(json_agg(json_build_object('id', m."id", 'text', m."text",
              'scope', m."scope", 'section', u."section") order by u."section" desc, u."ord"),
              '[]'::json)
            from (
              select 'top' as "section", x."id", x."ord" from jsonb_array_elements_text(
                t."context"->'memoryIds'->'top') with ordinality as x("id", "ord")
              union all
              select 'retrieved', x."id", x."ord" from jsonb_array_elements_text(
                t."context"->'memoryIds'->'retrieved') with ordinality as x("id", "ord")
            ) u
            join "memories" m on m."id" = u."id" and m."organization_id" = w."organization_id"
              and (m."owner_id" is null or m."owner_id" = ${viewer.userId})))
        from "turns" t where t."workstream_id" = w."id" and t."context" is not null
        order by t."created_at" desc limit 1) as last_turn
    from "workstreams" w
    left join "workstream_states" s on s."workstream_id" = w."id"
    where w."id" = ${workstreamId} and w."organization_id" = ${viewer.organizationId}
      and w."owner_id" = ${viewer.userId}`);
  if (!row) throw new AppError("not_found:workstream");
  const plan = row.plan ? executionPlanSchema.safeParse(fromJson(row.plan)) : null;
  const entries = (fromJson(row.entries) ?? []) as MemoryBlockEntry[];
  const lastTurn = fromJson(row.last_turn) as NonNullable<ContextView["lastTurn"]> | null;
  return {
    workstreamId: row.id,
    version: row.version ?? 0,
    state: workstreamStateSchema.parse(fromJson(row.state) ?? {}),
    plan: plan?.success ? (plan.data as ExecutionPlan) : null,
    lastEvictions: (fromJson(row.last_evictions) ?? []) as Eviction[],
    memoryBlock: {
      summary:
        row.memory_summary && row.memory_summary_at
          ? {
              text: row.memory_summary,
              entries: row.memory_summary_entries ?? 0,
              at: iso(row.memory_summary_at),
            }
          : null,
      entries: entries.map((entry) => ({ ...entry, createdAt: iso(entry.createdAt) })),
    },
    lastTurn: lastTurn ? { ...lastTurn, at: iso(lastTurn.at) } : null,
  };
}
