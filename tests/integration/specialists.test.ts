// Specialists and preambles through real turns on the offline model. In a group workstream the
// chief consults a specialist inside its turn: the specialist reads the state and the latest
// messages only, its steps, tokens and cost are the turn's, its answer streams as a nested part
// kept with the message and recorded in the state, and Stop ends both. Every turn says something
// before its first text: a preamble (the greeting on a workstream's first turn), and after a
// batch of tool calls an announcement that names neither the tool nor its result.
import type { LanguageModelV4, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { turns, workstreamStates } from "@/db/schema";
import type { SpecialistPartData } from "@/lib/agents/specialists";
import { config } from "@/lib/config";
import { registerHook } from "@/lib/turns/hooks";
import { runRegistry } from "@/lib/turns/run-registry";
import { wireDomains } from "@/root/wiring";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { readSse, type SseEvent, statuses, textOf } from "../support/sse";
import { answer, eventually, followFrom, messagesOf } from "./approvals-support";
import { createGroup } from "./workstreams-support/helpers";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });

/** Every model call of the tests: whose it was, what it was sent, what it used, if it was cut. */
type Call = {
  agentId: string;
  prompt: LanguageModelV4Prompt;
  usage?: { input: number; output: number };
  signal?: AbortSignal;
};
const calls: Call[] = [];

