// The client's view of a workstream's busy state: enough to resume a running turn after a
// reload (its id, state and first offset) without exposing internal run ids.
import "server-only";
import { latestOffset } from "@/lib/stream/event-log";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { isRunning } from "./turn-state";
import { getOpenTurn } from "./turn-store";

export async function describeWorkstream(workstream: WorkstreamRow) {
  const open = await getOpenTurn({ workstreamId: workstream.id });
  return {
    id: workstream.id,
    title: workstream.title,
    mode: workstream.mode,
    agentId: workstream.agentId,
    status: workstream.status,
    isRunning: open !== null && isRunning(open.state),
    isCompacting: workstream.isCompacting,
    activeTurn: open
      ? {
          id: open.id,
          state: open.state,
          firstOffset: open.firstOffset ?? 0,
          userMessageId: open.userMessageId,
        }
      : null,
    latestOffset: await latestOffset({ workstreamId: workstream.id }),
    updatedAt: workstream.updatedAt.toISOString(),
  };
}
