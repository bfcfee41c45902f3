// COMPOSE_REQUEST: the model's view of the workstream. History since the last compaction (read
// by the turn's opening transaction), the compaction summary as a synthetic system message, and
// instruction sections from the builders `buildExtraInstructionSections` hooks add (memory,
// workstream state, execution plan, policies).
import { convertToModelMessages, type ModelMessage } from "ai";
import type { AgentConfig } from "@/lib/config";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { hooksOf } from "./hooks";
import type { WorkstreamMessage } from "./messages";

export type ComposedRequest = {
  instructions: string;
  messages: ModelMessage[];
  history: WorkstreamMessage[];
};

export async function composeRequest({
  workstream,
  agent,
  history,
}: {
  workstream: WorkstreamRow;
  agent: AgentConfig;
  history: WorkstreamMessage[];
}): Promise<ComposedRequest> {
  const latestUser = history.findLast((message) => message.role === "user");
  const latestUserText =
    latestUser?.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n") ?? "";
  const sections: string[] = [];
  for (const hook of hooksOf("buildExtraInstructionSections")) {
    const section = await hook.run({ workstream, latestUserText });
    if (section) sections.push(section);
  }
  const instructions = [agent.persona, ...sections].join("\n\n");
  const modelMessages = await convertToModelMessages(
    history.map(({ id, role, parts }) => ({ id, role, parts })),
    { ignoreIncompleteToolCalls: true },
  );
  if (workstream.compactionSummary && workstream.lastCompactedMessageId) {
    modelMessages.unshift({
      role: "system",
      content: `Summary of the earlier conversation:\n${workstream.compactionSummary}`,
    });
  }
  return { instructions, messages: modelMessages, history };
}
