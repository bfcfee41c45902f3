// Post-turn jobs on two server processes over one Postgres: many turns split over both servers,
// each turn's title and activity jobs run to completion once per event, whichever server took
// them, and every title is written. The count of turns is WORKSTREAMS_TEST_JOB_TURNS: 60 by
// default, since 200 take minutes on a loaded machine (set it to 200 for the full probe).
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { signUp } from "../support/http-client";
import { serverProcesses } from "../support/server-processes";
import { readSse } from "../support/sse";
import { createGroup, sendTo } from "./workstreams-support/helpers";

const TURNS = Number(process.env.WORKSTREAMS_TEST_JOB_TURNS ?? 60);
/** Turns under way at once, across both servers. */
const AT_ONCE = 10;

const servers = serverProcesses();
servers.env.WORKSTREAMS_RATE_LIMIT_TURNS = String(TURNS * 2);

describe("post-turn jobs on two servers", () => {
  it(`J3 ${TURNS} turns over two servers: each function's job runs to completion once per event, every title written`, {
    timeout: 300_000,
  }, async () => {
    // One after the other: the first migrates the database, so the second starts quickly.
    const a = await servers.start();
    const b = await servers.start();
    const member = await signUp(a.url, "Two Servers");
    const clients = [member.client, member.client.at(b.url)];
    const workstreamIds: string[] = [];
    for (let i = 0; i < TURNS; i++) workstreamIds.push((await createGroup(member.client)).id);
    for (let start = 0; start < TURNS; start += AT_ONCE) {
      await Promise.all(
        workstreamIds.slice(start, start + AT_ONCE).map(async (id, offset) => {
          const client = clients[(start + offset) % clients.length];
          if (!client) throw new Error("no client");
          const response = await sendTo(
            client,
            id,
            `Inventory the observatory lenses ${start + offset}`,
          );
          expect(response.status).toBe(200);
          await readSse(response);
        }),
      );
    }

    const sql = postgres(servers.env.DATABASE_URL ?? "", { max: 1 });
    try {
      const ids = workstreamIds;
      const settled = async () => {
        const rows = await sql<{ function_id: string; state: string; n: number }[]>`
          select "function_id", "state", count(*)::int as n from "jobs"
          where "event"->'data'->>'workstreamId' = any(${ids})
            and "function_id" in ('title-generation', 'recent-activity')
          group by 1, 2 order by 1, 2`;
        return rows.map((row) => `${row.function_id} ${row.state} ${row.n}`);
      };
      let states = await settled();
      const expected = [
        `recent-activity completed ${TURNS}`,
        `title-generation completed ${TURNS}`,
      ];
      for (let i = 0; i < 600 && states.join() !== expected.join(); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        states = await settled();
      }
      expect(states).toEqual(expected);
      // One job per function and event: no event was handed over twice.
      const [events] = await sql<{ events: number; jobs: number }[]>`
        select count(distinct "event_id")::int as events, count(*)::int as jobs from "jobs"
        where "event"->'data'->>'workstreamId' = any(${ids})
          and "function_id" = 'title-generation'`;
      expect(events).toEqual({ events: TURNS, jobs: TURNS });
      const [untitled] = await sql<{ n: number }[]>`
        select count(*)::int as n from "workstreams"
        where "id" = any(${ids}) and "title" = 'New Workstream'`;
      expect(untitled?.n).toBe(0);
      const [failed] = await sql<{ n: number }[]>`
        select count(*)::int as n from "failed_jobs" where "workstream_id" = any(${ids})`;
      expect(failed?.n).toBe(0);
    } finally {
      await sql.end();
    }
  });
});
