import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import type { KeptContext } from "@/lib/context/window";
import { emptyState } from "@/lib/state/schema";
import type { WorkstreamMessage } from "@/lib/turns/messages";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { composeRequest, memberSection } from "./build";

const AT = "2026-11-20T09:30:00.000Z";

const workstream: WorkstreamRow = {
  id: "ws_fixture",
  organizationId: "org_1",
  ownerId: "u_1",
  mode: "group",
  core: false,
  coreType: null,
  agentId: "chief",
  title: "Billing migration",
  status: "regular",
  activeRunId: null,
  isCompacting: false,
  compactionToken: null,
  compactionLeaseExpiresAt: null,
  compactionSummary: "We scoped the billing migration to invoices and refunds.",
  lastCompactedMessageId: "m_0",
  unreadSince: null,
  securityMode: "ask",
  toolAllowlist: [],
  createdAt: new Date(AT),
  updatedAt: new Date(AT),
};

function message(id: string, role: "user" | "assistant", text: string): WorkstreamMessage {
  return { id, role, parts: [{ type: "text", text }] };
}

const history = [
  { message: message("m_1", "user", "Can we move the cut-over to Friday?"), tokens: 10 },
  { message: message("m_2", "assistant", "Yes, if the load test passes on Thursday."), tokens: 11 },
  { message: message("m_3", "user", "What is left before the cut-over?"), tokens: 9 },
];

function fixtureKept(): KeptContext {
  const state = emptyState();
  state.currentPlan.push({ id: "cp1", text: "Cut over billing on Friday", addedAt: AT });
  state.keyDecisions.push({
    id: "d1",
    text: "Ship on Friday",
    rationale: "The load test passed",
    confidence: 0.9,
    addedAt: AT,
  });
  state.tasks.push(
    { id: "t1", text: "Write the rollback runbook", status: "open", addedAt: AT },
    { id: "t2", text: "Freeze the schema", status: "done", addedAt: AT },
  );
  state.risks.push({ id: "r1", text: "Refund webhooks may arrive twice", addedAt: AT });
  return {
    state,
    plan: {
      id: "p1",
      title: "Billing cut-over",
      status: "active",
      steps: [
        { id: "s1", title: "Load test", status: "done" },
        { id: "s2", title: "Rollback runbook", status: "in_progress" },
        { id: "s3", title: "Cut over", status: "pending" },
      ],
      updatedAt: AT,
    },
    memorySummary: "chief noted the team prefers Friday releases.",
    memoryEntries: [
      { id: "e1", role: "chief", text: "Finance signs off on refunds", createdAt: AT },
      { id: "e2", role: "member", text: "Ops is on call this weekend", createdAt: AT },
    ],
  };
}

const viewer = { userName: "Ada Lovelace", role: "member" as const, organizationName: "Acme" };

function compose(kept: KeptContext, extra: Partial<Parameters<typeof composeRequest>[0]> = {}) {
  return composeRequest({
    workstream,
    agent: config.agents.chief,
    modelId: "offline-1",
    viewer,
    history,
    kept,
    memories: {
      top: [{ id: "mem1", text: "Acme bills in EUR and USD", importance: 0.9 }],
      retrieved: [
        { id: "mem2", text: "Refunds above 500 EUR need finance approval", importance: 0.6 },
      ],
    },
    ...extra,
  });
}

/** The request as a reviewer reads it: the instructions, then each message by role. */
function readable({ instructions, messages }: Awaited<ReturnType<typeof compose>>): string {
  const lines = messages.map((entry) => {
    const content =
      typeof entry.content === "string"
        ? entry.content
        : entry.content.map((part) => ("text" in part ? part.text : `[${part.type}]`)).join("");
    return `--- ${entry.role} ---\n${content}`;
  });
  return `=== instructions ===\n${instructions}\n\n=== messages ===\n${lines.join("\n")}\n`;
}

describe("the context builder", () => {
  it("I13.4 T5 T7 T8 T9 T10 T11 the assembled prompt of a fixture workstream, in seed 000's order", async () => {
    {
      const composed = await compose(fixtureKept(), { extraSections: [memberSection(viewer)] });
      await expect(readable(composed)).toMatchFileSnapshot("__snapshots__/context-prompt.txt");
      const order = [
        "<pre-seeded-memories>",
        "<retrieved-knowledge>",
        "<execution-plan-state",
        "<workstream-state>",
        "<memory-block>",
        "<organization>",
      ].map((tag) => composed.instructions.indexOf(tag));
      expect(order.every((index) => index > 0)).toBe(true);
      expect(order).toEqual(order.toSorted((a, b) => a - b));
      // While a plan is active, the state leaves out its own plan text.
      expect(composed.instructions).not.toContain("Cut over billing on Friday");
      expect(composed.messages[0]).toEqual({
        role: "system",
        content: expect.stringContaining("invoices and refunds"),
      });
      expect(composed.record.sections.map((section) => section.name)).toEqual([
        "instructions",
        "tools",
        "topMemories",
        "retrievedMemories",
        "executionPlan",
        "workstreamState",
        "memoryBlock",
        "extraSections",
        "uploads",
        "compactionSummary",
        "history",
      ]);
    }
  });

  it("I13.4 W9 without an active plan the state keeps its plan text", async () => {
    const kept = fixtureKept();
    kept.plan = kept.plan ? { ...kept.plan, status: "completed" } : null;
    const composed = await compose(kept);
    expect(composed.instructions).not.toContain("<execution-plan-state");
    expect(composed.instructions).toContain("Cut over billing on Friday");
  });

  it("I13.4 a section over its budget is cut by whole items, the least important first", async () => {
    const kept = fixtureKept();
    kept.plan = null;
    const words = Array.from({ length: 150 }, (_, i) => `r${i * 7}`).join(" ");
    const long = (n: number) => `Decision ${n}: ${words}`;
    kept.state.keyDecisions = Array.from({ length: 8 }, (_, n) => ({
      id: `d${n}`,
      text: long(n).slice(0, 500),
      rationale: words.slice(0, 400),
      confidence: n / 10,
      addedAt: AT,
    }));
    const composed = await compose(kept);
    const state = composed.record.sections.find((section) => section.name === "workstreamState");
    expect(state?.tokens).toBeLessThanOrEqual(config.context.budgets.workstreamState);
    expect(state?.cut).toBeGreaterThan(0);
    // The most confident decision stays, the least confident goes first.
    expect(composed.instructions).toContain("Decision 7:");
    expect(composed.instructions).not.toContain("Decision 0:");
  });

  it("I13.4 M3 history is trimmed oldest first to the window, and the new message always goes", async () => {
    // More than the offline model's 200,000-token window holds.
    const many = Array.from({ length: 1_200 }, (_, n) => ({
      message: message(`m_${n}`, n % 2 ? "assistant" : "user", `message ${n} `.repeat(60)),
      tokens: 180,
    }));
    const composed = await compose(fixtureKept(), { history: many, historyLeftOut: 7 });
    const { record } = composed;
    const historySection = record.sections.find((section) => section.name === "history");
    expect(record.total).toBeLessThanOrEqual(record.window - record.reservedOutput);
    expect(historySection?.cut).toBeGreaterThan(7);
    const ids = composed.messages.flatMap((entry) =>
      typeof entry.content === "string"
        ? []
        : entry.content.map((part) => ("text" in part ? part.text : "")),
    );
    expect(ids.at(-1)).toContain("message 1199");
    expect(ids.some((text) => text.includes("message 0 "))).toBe(false);
  });
});
