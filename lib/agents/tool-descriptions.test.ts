/**
 * Every tool an agent can be given tells the model what it does, when to use it and when not,
 * in at most six sentences, and gives each of its parameters a description with an example: a
 * real model chooses a tool by these words alone. The words themselves are pinned by the request
 * snapshots (tests/integration/model-request.test.ts).
 */
import { asSchema, type Tool } from "ai";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { wireTurnTools } from "@/root/wiring";
import { agentInstructions } from "./instructions";
import { type ConsultInput, consultSpecialistTool } from "./specialists";
import { scopedToolIds, scopedToolsFor, TOOLS } from "./tools";

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function allTools(): Record<string, Tool> {
  wireTurnTools();
  const scope = { userId: "u1", organizationId: "o1", workstreamId: "w1", agentId: "chief" };
  const specialists = [config.agents.researcher, config.agents.analyst, config.agents.writer];
  return {
    ...TOOLS,
    ...scopedToolsFor(scopedToolIds(), scope),
    consult_specialist: consultSpecialistTool({ specialists } as unknown as ConsultInput),
  };
}

/** Sentences of a text; "e.g." is not a sentence's end. */
function sentences(text: string): number {
  return text.replaceAll("e.g.", "eg").match(/[.!?](?=\s|$)/g)?.length ?? 0;
}

/** The description of a property, also when strict mode wrapped it in an anyOf with null. */
function descriptionOf(node: Node): string | undefined {
  if (typeof node.description === "string") return node.description;
  const branches = Array.isArray(node.anyOf) ? node.anyOf.filter(isNode) : [];
  return branches.map(descriptionOf).find((found) => found !== undefined);
}

/** A property that only holds others (an object, a list of objects, a reference) is not a leaf. */
function isContainer(node: Node): boolean {
  if (typeof node.$ref === "string" || isNode(node.properties)) return true;
  if (isNode(node.items)) return isContainer(node.items);
  const branches = Array.isArray(node.anyOf) ? node.anyOf.filter(isNode) : [];
  return branches.some(isContainer);
}

/** Every leaf parameter of a schema, by path, with its description. */
function leaves(node: Node, at: string): Array<{ path: string; description?: string }> {
  const found: Array<{ path: string; description?: string }> = [];
  const visit = (current: Node, path: string) => {
    for (const [name, child] of Object.entries(
      isNode(current.properties) ? current.properties : {},
    )) {
      if (!isNode(child)) continue;
      if (!isContainer(child))
        found.push({ path: `${path}.${name}`, description: descriptionOf(child) });
    }
    const nested = [
      ...Object.values(isNode(current.properties) ? current.properties : {}),
      current.items,
      ...(Array.isArray(current.anyOf) ? current.anyOf : []),
    ].filter(isNode);
    for (const child of nested) visit(child, path);
  };
  visit(node, at);
  for (const [name, def] of Object.entries(isNode(node.$defs) ? node.$defs : {})) {
    if (isNode(def)) visit(def, `${at}.$defs.${name}`);
  }
  return found;
}

describe("tool descriptions a model can follow", () => {
  it("every tool says what it does, when to use it and when not, in at most six sentences", () => {
    const tools = allTools();
    expect(Object.keys(tools).length).toBeGreaterThanOrEqual(15);
    for (const [name, tool] of Object.entries(tools)) {
      // Every app tool's description is a fixed string (the SDK also allows a function).
      const description = typeof tool.description === "string" ? tool.description : "";
      expect({ name, sentences: sentences(description) <= 6 }).toEqual({ name, sentences: true });
      expect({ name, when: /\b(Use it|Call it)\b/.test(description) }).toEqual({
        name,
        when: true,
      });
      expect({ name, whenNot: /\b(not|never|only)\b/.test(description) }).toEqual({
        name,
        whenNot: true,
      });
    }
  });

  it("every parameter of every tool has a description with an example", async () => {
    let checked = 0;
    for (const [name, tool] of Object.entries(allTools())) {
      const schema = (await asSchema(tool.inputSchema).jsonSchema) as Node;
      for (const leaf of leaves(schema, name)) {
        checked += 1;
        expect({ ...leaf, example: /e\.g\./.test(leaf.description ?? "") }).toEqual({
          ...leaf,
          example: true,
        });
      }
    }
    expect(checked).toBeGreaterThanOrEqual(25);
  });
});

describe("agent instructions", () => {
  it("say what the state, plan, memory block and memories are for, for the tools the agent has", () => {
    const chief = agentInstructions(config.agents.chief);
    expect(chief.startsWith(config.agents.chief.persona)).toBe(true);
    for (const marker of ["workstream state", "execution plan", "memory block", "remember"]) {
      expect(chief).toContain(marker);
    }
    // Without the plan tool the plan line is left out: never a tool the agent was not given.
    const noPlan = agentInstructions(config.agents.chief, ["update_workstream_state"]);
    expect(noPlan).not.toContain("update_plan");
    expect(agentInstructions(config.agents.chief, [])).toBe(config.agents.chief.persona);
  });
});
