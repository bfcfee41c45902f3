// The evaluation (bench/eval/) played through the app: a member with the scenarios' workstreams,
// another member of the same organization whose memory holds a marker that must never reach the
// first, every message sent and read over HTTP and the post-turn jobs running as they do in the
// app. In the suite it runs on the offline model, to keep the evaluation working; no score is
// required. `npm run eval` (scripts/eval.mjs) runs this file with EVAL_SCORECARD set, against the
// configured model, and writes the scorecard there.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { config } from "@/lib/config";
import { createMemory } from "@/lib/memory/store";
import { usingOfflineModel } from "@/lib/models/registry";
import type { ContextView } from "@/lib/state/schema";
import { wireDomains } from "@/root/wiring";
import { runEval, scorecard } from "../../bench/eval/run-eval";
import { type EvalDriver, type EvalMessage, OTHER_MEMBER_MARKER } from "../../bench/eval/scenarios";
import { userMessage } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { readSse, statuses } from "../support/sse";
import { createGroup, waitFor } from "./workstreams-support/helpers";

const scorecardPath = process.env.EVAL_SCORECARD;
// In the suite the evaluation always runs on the offline model, whatever the environment holds.
const app = appHarness({
  env: scorecardPath
    ? {}
    : { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", OFFLINE_MODEL_CHUNK_DELAY_MS: "0" },
  wire: wireDomains,
});
const realModel = Boolean(scorecardPath) && !usingOfflineModel();
const TURN_WAIT_MS = realModel ? 180_000 : 20_000;

describe("the evaluation", () => {
  it(
    "plays every scenario and scores each rule pass or fail",
    async () => {
      const member = await app.owner("Eval Member");
      const other = await app.memberOf(member.organizationId, "member", "Other Member");
      await createMemory({
        organizationId: member.organizationId,
        ownerId: other.userId,
        agentId: null,
        text: `My project codename is ${OTHER_MEMBER_MARKER}; the data platform budget is mine.`,
        importance: 9,
        source: null,
      });
      const client = member.client;
      const driver: EvalDriver = {
        workstream: async (kind) =>
          kind === "direct" ? member.workstreamId : (await createGroup(client)).id,
        titledWorkstream: async (title) => (await createGroup(client, title)).id,
        send: async (workstreamId, text) => {
          const response = await client.fetch(`/api/workstreams/${workstreamId}/messages`, {
            method: "POST",
            json: userMessage(text),
          });
          if (response.status !== 200) return `refused ${response.status}`;
          const { events } = await readSse(response);
          return statuses(events).at(-1) ?? "none";
        },
        view: async (workstreamId) =>
          (await client.json<ContextView>(`/api/workstreams/${workstreamId}/context`)).body,
        messages: async (workstreamId) =>
          (
            await client.json<{ messages: EvalMessage[] }>(
              `/api/workstreams/${workstreamId}/messages?take=${config.history.maxTake}`,
            )
          ).body.messages,
        memories: async () =>
          (
            await client.json<{ memories: Array<{ text: string }> }>("/api/memories")
          ).body.memories.map((memory) => memory.text),
        title: async (workstreamId) => {
          const read = async () =>
            (await client.json<{ title: string }>(`/api/workstreams/${workstreamId}`)).body.title;
          return waitFor(
            async () => {
              const title = await read();
              return title !== config.workstreams.defaultGroupTitle && title;
            },
            "a generated title",
            TURN_WAIT_MS,
          ).catch(read);
        },
        compactions: async (workstreamId) => {
          const list = async () =>
            (
              await client.json<{ compactions: unknown[] }>(
                `/api/workstreams/${workstreamId}/compactions`,
              )
            ).body.compactions.length;
          return waitFor(list, "a compaction", TURN_WAIT_MS).catch(list);
        },
        seedHistory: async (workstreamId, lines, tokens) => {
          const db = await getDb();
          const stamp = crypto.randomUUID().slice(0, 8);
          await db.insert(messages).values(
            lines.flatMap((line, index) => [
              {
                workstreamId,
                id: `eval_${stamp}_${index}_u`,
                role: "user" as const,
                parts: [{ type: "text", text: line }],
                tokenCount: tokens,
              },
              {
                workstreamId,
                id: `eval_${stamp}_${index}_a`,
                role: "assistant" as const,
                parts: [{ type: "text", text: "Noted." }],
                tokenCount: 3,
              },
            ]),
          );
        },
      };

      const rows = await runEval(driver);
      const model = usingOfflineModel()
        ? "the offline model"
        : (process.env.OPENAI_MODEL_BALANCED ?? process.env.OPENAI_MODEL ?? "the configured model");
      const card = scorecard(rows, { model, at: new Date() });
      console.info(card);
      if (scorecardPath) writeFileSync(scorecardPath, card);
      // Every scenario was played and scored; what passes is the scorecard's business.
      expect(rows.map((row) => typeof row.rule.pass)).toEqual(rows.map(() => "boolean"));
      expect(rows.length).toBe(7);
    },
    realModel ? 1_800_000 : 240_000,
  );
});
