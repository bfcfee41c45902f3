import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { offlineEmbedding } from "/work/main/lib/memory/offline-embedding";
const db = new PGlite(process.argv[2], { extensions: { vector } });
const text = (await db.query<{ text: string }>("select text from memories limit 1 offset 77")).rows[0].text;
const lit = `[${offlineEmbedding(text.split(" ").slice(0, 10).join(" ")).join(",")}]`;
await db.exec("set hnsw.iterative_scan = relaxed_order"); if (process.argv[3]) await db.exec(process.argv[3]); console.log((await db.query("select oprcode::text from pg_operator where oprname = $1", ["<=>"])).rows);
for (let i = 0; i < 3; i++) {
const r = await db.query(`explain (analyze, buffers) select r."id", r."distance" from (
      select m."id", m."text", m."importance", m."embedding" <=> $1::vector as "distance"
      from "memories" m
      where m.organization_id='bench_org' and (m."owner_id" is null
    or (m."owner_id" = 'bench_reader' and (m."agent_id" is null or m."agent_id" = 'chief'))) and m."embedding" is not null
      order by m."embedding" <=> $1::vector
      limit 20
    ) r
    where r."distance" <= 0.75
    order by r."distance"`, [lit]);
if (i === 2) console.log(r.rows.map((x: any) => x["QUERY PLAN"]).join("\n"));
}
await db.close();
