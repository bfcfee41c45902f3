/**
 * Every JSON schema the app sends a model in strict mode, as @ai-sdk/openai sends it to a
 * compatible server: the structured outputs (memory facts, skills, compaction findings) and every
 * tool an agent can be given (the built-in ones, each registered scoped tool, consult_specialist).
 * OpenAI refuses a request whose strict schema breaks its rules, so one broken schema means a
 * job that fails on every run with a real model.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateText, type Tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireTurnTools } from "@/root/wiring";
import { type FakeOpenAI, startFakeOpenAI } from "@/tests/support/fake-openai";
import { type ConsultInput, consultSpecialistTool } from "../agents/specialists";
import { scopedToolIds, scopedToolsFor, TOOLS } from "../agents/tools";
import { summarizeRange } from "../compaction/summarize";
import { extractFacts } from "../memory/learn";
import { extractSkills } from "../skills/extract";
import { emptyState } from "../state/schema";
import { resolveModel } from "./registry";
import { strictViolations } from "./strict-rules";

let fake: FakeOpenAI;
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startFakeOpenAI();
  Object.assign(process.env, {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: fake.url,
    MODEL_ATTEMPTS: "1",
    MODEL_RETRY_BASE_MS: "0",
  });
});

afterAll(async () => {
  process.env = saved;
  await fake.close();
});

/** The request of `call` as the fake received it; the call may fail when the fake refuses it. */
async function sent(call: () => Promise<unknown>) {
  const before = fake.requests.length;
  await call().catch(() => undefined);
  const request = fake.requests[before];
  if (!request) throw new Error("no request reached the fake");
  return request;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\./.test(entry.name))
    .map((entry) => path.relative(process.cwd(), path.join(entry.parentPath, entry.name)));
}

describe("strict schemas: what OpenAI would refuse", () => {
  it("T19 T22 T20 every structured output the app asks for is a strict-compatible schema", async () => {
    // The callers below are all of them: a new Output.object elsewhere must be added here.
    const outputs = ["app", "lib", "inngest"]
      .flatMap(sourceFiles)
      .filter((file) => readFileSync(file, "utf8").includes("Output.object("));
    // The model check's own output is strict too, and is checked against the fake in
    // lib/admin/model-check.test.ts.
    expect(outputs.sort()).toEqual([
      "lib/admin/model-check.ts",
      "lib/compaction/summarize.ts",
      "lib/models/extract.ts",
    ]);
    const extractCallers = ["app", "lib", "inngest"]
      .flatMap(sourceFiles)
      .filter((file) => /\bextractStructured\(/.test(readFileSync(file, "utf8")));
    expect(extractCallers.sort()).toEqual(["lib/memory/learn.ts", "lib/skills/extract.ts"]);

    const slice = {
      member: "To release: first run the tests, then tag the build, then deploy it to staging.",
      agent: "Noted. Steps: 1. run the tests 2. tag the build 3. deploy to staging",
    };
    const requests = {
      facts: await sent(() => extractFacts([slice])),
      skills: await sent(() => extractSkills(slice)),
      findings: await sent(() =>
        summarizeRange({
          previousSummary: null,
          messages: [{ role: "user", parts: [{ type: "text", text: slice.member }] }],
          state: emptyState(),
          limit: 2_000,
        }),
      ),
    };
    for (const [name, request] of Object.entries(requests)) {
      const format = request.response_format?.json_schema;
      expect(format?.strict, name).toBe(true);
      expect(strictViolations(format?.schema), name).toEqual([]);
    }
  });

  it("every tool an agent can be given declares strict mode with a strict-compatible schema", async () => {
    wireTurnTools();
    const scope = {
      userId: "u1",
      organizationId: "o1",
      workstreamId: "w1",
      agentId: "chief",
      turnId: "t1",
      messageId: "m1",
    };
    const ids = scopedToolIds();
    for (const id of [
      "complete_onboarding",
      "use_skill",
      "search_history",
      "send_message",
      "update_workstream_state",
      "update_plan",
      "add_memory_note",
      "remember",
      "recall",
      "read_attachment",
    ]) {
      expect(ids).toContain(id);
    }
    const tools: Record<string, Tool> = {
      ...TOOLS,
      ...scopedToolsFor(ids, scope),
      // Built per turn from the group's specialists; only their names reach the tool.
      consult_specialist: consultSpecialistTool({ specialists: [] } as unknown as ConsultInput),
    };
    const { model } = await resolveModel("balanced");
    const request = await sent(() => generateText({ model, prompt: "hello", tools }));
    const names = (request.tools ?? []).map((sent) => sent.function.name);
    expect(names.sort()).toEqual(Object.keys(tools).sort());
    for (const sentTool of request.tools ?? []) {
      const { name, strict, parameters } = sentTool.function;
      expect({ name, strict }).toEqual({ name, strict: true });
      expect({ name, violations: strictViolations(parameters) }).toEqual({ name, violations: [] });
    }
  });
});
