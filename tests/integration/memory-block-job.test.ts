// The memory-block-summary function as Inngest runs it (@inngest/test: the Inngest function built
// from the declaration, its steps executed in process against the database), with no embedded
// runner in this file, so nothing else folds the block meanwhile: the job is queued once by the
// note that fills the block, a note deleted while it runs is neither summarized nor lost, and a
// stale fold never writes a second summary.
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { jobEvents, memoryBlockEntries } from "@/db/schema";
import { inngestFunctions } from "@/inngest/engine";
import { memoryBlockSummary } from "@/inngest/functions/memory-block-summary";
import { memoryBlockFull } from "@/lib/jobs/events";
import { AppError } from "@/lib/kernel/errors";
import { addMemoryNote, readFoldInput, writeFold } from "@/lib/memory/block";
import { summarizeFold } from "@/lib/memory/summary";
import type { ContextView } from "@/lib/state/schema";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { createGroup } from "./workstreams-support/helpers";

const app = appHarness();
let user: SignedUpUser;

beforeAll(async () => {
  user = await app.signUp("Memory Job Member");
});

const WORDS = [
  "anchor",
  "bellows",
  "compass",
  "dinghy",
  "estuary",
  "flotilla",
  "gangway",
  "hawser",
  "inlet",
  "jetty",
  "keelson",
  "lanyard",
  "mooring",
  "nautical",
  "outboard",
  "portholes",
];

/** A group workstream holding one note per word (roles alternate), oldest first. */
async function blockOf(words: string[]) {
  const group = await createGroup(user.client, "Memory job");
  const notes = [];
  for (const [index, word] of words.entries()) {
    const { entry } = await addMemoryNote({
      workstreamId: group.id,
      organizationId: user.organizationId,
      ownerId: user.userId,
      role: index % 2 ? "navigator" : "member",
      text: `Check the ${word} before the regatta`,
    });
    notes.push(entry);
  }
  return { id: group.id, notes };
}

async function queuedEvents(workstreamId: string) {
  const db = await getDb();
  const rows = await db.select().from(jobEvents).where(eq(jobEvents.name, memoryBlockFull.name));
  return rows
    .filter((row) => (row.data as { workstreamId?: string }).workstreamId === workstreamId)
    .map((row) => ({ id: row.id, name: row.name, data: row.data, ts: row.createdAt.getTime() }));
}

function engine() {
  const fn = inngestFunctions().find((candidate) => candidate.opts.id === memoryBlockSummary.id);
  if (!fn) throw new Error("no memory-block-summary function");
  return new InngestTestEngine({ function: fn });
}

async function blockOfWorkstream(workstreamId: string) {
  const response = await user.client.json<ContextView>(`/api/workstreams/${workstreamId}/context`);
  return response.body.memoryBlock;
}

describe("memory-block-summary on Inngest's engine", () => {
  it("I13.3 W10 the note that fills the block queues the job once; a note deleted while it runs is neither summarized nor lost", async () => {
    const block = await blockOf(WORDS);
    // The fifteenth note queued the job; the sixteenth found it pending and queued nothing.
    const events = await queuedEvents(block.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      workstreamId: block.id,
      organizationId: user.organizationId,
    });

    const deleted = block.notes[3];
    const run = engine().clone({
      steps: [
        {
          id: "summarize",
          handler: async () => {
            // The summary is made from the notes as read; then the member deletes one of them.
            const fold = await readFoldInput(block.id);
            if (!fold) throw new Error("nothing to fold");
            const summary = await summarizeFold(fold);
            const response = await user.client.fetch(
              `/api/workstreams/${block.id}/memory-block/${deleted?.id}`,
              { method: "DELETE" },
            );
            expect(response.status).toBe(200);
            return summary;
          },
        },
      ],
    });
    const { result, error } = await run.execute({ events: [events[0] as never] });
    expect(error).toBeUndefined();
    // The first write found a note gone and wrote nothing; the next round folded the block as it was.
    expect(result).toEqual({ folded: 10 });

    const after = await blockOfWorkstream(block.id);
    expect(after.summary?.entries).toBe(10);
    const summary = after.summary?.text ?? "";
    expect(summary).not.toContain(WORDS[3]);
    for (const word of [...WORDS.slice(0, 3), ...WORDS.slice(4, 11)])
      expect(summary).toContain(word);
    expect(after.entries.map((entry) => entry.text)).toEqual(
      WORDS.slice(11).map((word) => `Check the ${word} before the regatta`),
    );
    expect(summary).toMatch(/member: .*navigator: /u);
  });

  it("I13.3 W10 a fold read before another fold was written writes nothing: there is never a second summary", async () => {
    const block = await blockOf(WORDS.slice(0, 15));
    const fold = await readFoldInput(block.id);
    if (!fold) throw new Error("nothing to fold");
    const summary = await summarizeFold(fold);
    expect(await writeFold(fold, summary)).toBe(true);
    expect(await writeFold(fold, `${summary} again`)).toBe(false);
    const after = await blockOfWorkstream(block.id);
    expect(after.summary).toMatchObject({ entries: 10, text: summary });
    expect(after.entries).toHaveLength(5);
    // Below the trigger: a run finds nothing to do.
    const [event] = await queuedEvents(block.id);
    const { result } = await engine().execute({ events: [event as never] });
    expect(result).toEqual({ folded: 0 });
  });

  it("I13.3 W10 a note over 500 characters is refused with bad_request:too_long and nothing is written", async () => {
    const group = await createGroup(user.client, "Long note");
    const attempt = addMemoryNote({
      workstreamId: group.id,
      organizationId: user.organizationId,
      ownerId: user.userId,
      role: "member",
      text: "x".repeat(501),
    });
    await expect(attempt).rejects.toMatchObject({ code: "bad_request:too_long" });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    const db = await getDb();
    const rows = await db
      .select()
      .from(memoryBlockEntries)
      .where(eq(memoryBlockEntries.workstreamId, group.id));
    expect(rows).toEqual([]);
  });
});
