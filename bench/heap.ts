// `node --conditions=react-server --import tsx bench/heap.ts [--db=pglite|postgres] [--turns=A,B]`: what a server's V8 heap
// keeps between turn A and turn B. Takes a heap snapshot (after a full GC) at each point through
// the inspector and prints the object kinds whose count or size grew most, with a sample of who
// holds them. Plain turns with a follower, as in the benchmark. For finding leaks per turn. It then
// prints what the live heap holds at turn B: its largest object kinds, and its largest strings
// (mostly the source text of loaded scripts) with who holds them, which is how a library bundled
// once per group of routes shows up.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { REPO } from "./lib/app-build";
import { armDeadline, installExitHandlers, killAllNow, onExit } from "./lib/children";
import { closeIdleSockets } from "./lib/http";
import { startInspectedApp } from "./lib/inspected-app";
import { openInspector } from "./lib/inspector";
import { zeroDelayMessages } from "./lib/model-ttft";
import { rssKb } from "./lib/procfs";
import { runTurn } from "./lib/turns";
import { signUpUsers } from "./lib/users";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key ?? "", value ?? "true"] as const;
  }),
);
const db = flags.get("db") === "postgres" ? "postgres" : "pglite";
const [turnsA, turnsB] = (flags.get("turns") ?? "50,200").split(",").map(Number) as [
  number,
  number,
];
const pgUrl = flags.get("pg-url") ?? "postgres://postgres@127.0.0.1:54329/postgres";

installExitHandlers();
armDeadline(20 * 60_000);
const log = (line: string) => console.log(`[heap] ${line}`);
const workDir = path.join(REPO, ".data", "bench", `heap-${process.pid}`);
mkdirSync(workDir, { recursive: true });
onExit(() => rmSync(workDir, { recursive: true, force: true }));

type Snapshot = {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
};

async function inspectorSocket(output: () => string) {
  const session = await openInspector(output);
  let chunks: string[] = [];
  session.onEvent("HeapProfiler.addHeapSnapshotChunk", (params) => {
    chunks.push(String(params.chunk ?? ""));
  });
  return {
    async snapshot(): Promise<Snapshot> {
      await session.send("HeapProfiler.collectGarbage");
      chunks = [];
      await session.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      const text = chunks.join("");
      chunks = [];
      return JSON.parse(text) as Snapshot;
    },
    close: () => session.close(),
  };
}

type Kind = { count: number; size: number; ids: number[] };

function summarize(snap: Snapshot): Map<string, Kind> {
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const types = snap.snapshot.meta.node_types[0];
  const fType = fields.indexOf("type");
  const fName = fields.indexOf("name");
  const fSize = fields.indexOf("self_size");
  const fId = fields.indexOf("id");
  const out = new Map<string, Kind>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + fType] ?? 0] ?? "?";
    let name = snap.strings[snap.nodes[i + fName] ?? 0] ?? "?";
    if (type === "string" || type === "concatenated string" || type === "sliced string")
      name = "(string)";
    if (type === "code" || type === "hidden") name = `(${type})`;
    const key = `${type}:${name.slice(0, 80)}`;
    const kind = out.get(key) ?? { count: 0, size: 0, ids: [] };
    kind.count++;
    kind.size += snap.nodes[i + fSize] ?? 0;
    if (kind.ids.length < 2000) kind.ids.push(snap.nodes[i + fId] ?? 0);
    out.set(key, kind);
  }
  return out;
}

/** Who holds a node: a few steps of retainers (edge names and holder kinds). */
function retainers(snap: Snapshot, nodeId: number, depth = 6): string[] {
  const nf = snap.snapshot.meta.node_fields;
  const ef = snap.snapshot.meta.edge_fields;
  const nw = nf.length;
  const ew = ef.length;
  const types = snap.snapshot.meta.node_types[0];
  const etypes = snap.snapshot.meta.edge_types[0];
  const fEdges = nf.indexOf("edge_count");
  const fName = nf.indexOf("name");
  const fType = nf.indexOf("type");
  const fId = nf.indexOf("id");
  const eType = ef.indexOf("type");
  const eName = ef.indexOf("name_or_index");
  const eTo = ef.indexOf("to_node");
  // reverse edges, built once per snapshot
  const cache = snap as Snapshot & { _rev?: Map<number, Array<[number, number]>> };
  if (!cache._rev) {
    const rev = new Map<number, Array<[number, number]>>();
    let edge = 0;
    for (let n = 0; n < snap.nodes.length; n += nw) {
      const count = snap.nodes[n + fEdges] ?? 0;
      for (let e = 0; e < count; e++, edge += ew) {
        const to = snap.edges[edge + eTo] ?? 0;
        const list = rev.get(to) ?? [];
        if (list.length < 4) list.push([n, edge]);
        rev.set(to, list);
      }
    }
    cache._rev = rev;
  }
  let index = -1;
  for (let n = 0; n < snap.nodes.length; n += nw) if (snap.nodes[n + fId] === nodeId) index = n;
  const path: string[] = [];
  for (let d = 0; d < depth && index >= 0; d++) {
    const holders = (cache._rev.get(index) ?? []).filter(([n, e]) => {
      const t = etypes[snap.edges[e + eType] ?? 0];
      return t !== "weak" && n !== index;
    });
    const [holder, edge] = holders[0] ?? [];
    if (holder === undefined || edge === undefined) break;
    const et = etypes[snap.edges[edge + eType] ?? 0];
    const en =
      et === "element" || et === "hidden"
        ? `[${snap.edges[edge + eName]}]`
        : snap.strings[snap.edges[edge + eName] ?? 0];
    path.push(
      `${types[snap.nodes[holder + fType] ?? 0]}:${(snap.strings[snap.nodes[holder + fName] ?? 0] ?? "").slice(0, 60)}.${en}`,
    );
    index = holder;
  }
  return path;
}

