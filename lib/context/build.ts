// COMPOSE_REQUEST: the model's view of the workstream, assembled within the model's window. The
// instructions are the agent's own (its persona and what it keeps, lib/agents/instructions.ts) and then, in this order, the pre-seeded memories, the
// retrieved knowledge, the execution plan, the workstream state, the memory block, the sections
// `buildExtraInstructionSections` hooks add, and the upload metadata; each section has a token
// budget and is cut by whole items (the least important first). The messages are the history
// since the last compaction, led by the compaction summary as a synthetic system message, trimmed
// oldest first to what the window has left. Messages are whole units, so a tool call is never
// separated from its result. Attachments in the kept messages go to a model that takes their
// type while the window has room for them (counted at the estimates of lib/files/resolve.ts, the
// newest first); the rest are left out of the messages, and every one is listed in the upload
// metadata with its id for read_attachment. What was sent is recorded by section, with token
// counts only (attachments count toward the history section).
import { asSchema, convertToModelMessages, type ModelMessage, type Tool } from "ai";
import { agentInstructions } from "@/lib/agents/instructions";
import type { Viewer } from "@/lib/auth/viewer";
import { type AgentConfig, config } from "@/lib/config";
import { fileIdOf } from "@/lib/files/attach";
import { sizeLabel, typeLabel } from "@/lib/files/labels";
import { NO_ATTACHMENTS, type TurnAttachment, type TurnAttachments } from "@/lib/files/resolve";
import {
  escapeText,
  planItemsForBudget,
  renderPlanItems,
  renderStateItems,
  stateItemsForBudget,
} from "@/lib/state/render";
import type {
  ContextRecord,
  ContextSectionName,
  ContextSectionRecord,
  ExecutionPlan,
  MemoryBlockEntry,
  WorkstreamState,
} from "@/lib/state/schema";
import { textOf } from "@/lib/text/message-text";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import {
  budgetTokens,
  type HistoryMessage,
  type KeptContext,
  messageBudgetTokens,
  reservedOutputOf,
  windowOf,
} from "./window";

/** A memory as the context shows it (lib/memory/retrieve.ts reads them). */
export type ContextMemory = { id: string; text: string; importance: number };

export type ComposedRequest = {
  instructions: string;
  messages: ModelMessage[];
  record: ContextRecord;
};

export type ComposeInput = {
  workstream: WorkstreamRow;
  agent: AgentConfig;
  modelId: string;
  viewer: Pick<Viewer, "userName" | "role" | "organizationName">;
  /** Oldest first, the new message last, with their stored token counts. */
  history: HistoryMessage[];
  /** Older messages since the last compaction that the opening read already left out. */
  historyLeftOut?: number;
  kept: KeptContext;
  /** The tools the model is offered: their definitions are part of the request too. */
  tools?: Record<string, Tool>;
  memories?: { top: ContextMemory[]; retrieved: ContextMemory[] };
  /**
   * The sections the `buildExtraInstructionSections` hooks added, in their order (the host's own
   * first): fitted here within the extra sections' budget.
   */
  extraSections?: string[];
  /** The history's attachments, resolved and signed for this turn (lib/files/resolve.ts). */
  attachments?: TurnAttachments;
  /** How long resolving and signing them took, for the record. */
  attachmentsMs?: number;
};

// A tool's definition does not change while the server runs, so it is counted once.
const toolTokenCache = new Map<string, number>();

async function toolsSection(tools: Record<string, Tool>): Promise<Fitted> {
  let tokens = 0;
  for (const [name, tool] of Object.entries(tools)) {
    let counted = toolTokenCache.get(name);
    if (counted === undefined) {
      const schema = tool.inputSchema ? await asSchema(tool.inputSchema).jsonSchema : {};
      // As a provider receives it: the name, description and parameters as one JSON object.
      counted = budgetTokens(
        JSON.stringify({ name, description: tool.description ?? "", parameters: schema }),
      );
      toolTokenCache.set(name, counted);
    }
    tokens += counted;
  }
  const count = Object.keys(tools).length;
  return { text: "", record: { name: "tools", tokens, budget: tokens, items: count, cut: 0 } };
}

type Fitted = { text: string; record: ContextSectionRecord };

