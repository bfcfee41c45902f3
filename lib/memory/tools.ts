// The memory tools: `add_memory_note` (a note in the workstream's memory block, labelled with the
// turn's agent) and `search_history` (this workstream's earlier messages by full text). Scoped
// tools: they act for the workstream's owner, so they are registered once here and bound per
// turn by the agent's tool list (lib/agents/tools.ts).
import "server-only";
import { tool } from "ai";
import { z } from "zod";
import { wakeJobsSoon } from "@/inngest/engine";
import { declareApproval } from "@/lib/agents/approval-policy";
import { registerScopedTool } from "@/lib/agents/tools";
import { STATE_ITEM_MAX } from "@/lib/state/schema";
import { addMemoryNote } from "./block";
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, searchHistory } from "./search";

export function registerMemoryTools(): void {
  // This workstream's own notes and history: nothing leaves the workstream.
  declareApproval("add_memory_note", false);
  declareApproval("search_history", false);
  registerScopedTool("add_memory_note", ({ userId, organizationId, workstreamId, agentId }) =>
    tool({
      description:
        "Adds a short note to this workstream's memory block, which you see at the start of " +
        "every later turn. Use it for a fact, preference, decision or result worth keeping " +
        `(at most ${STATE_ITEM_MAX} characters, one point per note). Older notes are ` +
        "summarized automatically; do not repeat a note that is already there.",
      inputSchema: z.object({
        text: z.string().trim().min(1).max(STATE_ITEM_MAX).describe("The note, one point."),
      }),
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
    }),
  );

  registerScopedTool("search_history", ({ userId, organizationId, workstreamId }) =>
    tool({
      description:
        "Searches this workstream's earlier messages (the member's and the agents') by words, " +
        "for something said before that is no longer in view. Write the query as you would " +
        'in a search box: words, "exact phrases", -excluded. Returns the best matches first, ' +
        "each with the message id, who wrote it, a snippet and when.",
      inputSchema: z.object({
        query: z.string().trim().min(1).max(200).describe("Words to look for."),
        limit: z
          .number()
          .int()
          .min(1)
          .max(SEARCH_LIMIT_MAX)
          .optional()
          .describe(`How many matches to return (default ${SEARCH_LIMIT_DEFAULT}).`),
      }),
      execute: async ({ query, limit }) => {
        const results = await searchHistory({
          owner: { userId, organizationId },
          workstreamId,
          query,
          limit,
        });
        return { query, results };
      },
    }),
  );
}
