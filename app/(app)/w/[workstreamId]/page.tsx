// /w/[workstreamId]: one workstream's chat. The server loads the workstream (the layout has
// already answered 404 for another person's or a missing one), its latest page of history and
// how its last turn ended, and hands that plain data to the chat's client component, which
// resumes a running turn by itself.
import type { Metadata } from "next";
import { ChatView } from "@/components/chat/chat-view";
import { asTurnStatus, type TurnStatusEvent } from "@/lib/chat-client/wire";
import { config } from "@/lib/config";
import { OFFLINE_TRIGGERS } from "@/lib/models/offline/triggers";
import { usingOfflineModel } from "@/lib/models/registry";
import { readEvents } from "@/lib/stream/event-log";
import { describeWorkstream } from "@/lib/turns/describe";
import { listMessageHistoryPage } from "@/lib/turns/messages";
import { loadWorkstream } from "./load";

type Props = { params: Promise<{ workstreamId: string }> };

/** The last turn's final status event (the tail of the event log), when no turn is open. */
async function lastTurnStatus(workstreamId: string, latestOffset: number) {
  if (latestOffset < 1) return null;
  const [event] = await readEvents({ workstreamId, after: latestOffset - 1, limit: 1 });
  return event?.chunk.type === "data-status" ? asTurnStatus(event.chunk.data) : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const workstream = await loadWorkstream((await params).workstreamId);
  return { title: workstream.title };
}

export default async function WorkstreamPage({ params }: Props) {
  const row = await loadWorkstream((await params).workstreamId);
  // The description first: if a turn finishes meanwhile, the history already has its answer,
  // and the resumed replay replaces it by id instead of adding it twice.
  const workstream = await describeWorkstream(row);
  const history = await listMessageHistoryPage({
    workstreamId: row.id,
    take: config.history.defaultTake,
  });
  const lastStatus: TurnStatusEvent | null = workstream.activeTurn
    ? null
    : await lastTurnStatus(row.id, workstream.latestOffset);
  const agentNames = Object.fromEntries(
    Object.values(config.agents).map((agent) => [agent.id, agent.name]),
  );
  return (
    <ChatView
      key={row.id}
      workstream={workstream}
      history={history}
      lastStatus={lastStatus}
      agentNames={agentNames}
      offlineTriggers={usingOfflineModel() ? OFFLINE_TRIGGERS.map((t) => ({ ...t })) : null}
    />
  );
}