/**
 * Keeps the items that fit `budget`, the highest `keep` first, and renders them in their own
 * order. Items are counted one by one; the rendered section is counted once and, should its
 * framing push it over, the least important item is dropped until it fits.
 */
function fitSection<T>({
  name,
  budget,
  items,
  keep,
  text,
  render,
}: {
  name: ContextSectionName;
  budget: number;
  items: T[];
  keep: (item: T) => number;
  text: (item: T) => string;
  render: (included: T[]) => string;
}): Fitted & { kept: T[] } {
  const ranked = items
    .map((item, index) => ({ item, index, keep: keep(item), tokens: budgetTokens(text(item)) }))
    .sort((a, b) => b.keep - a.keep || b.index - a.index);
  let used = 0;
  let chosen = ranked.filter((entry) => {
    if (used + entry.tokens > budget) return false;
    used += entry.tokens;
    return true;
  });
  const renderChosen = () =>
    render(chosen.toSorted((a, b) => a.index - b.index).map((entry) => entry.item));
  let rendered = chosen.length ? renderChosen() : "";
  let tokens = budgetTokens(rendered);
  while (chosen.length && tokens > budget) {
    chosen = chosen.slice(0, -1);
    rendered = chosen.length ? renderChosen() : "";
    tokens = budgetTokens(rendered);
  }
  return {
    text: rendered,
    record: { name, tokens, budget, items: chosen.length, cut: items.length - chosen.length },
    kept: chosen.map((entry) => entry.item),
  };
}

function memoriesSection(
  name: "topMemories" | "retrievedMemories",
  tag: string,
  memories: ContextMemory[],
): Fitted & { kept: ContextMemory[] } {
  return fitSection({
    name,
    budget: config.context.budgets[name],
    items: memories,
    // Pre-seeded memories leave least important first; retrieved ones come best match first.
    keep: (memory) => (name === "topMemories" ? memory.importance : -memories.indexOf(memory)),
    text: (memory) => memory.text,
    render: (included) =>
      `<${tag}>\n${included.map((memory) => `- ${escapeText(memory.text)}`).join("\n")}\n</${tag}>`,
  });
}

/** The active plan, cut by whole steps: done and skipped steps leave before open ones. */
function planSection(plan: ExecutionPlan | null): Fitted {
  return fitSection({
    name: "executionPlan",
    budget: config.context.budgets.executionPlan,
    items: planItemsForBudget(plan),
    keep: (step) => step.keep,
    text: (step) => step.text,
    render: (steps) => renderPlanItems(plan, steps),
  });
}

/** The state, without its plan text while an execution plan is active (the plan is the truth). */
function stateSection(state: WorkstreamState, planActive: boolean): Fitted {
  return fitSection({
    name: "workstreamState",
    budget: config.context.budgets.workstreamState,
    items: stateItemsForBudget(state, { omitCurrentPlan: planActive }),
    keep: (item) => item.keep,
    text: (item) => item.text,
    render: renderStateItems,
  });
}

type BlockItem = { kind: "summary"; text: string } | { kind: "entry"; entry: MemoryBlockEntry };

/** The memory block: its summary first, then the notes, the newest kept when it is too long. */
function memoryBlockSection(summary: string | null, entries: MemoryBlockEntry[]): Fitted {
  const items: BlockItem[] = [
    ...(summary ? [{ kind: "summary" as const, text: summary }] : []),
    ...entries.map((entry) => ({ kind: "entry" as const, entry })),
  ];
  return fitSection({
    name: "memoryBlock",
    budget: config.context.budgets.memoryBlock,
    items,
    // The summary stands for many notes, so it stays longest; then newer notes before older.
    keep: (item) => (item.kind === "summary" ? 1 : 0),
    text: (item) => (item.kind === "summary" ? item.text : item.entry.text),
    render: (included) => {
      const lines = included.map((item) =>
        item.kind === "summary"
          ? `Summary of earlier notes: ${escapeText(item.text)}`
          : `[${item.entry.createdAt.slice(0, 16).replace("T", " ")}] ${item.entry.role}: ${escapeText(item.entry.text)}`,
      );
      return `<memory-block>\n${lines.join("\n")}\n</memory-block>`;
    },
  });
}