function recording(model: LanguageModelV4, agentId: string): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    doStream: async (options) => {
      const call: Call = { agentId, prompt: options.prompt, signal: options.abortSignal };
      calls.push(call);
      const result = await model.doStream(options);
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            if (part.type === "finish") {
              call.usage = {
                input: part.usage.inputTokens.total ?? 0,
                output: part.usage.outputTokens.total ?? 0,
              };
            }
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

beforeAll(async () => {
  registerHook({
    kind: "resolveAgent",
    name: "test:record-model-calls",
    run: ({ resolved }) => ({
      ...resolved,
      model: { ...resolved.model, model: recording(resolved.model.model, resolved.agent.id) },
    }),
  });
});

async function groupOf(name: string): Promise<Owner> {
  const owner = await app.owner(name);
  const group = await createGroup(owner.client, "Pricing");
  return { ...owner, workstreamId: group.id };
}

async function turn(owner: Owner, text: string) {
  const response = await send(owner, text);
  expect(response.status).toBe(200);
  const turnId = String(response.headers.get("x-turn-id"));
  return { turnId, ...(await readSse(response)) };
}

function specialistParts(events: SseEvent[]): SpecialistPartData[] {
  return events
    .filter((event) => event.data.type === "data-specialist")
    .map((event) => event.data.data as SpecialistPartData);
}

function promptText(prompt: LanguageModelV4Prompt): string[] {
  return prompt.map((message) =>
    typeof message.content === "string"
      ? `${message.role}: ${message.content}`
      : `${message.role}: ${message.content
          .map((part) => (part.type === "text" ? part.text : `[${part.type}]`))
          .join(" ")}`,
  );
}

async function lastAssistant(workstreamId: string) {
  const rows = await messagesOf(workstreamId);
  const row = rows.findLast((message) => message.role === "assistant");
  return row as unknown as {
    parts: Array<{ type: string; text?: string; data?: SpecialistPartData }>;
    metadata: { inputTokens: number | null; outputTokens: number | null; agentId: string };
  };
}

describe("consulting a specialist in a group workstream", () => {
  it("W3 the specialist reads the state and the last 6 messages, answers in a nested part kept with the message, and is recorded in the state", async () => {
    const owner = await groupOf("Consulting Member");
    for (let index = 1; index <= 4; index++) await turn(owner, `note number ${index} [words:5]`);
    await turn(owner, "record the decision: use Postgres because ops know it");
    calls.length = 0;

    const { events, turnId } = await turn(owner, "ask the Analyst: which database is cheaper?");
    expect(statuses(events).at(-1)).toBe("ready");

    const specialist = calls.filter((call) => call.agentId === "analyst");
    expect(specialist).toHaveLength(1);
    const [system, ...conversation] = promptText(specialist[0]?.prompt ?? []);
    expect(system).toContain(config.agents.analyst.persona);
    expect(system).toContain("<workstream-state>");
    expect(system).toContain("use Postgres");
    // The last 6 messages (the older notes are not read) and then the question.
    expect(conversation).toHaveLength(7);
    expect(conversation.join("\n")).not.toContain("note number 1");
    expect(conversation.join("\n")).not.toContain("note number 2");
    expect(conversation.at(-2)).toBe("user: ask the Analyst: which database is cheaper?");
    expect(conversation.at(-1)).toBe("user: Which database is cheaper?");

    // The nested part streams into the chief's turn, with offsets, and ends done.
    const nested = specialistParts(events);
    expect(nested.length).toBeGreaterThanOrEqual(2);
    expect(nested[0]).toMatchObject({ agentId: "analyst", name: "Analyst", status: "working" });
    const done = nested.at(-1);
    expect(done).toMatchObject({ agentId: "analyst", status: "done", steps: 1 });
    expect(done?.text.length).toBeGreaterThan(0);
    const firstLine = done?.text.split("\n").find((line) => line.trim()) ?? "";
    expect(textOf(events)).toContain("I asked Analyst. Here is what they said:");
    expect(textOf(events)).toContain(`> ${firstLine}`);

    // Kept with the chief's message, so a reload shows it.
    const message = await lastAssistant(owner.workstreamId);
    expect(message.metadata.agentId).toBe("chief");
    const kept = message.parts.filter((part) => part.type === "data-specialist");
    expect(kept).toHaveLength(1);
    expect(kept[0]?.data).toEqual(done);

    const [state] = await (await getDb())
      .select()
      .from(workstreamStates)
      .where(eq(workstreamStates.workstreamId, owner.workstreamId));
    const stored = state?.state as
      | { agentContributions: Array<{ agentId: string; text: string }> }
      | undefined;
    const contributions = stored?.agentContributions;
    expect(contributions).toEqual([
      expect.objectContaining({
        agentId: "analyst",
        text: expect.stringContaining("Analyst on “Which database is cheaper?”"),
      }),
    ]);
    expect((await turnRowOf(turnId))?.state).toBe("completed");
  });

  it("W3 the specialist's tokens add up into the turn's, and its steps count toward the turn's bound", async () => {
    const owner = await groupOf("Counting Member");
    calls.length = 0;
    await turn(owner, "ask the Writer: draft a one-line launch note");
    const message = await lastAssistant(owner.workstreamId);
    expect(calls.map((call) => call.agentId).sort()).toEqual(["chief", "chief", "writer"]);
    const sum = (pick: (usage: { input: number; output: number }) => number) =>
      calls.reduce((total, call) => total + pick(call.usage ?? { input: 0, output: 0 }), 0);
    expect(message.metadata.inputTokens).toBe(sum((usage) => usage.input));
    expect(message.metadata.outputTokens).toBe(sum((usage) => usage.output));

    // Three steps in all: the chief's call, then two of the Analyst's (a calculation and its
    // answer) use the bound up, so the chief cannot go on to answer.
    const turnsConfig = config.turns as { maxSteps: number };
    const maxSteps = turnsConfig.maxSteps;
    turnsConfig.maxSteps = 3;
    try {
      const question = '[tool:calculate:{\\"expression\\":\\"2+2\\"}] add them';
      const { events } = await turn(
        owner,
        `[tool:consult_specialist:{"specialist":"analyst","question":"${question}"}]`,
      );
      expect(specialistParts(events).at(-1)).toMatchObject({ status: "done", steps: 2 });
      const last = events.filter((event) => event.data.type === "data-status").at(-1);
      expect(last?.data.data).toMatchObject({ state: "error", code: "turn:step_limit" });
    } finally {
      turnsConfig.maxSteps = maxSteps;
    }
  });

  it("W3 Stop during a consultation stops the specialist and the chief; the part says it was stopped", async () => {
    const owner = await groupOf("Stopping Member");
    calls.length = 0;
    const response = await send(
      owner,
      '[tool:consult_specialist:{"specialist":"researcher","question":"[hang] dig deep"}]',
    );
    const turnId = String(response.headers.get("x-turn-id"));
    const rest = readSse(response);
    await eventually(async () => calls.some((call) => call.agentId === "researcher"));
    const stop = await owner.client.json<{ state: string }>(
      `/api/workstreams/${owner.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.body).toEqual({ turnId, state: "cancelled" });
    const { events } = await rest;
    expect(statuses(events).at(-1)).toBe("cancelled");
    const researcher = calls.find((call) => call.agentId === "researcher");
    expect(researcher?.signal?.aborted).toBe(true);
    expect(calls.find((call) => call.agentId === "chief")?.signal?.aborted).toBe(true);
    const message = await lastAssistant(owner.workstreamId);
    expect(message.parts.find((part) => part.type === "data-specialist")?.data).toMatchObject({
      agentId: "researcher",
      status: "stopped",
    });
    expect(runRegistry.size()).toBe(0);
    expect((await turnRowOf(turnId))?.state).toBe("cancelled");
  });

  it("T25 in a group workstream an approval still continues the same turn, a consultation kept", async () => {
    const owner = await groupOf("Approving Member");
    await createGroup(owner.client, "Board notes");
    const response = await send(
      owner,
      '[tool:consult_specialist:{"specialist":"writer","question":"draft a line"}] [tool:send_message:{"workstreamId":"Board notes","text":"hello"}]',
    );
    const turnId = String(response.headers.get("x-turn-id"));
    const { events } = await readSse(response);
    expect(statuses(events).at(-1)).toBe("suspended");
    const approvalId = events.find((event) => event.data.type === "tool-approval-request")?.data
      .approvalId;
    const answered = await answer(owner.client, owner, turnId, String(approvalId), {
      approved: true,
    });
    expect(answered.status).toBe(200);
    const lastOffset = Math.max(...events.map((event) => event.offset ?? 0));
    const rest = await followFrom(owner, lastOffset);
    expect(statuses(rest.events).at(-1)).toBe("ready");
    const message = await lastAssistant(owner.workstreamId);
    expect(message.parts.filter((part) => part.type === "data-specialist")).toHaveLength(1);
    const sent = message.parts.find((part) => part.type === "tool-send_message") as
      | { state?: string }
      | undefined;
    expect(sent?.state).toBe("output-available");
    expect(message.parts.filter((part) => part.type === "text").length).toBeGreaterThan(0);
  });

  it("W3 a direct workstream's chief has no specialists to consult", async () => {
    const owner = await app.owner("Direct Member");
    calls.length = 0;
    const { events } = await turn(owner, "ask the Analyst: which database is cheaper?");
    expect(statuses(events).at(-1)).toBe("ready");
    expect(calls.map((call) => call.agentId)).toEqual(["chief"]);
    expect(specialistParts(events)).toEqual([]);
  });
});

async function turnRowOf(turnId: string) {
  const [row] = await (await getDb()).select().from(turns).where(eq(turns.id, turnId));
  return row;
}

function preambles(events: SseEvent[]) {
  return events.flatMap((event) => {
    const data = event.data.data as { state?: string; text?: string } | undefined;
    return event.data.type === "data-status" && data?.state === "preamble"
      ? [{ offset: event.offset, text: String(data.text) }]
      : [];
  });
}

function firstOffset(events: SseEvent[], type: string): number {
  return events.find((event) => event.data.type === type)?.offset ?? Number.POSITIVE_INFINITY;
}

describe("preambles", () => {
  it("E3 the greeting opens a new workstream's first turn, the preamble every later one, each before the first text and with an offset", async () => {
    const owner = await app.owner("Greeted Member");
    const first = await turn(owner, "hello there");
    const voice = config.agents.chief.voice;
    expect(preambles(first.events).map((preamble) => preamble.text)).toEqual([voice.greeting]);
    const second = await turn(owner, "and again");
    const said = preambles(second.events);
    expect(said.map((preamble) => preamble.text)).toEqual([voice.preamble]);
    for (const { events } of [first, second]) {
      const [preamble] = preambles(events);
      expect(typeof preamble?.offset).toBe("number");
      expect(preamble?.offset).toBeLessThan(firstOffset(events, "text-delta"));
    }
  });

  it("E3 after a batch of tool calls the agent announces it goes on, naming neither the tool nor its result", async () => {
    const owner = await app.owner("Announced Member");
    await turn(owner, "hello there");
    const { events } = await turn(owner, "What time is it? [tool:current_time]");
    expect(statuses(events).at(-1)).toBe("ready");
    const said = preambles(events);
    const voice = config.agents.chief.voice;
    expect(said.map((preamble) => preamble.text)).toEqual([voice.preamble, voice.afterTools]);
    const announcement = said[1];
    const output = events.find((event) => event.data.type === "tool-output-available");
    expect(announcement?.offset).toBeGreaterThan(output?.offset ?? Number.POSITIVE_INFINITY);
    expect(announcement?.offset).toBeLessThan(firstOffset(events, "text-delta"));
    const result = output?.data.output as { iso: string };
    expect(announcement?.text).not.toContain("current_time");
    expect(announcement?.text).not.toContain(result.iso.slice(0, 10));
  });
});
