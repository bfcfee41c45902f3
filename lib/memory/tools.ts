// The memory tools: `add_memory_note` (a note in the workstream's memory block, labelled with the
// turn's agent), `search_history` (this workstream's earlier messages by full text), `remember`
// (a memory of the member's, kept across workstreams; sharing one with the organization is an
// approval the member answers first) and `recall` (the member's and the organization's memories).
// Scoped tools: they act for the workstream's owner, so they are registered once here and bound
// per turn by the agent's tool list (lib/agents/tools.ts).
import "server-only";
import { tool } from "ai";
import { z } from "zod";
import { declareApproval } from "@/lib/agents/approval-policy";
import { registerScopedTool, type ToolScope } from "@/lib/agents/tools";
import { config } from "@/lib/config";
import { wakeJobsSoon } from "@/lib/jobs/port";
import { isAppError } from "@/lib/kernel/errors";
import { strictSchema } from "@/lib/models/strict-schema";
import { STATE_ITEM_MAX } from "@/lib/state/schema";
import { addMemoryNote } from "./block";
import { retrieveMemories } from "./retrieve";
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, searchHistory } from "./search";
import { createMemory } from "./store";

const RECALL_LIMIT_MAX = 10;
const RECALL_LIMIT_DEFAULT = 5;

// Built once: the tools are bound per turn, their schemas are not (see lib/agents/tools.ts).
const rememberInput = strictSchema(
  z.object({
    text: z
      .string()
      .trim()
      .min(1)
      .max(config.memory.textMaxChars)
      .describe('One self-contained fact, e.g. "Leads the data platform team at Acme".'),
    scope: z
      .enum(["member", "agent", "organization"])
      .optional()
      .describe('Who it is kept for, e.g. "member" (null means member).'),
    importance: z
      .number()
      .int()
      .min(1)
      .max(10)
      .optional()
      .describe(`1 to 10, e.g. 8; null for ${config.memory.rememberedImportance}.`),
  }),
);
const recallInput = strictSchema(
  z.object({
    query: z.string().trim().min(1).max(200).describe('What to look for, e.g. "report format".'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(RECALL_LIMIT_MAX)
      .optional()
      .describe(`How many, e.g. 3; null for ${RECALL_LIMIT_DEFAULT}.`),
  }),
);
const noteInput = strictSchema(
  z.object({
    text: z
      .string()
      .trim()
      .min(1)
      .max(STATE_ITEM_MAX)
      .describe('One point, e.g. "Wants the summary before the details".'),
  }),
);
const searchHistoryInput = strictSchema(
  z.object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('Words as in a search box, e.g. "venue deposit" -refund.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(SEARCH_LIMIT_MAX)
      .optional()
      .describe(`How many matches, e.g. 3; null for ${SEARCH_LIMIT_DEFAULT}.`),
  }),
);

/** An error the model can act on: the sentence of the code and the limit it broke. */
function toolError(error: unknown): Error {
  if (!isAppError(error)) return error instanceof Error ? error : new Error(String(error));
  const max = typeof error.details?.max === "number" ? ` (at most ${error.details.max})` : "";
  return new Error(`${error.message}${max}`);
}

export function rememberTool({ userId, organizationId, agentId, turnId, messageId }: ToolScope) {
  return tool({
    description:
      "Keeps one lasting fact about the member for later workstreams: their role, work or " +
      "preferences. Use it when they tell you one, above all while onboarding; not for this " +
      "workstream's progress, never for another member. scope: member (default), agent (you " +
      "alone) or organization (everyone; the member approves it first).",
    strict: true,
    inputSchema: rememberInput,
    execute: async ({ text, scope = "member", importance }) => {
      try {
        const { memory, merged } = await createMemory({
          organizationId,
          // Shared with the organization: it has no owner. The call ran only once the member
          // approved it (the tool's approval rule below).
          ownerId: scope === "organization" ? null : userId,
          agentId: scope === "agent" ? agentId : null,
          text,
          importance: importance ?? config.memory.rememberedImportance,
          source: turnId && messageId ? { turnId, messageId } : null,
        });
        return {
          remembered: true,
          id: memory.id,
          scope: memory.scope,
          text: memory.text,
          importance: memory.importance,
          // The same fact was known already: it was reinforced rather than stored twice.
          merged,
        };
      } catch (error) {
        throw toolError(error);
      }
    },
  });
}

export function recallTool({ userId, organizationId, agentId }: ToolScope) {
  return tool({
    description:
      "Searches the memories kept for this member and their organization. Use it when an " +
      "earlier workstream may hold the answer (a preference, a past decision, a contact); not " +
      "for this workstream's messages (search_history). Returns the best matches first.",
    strict: true,
    inputSchema: recallInput,
    execute: async ({ query, limit }, { abortSignal }) => {
      const { memories, failure } = await retrieveMemories({
        reader: { organizationId, userId, agentId },
        text: query,
        limit: limit ?? RECALL_LIMIT_DEFAULT,
        abortSignal,
      });
      return {
        query,
        memories: memories.map(({ id, text }) => ({ id, text })),
        // The vector side failed: these are the full-text matches alone.
        ...(failure ? { note: "Search by meaning is unavailable; these matched by words." } : {}),
      };
    },
  });
}

/** add_memory_note, bound to the owner and the turn it acts for. */
export function addMemoryNoteTool({ userId, organizationId, workstreamId, agentId }: ToolScope) {
  return tool({
    description:
      "Adds a short note to this workstream's memory block, shown to you as <memory-block> " +
      "in every later turn here. Use it for a result or preference you will need again in " +
      "this workstream; not for decisions, constraints or tasks (update_workstream_state) " +
      "nor for lasting facts about the member (remember). One point per note, at most " +
      `${STATE_ITEM_MAX} characters; do not repeat a note already there.`,
    strict: true,
    inputSchema: noteInput,
    execute: async ({ text }) => {
      const { entry, queued } = await addMemoryNote({
        workstreamId,
        organizationId,
        ownerId: userId,
        role: agentId,
        text,
      });
      // The note filled the block: the summary job was queued by the same statement.
      if (queued) wakeJobsSoon();
      return { noted: true, id: entry.id, role: entry.role, text: entry.text };
    },
  });
}

/** search_history, bound to the owner and the turn it acts for. */
export function searchHistoryTool({ userId, organizationId, workstreamId }: ToolScope) {
  return tool({
    description:
      "Searches this workstream's earlier messages, the member's and the agents', by words. " +
      "Use it when the member refers to something said before that is no longer in view; " +
      "not for other workstreams (recall) or for what <workstream-state> shows. Returns the " +
      "best matches first, each with the message id, who wrote it, a snippet and when.",
    strict: true,
    inputSchema: searchHistoryInput,
    execute: async ({ query, limit }) => {
      const results = await searchHistory({
        owner: { userId, organizationId },
        workstreamId,
        query,
        limit,
      });
      return { query, results };
    },
  });
}

export function registerMemoryTools(): void {
  // This workstream's own notes and history: nothing leaves the workstream.
  declareApproval("add_memory_note", false);
  declareApproval("search_history", false);
  registerScopedTool("add_memory_note", addMemoryNoteTool);

  // A memory of the member's own needs no approval; sharing one with the organization does.
  declareApproval(
    "remember",
    (input) => (input as { scope?: unknown } | null)?.scope === "organization",
  );
  registerScopedTool("remember", rememberTool);
  registerScopedTool("recall", recallTool);

  registerScopedTool("search_history", searchHistoryTool);
}