function extraSections(sections: string[]): Fitted {
  return fitSection({
    name: "extraSections",
    budget: config.context.budgets.extraSections,
    items: sections,
    // Hooks registered first (the host's own) are kept before later ones.
    keep: (section) => -sections.indexOf(section),
    text: (section) => section,
    render: (included) => included.join("\n\n"),
  });
}

/** The text of the newest user message of `history`: what the turn's sections are chosen by. */
export function latestUserText(history: readonly HistoryMessage[]): string {
  const latestUser = history.findLast(({ message }) => message.role === "user");
  return latestUser ? textOf(latestUser.message) : "";
}

/**
 * The host's own extra section: which organization the agent works in and for whom, so answers
 * fit the member's role. Registered at start-up (root/wiring.ts).
 */
export function memberSection(member: {
  userName: string;
  role: string;
  organizationName: string;
}): string {
  return [
    "<organization>",
    `Organization: ${escapeText(member.organizationName)}`,
    `You are working with ${escapeText(member.userName)}, whose role there is ${member.role}.`,
    "</organization>",
  ].join("\n");
}

/** The synthetic system message that stands for the compacted history (counted alike by lib/compaction). */
export function compactionSummaryMessage(summary: string): string {
  return `Summary of the earlier conversation:\n${summary}`;
}

/**
 * The upload metadata: every attachment of the history with its name, type, size and id, the
 * newest first when they do not all fit; whether it went with the messages or is left to
 * read_attachment.
 */
function uploadsSection(files: TurnAttachment[], sent: (file: TurnAttachment) => boolean): Fitted {
  return fitSection({
    name: "uploads",
    budget: config.context.budgets.uploads,
    items: files,
    keep: (file) => files.indexOf(file),
    text: (file) => uploadLine(file, sent(file)),
    render: (included) =>
      [
        "<upload-metadata>",
        "Attachments in this conversation (read their text with read_attachment and the id):",
        ...included.map((file) => uploadLine(file, sent(file))),
        "</upload-metadata>",
      ].join("\n"),
  });
}

function uploadLine(file: TurnAttachment, sent: boolean): string {
  const pages = file.pages ? `, ${file.pages} page${file.pages === 1 ? "" : "s"}` : "";
  const note = sent
    ? "attached to the message"
    : "not attached to the message, read it with read_attachment";
  return `- ${escapeText(file.name)} (${typeLabel(file.mediaType)}, ${sizeLabel(file.size)}${pages}) id ${file.id}: ${note}`;
}

/** The attachment a converted file part stands for (its `file:<id>` URL reads file:///<id>). */
function attachmentOf(
  part: { data: unknown },
  attachments: TurnAttachments,
): TurnAttachment | undefined {
  const data = part.data;
  const url =
    data instanceof URL
      ? data
      : typeof data === "object" && data !== null && "url" in data && data.url instanceof URL
        ? data.url
        : null;
  if (url?.protocol !== "file:") return undefined;
  return attachments.byId.get(fileIdOf(`file:${url.pathname.replace(/^\/+/, "")}`) ?? "");
}

/**
 * The kept file parts get their content: bytes from local disk, a presigned URL from S3. A part
 * whose bytes are gone is dropped (a `file:` URL must never reach a provider).
 */
async function withFileContent(messages: ModelMessage[], attachments: TurnAttachments) {
  for (const message of messages) {
    if (message.role !== "user" && message.role !== "assistant") continue;
    if (typeof message.content === "string") continue;
    const kept: unknown[] = [];
    for (const part of message.content) {
      if (part.type !== "file") {
        kept.push(part);
        continue;
      }
      const file = attachmentOf(part, attachments);
      const content = file ? await attachments.content(file) : null;
      if (!content) continue;
      kept.push({
        ...part,
        data:
          content instanceof URL ? { type: "url", url: content } : { type: "data", data: content },
      });
    }
    message.content = kept as never;
  }
}

