import { generateText, isStepCount, type Tool, tool } from "ai";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOfflineModel, resetOfflineModelState } from "@/lib/models/offline-model";
import { registerDomainOfflineAnswers } from "./offline-answers";
import { DEMO_REQUESTS, matchDemoRequest, matchingRequests } from "./offline-demo-requests";

/** The table's trigger with its placeholders filled in, as a member would type it. */
function example(trigger: string): string {
  return trigger
    .replace("[for TITLE]", "for Launch")
    .replace("TITLE", "Writer")
    .replace(/STEP/g, "Draft the brief")
    .replace("X because Y", "use Postgres because the team knows it")
    .replace(/\bX\b/, "pricing page copy");
}

const args = (message: string) => JSON.parse(matchDemoRequest(message)?.argsJson ?? "null");

describe("the demo's plain requests for tools", () => {
  it("no phrase in the table matches two tools", () => {
    for (const request of DEMO_REQUESTS) {
      const tools = new Set(matchingRequests(example(request.trigger)).map((r) => r.tool));
      expect([...tools], request.trigger).toEqual([request.tool]);
      expect(matchDemoRequest(example(request.trigger))?.name).toBe(request.tool);
    }
    const tools = new Set(DEMO_REQUESTS.map((request) => request.tool));
    expect([...tools].sort()).toEqual([
      "add_memory_note",
      "consult_specialist",
      "recall",
      "remember",
      "search_history",
      "send_message",
      "update_plan",
      "update_workstream_state",
      "use_skill",
    ]);
  });

  it("a request counts only at the start of a message, after an optional please", () => {
    for (const request of DEMO_REQUESTS) {
      const phrase = example(request.trigger);
      expect(matchDemoRequest(`Please ${phrase}`)?.name, phrase).toBe(request.tool);
      expect(matchDemoRequest(`please, ${phrase}`)?.name, phrase).toBe(request.tool);
      expect(matchDemoRequest(`Could you tell me how to ${phrase}`), phrase).toBeNull();
      expect(matchingRequests(`I was going to ${phrase}`), phrase).toEqual([]);
    }
  });

  it("each request becomes the tool's input", () => {
    expect(args("record the decision: Use Postgres because ops know it")).toEqual({
      keyDecisions: { add: [{ text: "Use Postgres", rationale: "ops know it" }] },
    });
    expect(args("decide: ship on Friday")).toEqual({
      keyDecisions: { add: [{ text: "ship on Friday" }] },
    });
    expect(args("add a task: write the FAQ")).toEqual({
      tasks: { add: [{ text: "write the FAQ" }] },
    });
    expect(args("add a risk: vendor delay")).toEqual({
      risks: { add: [{ text: "vendor delay" }] },
    });
    expect(args("add an open question: who signs off?")).toEqual({
      openQuestions: { add: [{ text: "who signs off?" }] },
    });
    expect(args("add a constraint: budget under 10k")).toEqual({
      activeConstraints: { add: [{ text: "budget under 10k" }] },
    });
    expect(args("plan: draft; review; publish")).toEqual({
      title: "draft, review, publish",
      status: "active",
      steps: [
        { title: "draft", status: "in_progress" },
        { title: "review", status: "pending" },
        { title: "publish", status: "pending" },
      ],
    });
    expect(args("make a plan for Launch week: draft; publish").title).toBe("Launch week");
    expect(args("remember this: the client prefers email")).toEqual({
      text: "the client prefers email",
    });
    expect(args("note: call Sam on Monday")).toEqual({ text: "call Sam on Monday" });
    expect(args("remember that Dana prefers email")).toEqual({ text: "Dana prefers email" });
    expect(args("Please remember for the team that invoices go out on Fridays")).toEqual({
      text: "invoices go out on Fridays",
      scope: "organization",
    });
    expect(args("recall the billing contact?")).toEqual({ query: "the billing contact" });
    expect(args("what do you remember about Dana?")).toEqual({ query: "Dana" });
    expect(args('use the skill "Close the month".')).toEqual({ name: "Close the month" });
    expect(args("search history for pricing tiers?")).toEqual({ query: "pricing tiers" });
    expect(args("search the conversation for the launch date")).toEqual({
      query: "the launch date",
    });
    expect(args("tell my Writer workstream: the launch moved to May")).toEqual({
      workstreamId: "Writer",
      text: "the launch moved to May",
      reason: "You asked me to pass this on.",
    });
    expect(
      args("Please tell the Decision Log workstream that we chose Postgres").workstreamId,
    ).toBe("Decision Log");
    expect(args("ask the Analyst to compare the two offers")).toEqual({
      specialist: "Analyst",
      question: "Compare the two offers",
    });
    expect(args("ask Writer: draft the launch note")).toEqual({
      specialist: "Writer",
      question: "Draft the launch note",
    });
  });

  describe("through the AI SDK", () => {
    const fast = () =>
      createOfflineModel({ chunkDelayMs: 0, firstTokenDelayMs: 0, retryAfterMs: 0 });
    beforeEach(() => {
      registerDomainOfflineAnswers();
      resetOfflineModelState();
    });

    const received: unknown[] = [];
    const updateState = tool({
      description: "Records state",
      inputSchema: z.object({}).passthrough(),
      execute: async (input) => {
        received.push(input);
        return {
          version: 1,
          added: [{ list: "keyDecisions", id: "dec_1", text: "Use Postgres" }],
          updated: [],
          removed: [],
          evicted: [
            {
              list: "keyDecisions",
              id: "dec_0",
              text: "Use MySQL",
              why: "the lowest-confidence decision goes first, ties oldest first",
            },
          ],
        };
      },
    });

    async function run(prompt: string, tools: Record<string, Tool>) {
      return generateText({ model: fast(), prompt, tools, stopWhen: isStepCount(3) });
    }

    it("calls the tool for a plain request and says plainly what it recorded", async () => {
      received.length = 0;
      const result = await run("Please record the decision: Use Postgres because ops know it", {
        update_workstream_state: updateState,
      });
      expect(received).toEqual([
        { keyDecisions: { add: [{ text: "Use Postgres", rationale: "ops know it" }] } },
      ]);
      expect(result.text).toContain("I recorded this in the workstream state");
      expect(result.text).toContain("decision: “Use Postgres”");
      expect(result.text).toContain("let go of 1 older item");
      expect(result.text).toContain("“Use MySQL”");
    });

    it("the [tool:NAME:JSON] form still works, and without the tool it only answers", async () => {
      received.length = 0;
      await run('[tool:update_workstream_state:{"risks":{"add":[{"text":"r"}]}}] go', {
        update_workstream_state: updateState,
      });
      expect(received).toEqual([{ risks: { add: [{ text: "r" }] } }]);
      const plain = await run("add a task: write the FAQ", {});
      expect(plain.toolCalls).toEqual([]);
      expect(plain.text.length).toBeGreaterThan(0);
    });

    it("asks a specialist the tool names, and the answer quotes what they said", async () => {
      const asked: unknown[] = [];
      const consult = tool({
        description: "Asks a specialist (Researcher, Analyst, Writer) a question.",
        inputSchema: z.object({}).passthrough(),
        execute: async (input) => {
          asked.push(input);
          return { specialist: "Analyst", answer: "Offer B is cheaper over two years." };
        },
      });
      const result = await run("ask the Analyst: which offer is cheaper?", {
        consult_specialist: consult,
      });
      expect(asked).toEqual([{ specialist: "Analyst", question: "Which offer is cheaper?" }]);
      expect(result.text).toContain("I asked Analyst. Here is what they said:");
      expect(result.text).toContain("> Offer B is cheaper over two years.");
      // Nobody called "team" is listed: it is a question, not a consultation.
      const plain = await run("ask the team whether Friday works", { consult_specialist: consult });
      expect(plain.toolCalls).toEqual([]);
    });

    it("a plan request starts a plan and the answer lists its steps", async () => {
      const plans: unknown[] = [];
      const updatePlan = tool({
        description: "Plans",
        inputSchema: z.object({}).passthrough(),
        execute: async (input) => {
          plans.push(input);
          return {
            title: "draft, publish",
            status: "active",
            steps: [
              { id: "s1", title: "draft", status: "in_progress" },
              { id: "s2", title: "publish", status: "pending" },
            ],
          };
        },
      });
      const result = await run("plan: draft; publish", { update_plan: updatePlan });
      expect(plans).toHaveLength(1);
      expect(result.text).toContain("I wrote the plan **draft, publish**:");
      expect(result.text).toContain("1. draft — in progress\n2. publish — pending");
    });
  });
});
