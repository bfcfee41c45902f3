// post-chat-memory and skill-extraction as Inngest runs them (@inngest/test: the Inngest
// function built from each declaration, its steps executed in process against the database), on
// real turns of the offline model. No embedded runner runs in this file.
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { memories, skills } from "@/db/schema";
import { inngestFunctions } from "@/inngest/engine";
import { postChatMemory } from "@/inngest/functions/post-chat-memory";
import { skillExtraction } from "@/inngest/functions/skill-extraction";
import { whenExpression } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { type AppServer, startAppServer } from "../support/app-server";
import { type SignedUpUser, signUp } from "../support/http-client";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import { createGroup, sendTo } from "./workstreams-support/helpers";

let testDb: TestDatabase;
let server: AppServer;
let member: SignedUpUser;

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase();
  server = await startAppServer();
  member = await signUp(server.url, "Inngest Memory Member");
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

function engineFor(id: string) {
  const fn = inngestFunctions().find((candidate) => candidate.opts.id === id);
  if (!fn) throw new Error(`no function ${id}`);
  return new InngestTestEngine({ function: fn });
}

async function completedTurn(text: string, onboarding: boolean) {
  const group = await createGroup(member.client, "Inngest memory");
  const { events } = await readSse(await sendTo(member.client, group.id, text));
  const status = events.find((event) => event.data.type === "data-status");
  const turnId = String((status?.data.data as { turnId?: string } | undefined)?.turnId);
  const data = turnCompleted.schema.parse({
    turnId,
    workstreamId: group.id,
    organizationId: member.organizationId,
    userId: member.userId,
    completed: true,
    compact: false,
    untitled: false,
    onboarding,
    skills: !onboarding,
  });
  return {
    turnId,
    event: { id: crypto.randomUUID(), name: turnCompleted.name, data, ts: Date.now() },
  };
}

describe("memory jobs on Inngest's engine", () => {
  it("I14.6 post-chat-memory runs for onboarding turns only and writes each fact once, however often it runs", async () => {
    expect(whenExpression(postChatMemory)).toBe("event.data.onboarding == true");
    const { turnId, event } = await completedTurn(
      "I restore antique clocks. My workshop is in Ghent. Could you list suppliers?",
      true,
    );
    for (let run = 0; run < 2; run++) {
      const { result, error } = await engineFor(postChatMemory.id).execute({ events: [event] });
      expect(error).toBeUndefined();
      expect(result).toEqual(
        run === 0 ? { created: 2, reinforced: 0 } : { created: 0, reinforced: 2 },
      );
    }
    const db = await getDb();
    const rows = await db.select().from(memories).where(eq(memories.ownerId, member.userId));
    expect(rows.map((row) => row.text).sort()).toEqual([
      "I restore antique clocks.",
      "My workshop is in Ghent.",
    ]);
    // The second run found each fact with its source already: nothing changed.
    for (const row of rows) {
      expect(row).toMatchObject({
        importance: 5,
        sources: [{ turnId, messageId: expect.any(String) }],
      });
    }
  });

  it("I14.6 skill-extraction keeps a procedure as the member's skill, once", async () => {
    expect(whenExpression(skillExtraction)).toBe("event.data.skills == true");
    const { event } = await completedTurn(
      "How to wind the tower clock:\n- Release the brake\n- Turn the crank forty times\n- Set the brake again",
      false,
    );
    for (let run = 0; run < 2; run++) {
      const { result, error } = await engineFor(skillExtraction.id).execute({ events: [event] });
      expect(error).toBeUndefined();
      expect(result).toEqual(run === 0 ? { created: 1, merged: 0 } : { created: 0, merged: 1 });
    }
    const db = await getDb();
    const rows = await db.select().from(skills).where(eq(skills.ownerId, member.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "Wind the tower clock",
      whenToUse: "When you need to wind the tower clock.",
      steps: ["Release the brake", "Turn the crank forty times", "Set the brake again"],
    });
    expect(rows[0]?.sources).toHaveLength(1);
  });
});
