// Usage and cost of an organization's turns, per member and per day (UTC), for the admin
// console's charts. Tokens and cost are sums over the turns whose usage is known; turns the model
// answered without reporting usage are counted apart, as unknown, never as zero.
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { withoutUsageSql } from "./workstreams";

export type UsageRow = {
  /** The day, as YYYY-MM-DD (UTC). */
  day: string;
  userId: string | null;
  /** The member's name; null for a member who has left (or a turn without one). */
  member: string | null;
  turns: number;
  /** Turns the model answered without reporting usage: not in the sums below. */
  unknownTurns: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when no turn of the day had a known cost. */
  costUsd: number | null;
};

type Row = {
  day: string;
  user_id: string | null;
  member: string | null;
  turns: number | string;
  unknown_turns: number | string;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  cost_usd: number | string | null;
};

/** The last `days` days of usage, oldest first, one row per member and day with turns. */
export async function getOrganizationUsage({
  organizationId,
  days = 30,
}: {
  organizationId: string;
  days?: number;
}): Promise<UsageRow[]> {
  const rows = await executePrepared<Row>(sql`
    select to_char(date_trunc('day', t."created_at" at time zone 'UTC'), 'YYYY-MM-DD') as "day",
      t."user_id", u."name" as "member",
      count(*) as "turns",
      count(*) filter (where ${withoutUsageSql("t")}) as "unknown_turns",
      sum((t."usage" ->> 'inputTokens')::numeric) as "input_tokens",
      sum((t."usage" ->> 'outputTokens')::numeric) as "output_tokens",
      sum(t."cost_usd") as "cost_usd"
    from "turns" t
    left join "user" u on u."id" = t."user_id"
    where t."organization_id" = ${organizationId}
      and t."created_at" >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
        - make_interval(days => ${days - 1})
    group by 1, 2, 3
    order by 1, 3 nulls last`);
  return rows.map((row) => ({
    day: row.day,
    userId: row.user_id,
    member: row.member,
    turns: Number(row.turns),
    unknownTurns: Number(row.unknown_turns),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
  }));
}