export async function composeRequest(input: ComposeInput): Promise<ComposedRequest> {
  const startedAt = performance.now();
  const { workstream, agent, kept, history } = input;
  const window = windowOf(input.modelId);
  const reservedOutput = reservedOutputOf(window);
  const planActive = kept.plan?.status === "active";

  const instructionsText = agentInstructions(
    agent,
    input.tools ? Object.keys(input.tools) : agent.tools,
  );
  const persona: Fitted = {
    text: instructionsText,
    record: {
      name: "instructions",
      tokens: budgetTokens(instructionsText),
      budget: budgetTokens(instructionsText),
      items: 1,
      cut: 0,
    },
  };
  const top = memoriesSection("topMemories", "pre-seeded-memories", input.memories?.top ?? []);
  const retrieved = memoriesSection(
    "retrievedMemories",
    "retrieved-knowledge",
    input.memories?.retrieved ?? [],
  );
  const attachments = input.attachments ?? NO_ATTACHMENTS;
  // Listed with the longer of the two notes, so the section's count holds whichever applies.
  const uploadsFitted = uploadsSection([...attachments.byId.values()], () => false);
  const uploads: Fitted = { text: uploadsFitted.text, record: uploadsFitted.record };
  const sections: Fitted[] = [
    persona,
    await toolsSection(input.tools ?? {}),
    top,
    retrieved,
    planSection(kept.plan),
    stateSection(kept.state, planActive),
    memoryBlockSection(kept.memorySummary, kept.memoryEntries),
    extraSections(input.extraSections ?? []),
    uploads,
  ];
  const instructionsParts = sections.map((section) => section.text);

  const summaryText =
    workstream.compactionSummary && workstream.lastCompactedMessageId
      ? compactionSummaryMessage(workstream.compactionSummary)
      : "";
  const summary: Fitted = {
    text: summaryText,
    record: {
      name: "compactionSummary",
      tokens: budgetTokens(summaryText),
      budget: budgetTokens(summaryText),
      items: summaryText ? 1 : 0,
      cut: 0,
    },
  };

  // History gets what the window has left, newest first; the new message always goes.
  const sectionTokens = sections.reduce((sum, section) => sum + section.record.tokens, 0);
  const historyBudget = Math.max(
    0,
    window - reservedOutput - sectionTokens - summary.record.tokens,
  );
  let used = 0;
  let first = history.length;
  while (first > 0) {
    const cost = messageBudgetTokens(history[first - 1]?.tokens ?? 0);
    if (first < history.length && used + cost > historyBudget) break;
    used += cost;
    first -= 1;
  }
  const sent = history.slice(first);
  // Attachments, newest first, while the window has room and the model takes their type.
  const chosen = new Set<string>();
  for (const { message } of sent.toReversed()) {
    for (const part of message.parts) {
      const file =
        part.type === "file" ? attachments.byId.get(fileIdOf(part.url) ?? "") : undefined;
      if (!file?.accepted || chosen.has(file.id)) continue;
      if (used + file.tokens > historyBudget) continue;
      used += file.tokens;
      chosen.add(file.id);
    }
  }
  const messages = await convertToModelMessages(
    sent.map(({ message: { id, role, parts } }) => ({
      id,
      role,
      parts: parts.filter((part) => part.type !== "file" || chosen.has(fileIdOf(part.url) ?? "")),
    })),
    { ignoreIncompleteToolCalls: true },
  );
  await withFileContent(messages, attachments);
  if (summaryText) messages.unshift({ role: "system", content: summaryText });
  if (attachments.byId.size) {
    // The section as it applies: which files went with the messages.
    const final = uploadsSection([...attachments.byId.values()], (file) => chosen.has(file.id));
    const at = sections.indexOf(uploads);
    uploads.text = final.text;
    uploads.record = { ...final.record, budget: uploadsFitted.record.budget };
    instructionsParts[at] = final.text;
  }

  const records: ContextSectionRecord[] = [
    ...sections.map((section) => section.record),
    summary.record,
    {
      name: "history",
      tokens: used,
      budget: historyBudget,
      items: sent.length,
      cut: first + (input.historyLeftOut ?? 0),
    },
  ];
  return {
    instructions: instructionsParts.filter(Boolean).join("\n\n"),
    messages,
    record: {
      model: input.modelId,
      window,
      reservedOutput,
      total: records.reduce((sum, section) => sum + section.tokens, 0),
      sections: records,
      memoryIds: {
        top: top.kept.map((memory) => memory.id),
        retrieved: retrieved.kept.map((memory) => memory.id),
      },
      composeMs: Math.round((performance.now() - startedAt) * 100) / 100,
      ...(attachments.byId.size && input.attachmentsMs !== undefined
        ? { attachmentsMs: Math.round(input.attachmentsMs * 100) / 100 }
        : {}),
    },
  };
}
