// What the model is sent, pinned: the system instructions and the tool list (names, descriptions,
// parameters) of the chief in a direct and in a group workstream and of each specialist it
// consults, as the provider receives them from real turns (the compose stage, the resolveAgent
// hooks, the scoped tools, consult_specialist). A change to a persona, an instruction line or a
// tool description shows here as a snapshot diff to review, not as a change in the offline
// model's reactions. Also reports the tokens the instructions and tools cost (the context
// builder's record of the turn).
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { turns } from "@/db/schema";
import type { ContextRecord } from "@/lib/state/schema";
import { registerHook } from "@/lib/turns/hooks";
import { wireDomains } from "@/root/wiring";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { readSse, statuses } from "../support/sse";
import { createGroup } from "./workstreams-support/helpers";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });

type Call = { agentId: string; options: LanguageModelV4CallOptions };
const calls: Call[] = [];

function recording(model: LanguageModelV4, agentId: string): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    doStream: (options) => {
      calls.push({ agentId, options });
      return model.doStream(options);
    },
  };
}

beforeAll(() => {
  registerHook({
    kind: "resolveAgent",
    name: "test:record-model-requests",
    run: ({ resolved }) => ({
      ...resolved,
      model: { ...resolved.model, model: recording(resolved.model.model, resolved.agent.id) },
    }),
  });
});

/** The request as a reviewer reads it: the system text, then each tool and its parameters. */
function rendered(call: Call | undefined, owner: Owner): string {
  if (!call) throw new Error("the agent's model was not called");
  const system = call.options.prompt
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n\n---\n\n")
    .replaceAll(owner.name, "<member>")
    // State items carry generated ids.
    .replace(/\[([a-z]+)_[0-9a-z]+\]/g, "[$1_<id>]");
  const tools = (call.options.tools ?? []).map((tool) =>
    tool.type === "function"
      ? [
          `## ${tool.name}${tool.strict ? " (strict)" : ""}`,
          tool.description ?? "",
          "```json",
          JSON.stringify(tool.inputSchema, null, 2),
          "```",
        ].join("\n")
      : `## ${tool.name} (provider tool)`,
  );
  return [`# system\n\n${system}`, `# tools\n\n${tools.join("\n\n")}`, ""].join("\n\n");
}

async function turn(owner: Owner, text: string): Promise<string> {
  const response = await send(owner, text);
  expect(response.status).toBe(200);
  const turnId = String(response.headers.get("x-turn-id"));
  const { events } = await readSse(response);
  expect(statuses(events).at(-1)).toBe("ready");
  return turnId;
}

async function contextOf(turnId: string): Promise<ContextRecord> {
  const db = await getDb();
  const [row] = await db.select({ context: turns.context }).from(turns).where(eq(turns.id, turnId));
  return row?.context as ContextRecord;
}

function tokensOf(record: ContextRecord, name: "instructions" | "tools"): number {
  return record.sections.find((section) => section.name === name)?.tokens ?? 0;
}

describe("what the model is sent", () => {
  it("the chief's instructions and tools in a direct workstream are pinned", async () => {
    const owner = await app.owner("Request Reader");
    calls.length = 0;
    const turnId = await turn(owner, "hello");
    const chief = calls.find((call) => call.agentId === "chief");
    await expect(rendered(chief, owner)).toMatchFileSnapshot(
      "./__snapshots__/model-request.chief-direct.txt",
    );
    const record = await contextOf(turnId);
    console.info(
      `[model-request] chief (direct): instructions ${tokensOf(record, "instructions")} tokens, tools ${tokensOf(record, "tools")} tokens`,
    );
  });

  it("the chief's instructions and tools in a group workstream, and each specialist's, are pinned", async () => {
    const member = await app.owner("Group Reader");
    const group = await createGroup(member.client, "Pricing");
    const owner = { ...member, workstreamId: group.id };
    calls.length = 0;
    const turnId = await turn(owner, "ask the Analyst: which plan is cheaper?");
    const chief = calls.find((call) => call.agentId === "chief");
    expect(chief?.options.tools?.map((tool) => tool.name)).toContain("consult_specialist");
    await expect(rendered(chief, owner)).toMatchFileSnapshot(
      "./__snapshots__/model-request.chief-group.txt",
    );
    const record = await contextOf(turnId);
    console.info(
      `[model-request] chief (group): instructions ${tokensOf(record, "instructions")} tokens, tools ${tokensOf(record, "tools")} tokens (consult_specialist not counted)`,
    );
    for (const [agentId, name] of [
      ["analyst", "Analyst"],
      ["researcher", "Researcher"],
      ["writer", "Writer"],
    ] as const) {
      if (agentId !== "analyst") {
        // A workstream of its own, so the state it reads holds no earlier consultation.
        const fresh = { ...member, workstreamId: (await createGroup(member.client, name)).id };
        calls.length = 0;
        await turn(fresh, `ask the ${name}: what should we check first?`);
      }
      const specialist = calls.find((call) => call.agentId === agentId);
      await expect(rendered(specialist, owner)).toMatchFileSnapshot(
        `./__snapshots__/model-request.${agentId}.txt`,
      );
    }
  });
});
