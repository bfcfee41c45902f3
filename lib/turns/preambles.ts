// What an agent says while it works, before its answer: a short preamble while the turn prepares
// (context, retrieval), its greeting instead on a workstream's first turn, and an announcement
// after each batch of tool calls. All are `preamble` status events in the turn's log, numbered
// like every other event, and all come from the agent's configured voice: the turn's path gets no
// extra model call and no statement (they ride in the log's batched inserts).
import type { UIMessageChunk } from "ai";
import type { AgentConfig } from "@/lib/config";
import type { HistoryMessage } from "@/lib/context/window";
import { type StatusChunk, statusChunk } from "@/lib/stream/types";

/**
 * Whether this is the workstream's first turn: nothing was said before the new message and no
 * earlier conversation was compacted away.
 */
export function isFirstTurn(history: readonly HistoryMessage[], compacted: boolean): boolean {
  return (
    !compacted && history.every(({ message }) => message.role === "user") && history.length <= 1
  );
}

/** The preamble while the turn prepares: the greeting on the first turn, else the preamble. */
export function preparingPreamble(
  turnId: string,
  agent: Pick<AgentConfig, "voice">,
  firstTurn: boolean,
): StatusChunk {
  const text = firstTurn ? agent.voice.greeting : agent.voice.preamble;
  return statusChunk(turnId, { state: "preamble", text });
}

/**
 * Watches the turn's chunks for finished tool batches: when a model call starts after tool
 * results came in, it says the agent's announcement first. The announcement is fixed text, so it
 * can never name the tool or repeat its result.
 */
export class ToolBatchAnnouncer {
  private resultsSinceAnnounced = false;
  constructor(
    private readonly turnId: string,
    private readonly agent: Pick<AgentConfig, "voice">,
  ) {}

  /** The announcement to log before `chunk`, if it is due now. */
  before(chunk: UIMessageChunk): StatusChunk | null {
    if (
      chunk.type === "tool-output-available" ||
      chunk.type === "tool-output-error" ||
      chunk.type === "tool-output-denied"
    ) {
      this.resultsSinceAnnounced = true;
      return null;
    }
    if (chunk.type !== "start-step" || !this.resultsSinceAnnounced) return null;
    this.resultsSinceAnnounced = false;
    return statusChunk(this.turnId, { state: "preamble", text: this.agent.voice.afterTools });
  }
}
