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

// Built once: the tools are bound per turn, their schemas are not (see lib/agents/tools.ts).
const rememberInput = strictSchema(
  z.object({
    text: z.string().trim().min(1).max(config.memory.textMaxChars),
    scope: z.enum(["member", "agent", "organization"]).optional(),
    importance: z.number().int().min(1).max(10).optional(),
  }),
);
const recallInput = strictSchema(
  z.object({
    query: z.string().trim().min(1).max(200),
    limit: z.number().int().min(1).max(RECALL_LIMIT_MAX).optional(),
  }),
);
const noteInput = strictSchema(
  z.object({
    text: z.string().trim().min(1).max(STATE_ITEM_MAX).describe("The note, one point."),
  }),
);
const searchHistoryInput = strictSchema(
  z.object({
    query: z.string().trim().min(1).max(200).describe("Words to look for."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(SEARCH_LIMIT_MAX)
      .optional()
      .describe(`How many matches to return (default ${SEARCH_LIMIT_DEFAULT}).`),
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
      "Remembers one fact about the member for later workstreams. scope: member (default), " +
      "agent (only you), organization (shared with everyone; the member approves it first).",
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
    description: "Searches the member's and the organization's memories.",
    strict: true,
    inputSchema: recallInput,
    execute: async ({ query, limit }, { abortSignal }) => {
      const { memories, failure } = await retrieveMemories({
        reader: { organizationId, userId, agentId },
        text: query,
        limit: limit ?? 5,
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
      "Adds a short note to this workstream's memory block, which you see at the start of " +
      "every later turn. Use it for a fact, preference, decision or result worth keeping " +
      `(at most ${STATE_ITEM_MAX} characters, one point per note). Older notes are ` +
      "summarized automatically; do not repeat a note that is already there.",
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
      "Searches this workstream's earlier messages (the member's and the agents') by words, " +
      "for something said before that is no longer in view. Write the query as you would " +
      'in a search box: words, "exact phrases", -excluded. Returns the best matches first, ' +
      "each with the message id, who wrote it, a snippet and when.",
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