/** What the heap holds (after a full GC): totals by kind, and the largest strings with a holder. */
function printLiveHeap(snap: Snapshot, kinds: Map<string, Kind>, pid: number): void {
  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MiB`;
  let total = 0;
  for (const kind of kinds.values()) total += kind.size;
  console.log(`\nLive heap: ${mib(total)} (server RSS ${mib(rssKb(pid) * 1024)}); largest kinds:`);
  for (const [key, kind] of [...kinds].sort((x, y) => y[1].size - x[1].size).slice(0, 12)) {
    console.log(`${mib(kind.size).padStart(11)} ${String(kind.count).padStart(8)}  ${key}`);
  }
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const [fType, fName, fSize, fId] = ["type", "name", "self_size", "id"].map((f) =>
    fields.indexOf(f),
  ) as [number, number, number, number];
  const stringType = snap.snapshot.meta.node_types[0].indexOf("string");
  const large: Array<{ size: number; id: number; text: string }> = [];
  for (let i = 0; i < snap.nodes.length; i += width) {
    if (snap.nodes[i + fType] !== stringType) continue;
    const size = snap.nodes[i + fSize] ?? 0;
    if (size < 256 * 1024) continue;
    const text = snap.strings[snap.nodes[i + fName] ?? 0] ?? "";
    large.push({
      size,
      id: snap.nodes[i + fId] ?? 0,
      text: text.slice(0, 90).replace(/\s+/g, " "),
    });
  }
  console.log("\nStrings of 256 KiB or more (a script's source is one):");
  for (const string of large.sort((x, y) => y.size - x.size).slice(0, 20)) {
    console.log(`${mib(string.size).padStart(11)}  ${string.text}`);
    console.log(`     ← ${retainers(snap, string.id, 2).join(" ← ")}`);
  }
}

async function main() {
  const { server, stop } = await startInspectedApp({
    db,
    build: "auto",
    pgUrl,
    workDir,
    name: "heap",
    log,
  });
  try {
    const inspector = await inspectorSocket(server.output);
    const users = await signUpUsers(server.url, 2, "heap-", 2);
    const texts = await zeroDelayMessages(20, (i) => `Heap turn ${i}: a short answer. [words:7]`);
    const target = { server, users };
    let done = 0;
    const turns = async (n: number) => {
      for (; done < n; done++)
        await runTurn(target, done % 2, texts[done % texts.length] ?? "", 60_000, {
          follower: true,
        });
    };
    await turns(turnsA);
    const a = await inspector.snapshot();
    const sa = summarize(a);
    log(`snapshot at turn ${turnsA}: ${a.nodes.length / a.snapshot.meta.node_fields.length} nodes`);
    await turns(turnsB);
    const b = await inspector.snapshot();
    const sb = summarize(b);
    log(`snapshot at turn ${turnsB}: ${b.nodes.length / b.snapshot.meta.node_fields.length} nodes`);
    printLiveHeap(b, sb, server.pid);
    const per = turnsB - turnsA;
    const rows = [...sb.entries()]
      .map(([key, kind]) => {
        const before = sa.get(key) ?? { count: 0, size: 0, ids: [] };
        return {
          key,
          dCount: kind.count - before.count,
          dSize: kind.size - before.size,
          kind,
          before,
        };
      })
      .sort((x, y) => y.dSize - x.dSize)
      .slice(0, 25);
    console.log(`\nGrowth from turn ${turnsA} to ${turnsB} (per turn), by object kind:`);
    for (const row of rows) {
      console.log(
        `${(row.dSize / per / 1024).toFixed(1).padStart(8)} KiB/turn ${(row.dCount / per).toFixed(1).padStart(7)} objects/turn  ${row.key}`,
      );
    }
    console.log("\nWho holds the new objects of the top kinds:");
    for (const row of rows.slice(0, 8)) {
      const old = new Set(row.before.ids);
      const fresh = row.kind.ids.filter((id) => !old.has(id)).slice(-1);
      for (const id of fresh)
        console.log(`  ${row.key}\n     ← ${retainers(b, id).join("\n     ← ")}`);
    }
    inspector.close();
  } finally {
    await stop();
  }
}

try {
  await main();
} finally {
  closeIdleSockets();
  killAllNow();
}
process.exit(0);
