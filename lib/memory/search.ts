// Full-text search over one workstream's messages, for the owner (the `search_history` tool).
// The match uses the same expression as the messages' GIN index (messageSearchVector), so the
// index serves it; matches are ranked by ts_rank, then newest first, and only the page that is
// returned gets its snippet (ts_headline reads the whole text, so it runs after the limit).
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { OPEN_STATES_LIST } from "@/db/schema";
import { messageSearchVector } from "@/db/schema/workstreams";
import { AppError } from "@/lib/kernel/errors";
import { toStorableText } from "@/lib/text/storable";
import type { MemoryOwner } from "./block";

export const SEARCH_LIMIT_DEFAULT = 5;
export const SEARCH_LIMIT_MAX = 20;
const SNIPPET_MAX = 300;

export type HistoryMatch = {
  messageId: string;
  role: "system" | "user" | "assistant";
  snippet: string;
  at: string;
};

type MatchRow = {
  found: boolean;
  id: string | null;
  role: HistoryMatch["role"] | null;
  snippet: string | null;
  created_at: Date | string | null;
};

export async function searchHistory({
  owner,
  workstreamId,
  query,
  limit = SEARCH_LIMIT_DEFAULT,
}: {
  owner: MemoryOwner;
  workstreamId: string;
  query: string;
  limit?: number;
}): Promise<HistoryMatch[]> {
  const take = Math.min(Math.max(1, Math.trunc(limit)), SEARCH_LIMIT_MAX);
  const words = toStorableText(query).trim();
  const vector = messageSearchVector(sql`m."parts"`);
  const rows = await executePrepared<MatchRow>(sql`
    with ws as (
      select "id" from "workstreams"
      where "id" = ${workstreamId} and "organization_id" = ${owner.organizationId}
        and "owner_id" = ${owner.userId}
    ), q as (
      select websearch_to_tsquery('english', ${words}) as "query"
    ), best as (
      select m."id", m."role", m."parts", m."created_at", m."seq",
        ts_rank(${vector}, q."query") as "rank"
      from "messages" m, q, ws
      where m."workstream_id" = ws."id" and ${vector} @@ q."query"
        -- The turn that is asking is not "before": its own request would match itself.
        and m."turn_id" is distinct from (select t."id" from "turns" t
          where t."workstream_id" = ws."id" and t."state" in (${OPEN_STATES_LIST}))
      order by "rank" desc, m."seq" desc
      limit ${take}
    )
    -- One row even without a match, so a workstream that is not the owner's is told apart.
    select (select count(*) from ws) > 0 as "found", best."id", best."role", best."created_at",
      ts_headline('english',
        (select string_agg(t #>> '{}', ' ')
          from jsonb_array_elements(jsonb_path_query_array(best."parts",
            '$[*] ? (@.type == "text").text')) as t),
        q."query", 'MaxWords=24, MinWords=8, MaxFragments=1, StartSel=**, StopSel=**') as "snippet"
    from q left join best on true
    order by best."rank" desc nulls last, best."seq" desc nulls last`);
  if (!rows[0]?.found) throw new AppError("not_found:workstream");
  return rows
    .filter((row): row is MatchRow & { id: string } => row.id !== null)
    .map((row) => ({
      messageId: row.id,
      role: row.role ?? "user",
      snippet: [...(row.snippet ?? "")].slice(0, SNIPPET_MAX).join(""),
      at: new Date(row.created_at ?? 0).toISOString(),
    }));
}
