// /w/[workstreamId]: one workstream's chat. The server loads the workstream (the layout has
// already answered 404 for another person's or a missing one), its latest page of history, its
// compacted ranges and how its last turn ended, and hands that plain data to the chat's client component, which
// resumes a running turn by itself.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { ChatView } from "@/components/chat/chat-view";
import { CONTEXT_PANEL_COOKIE, panelOpenFromCookie } from "@/components/state/panel-preference";
import { declaredApprovals } from "@/lib/agents/approval-policy";
import { compactionViewsOf } from "@/lib/compaction/view";
import { config, getAgent } from "@/lib/config";
import { offlineModelTriggers } from "@/lib/models/registry";
import { CONTEXT_SECTIONS, STATE_ITEM_MAX, STATE_LIMITS } from "@/lib/state/schema";
import { describeWorkstream } from "@/lib/turns/describe";
import { listMessageHistoryPage } from "@/lib/turns/messages";
import { markWorkstreamRead } from "@/lib/workstreams/unread";
import { loadWorkstream } from "./load";

type Props = { params: Promise<{ workstreamId: string }> };

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
  const panelCookie = (await cookies()).get(CONTEXT_PANEL_COOKIE)?.value;
  // Opening the workstream reads what another workstream sent it.
  await markWorkstreamRead({ workstreamId: row.id, unreadSince: row.unreadSince });
  const compactions = await compactionViewsOf({ workstreamId: row.id });
  const agentNames = Object.fromEntries(
    Object.values(config.agents).map((agent) => [agent.id, agent.name]),
  );
  return (
    <ChatView
      key={row.id}
      workstream={workstream}
      history={history}
      compactions={compactions}
      lastStatus={workstream.lastTurn}
      agentNames={agentNames}
      greeting={getAgent(row.agentId)?.voice.greeting ?? null}
      offlineTriggers={offlineModelTriggers()}
      limits={{
        maxMessageChars: config.turns.maxMessageChars,
        pageSize: config.history.defaultTake,
        compactionWaitSeconds: Math.ceil(config.compaction.waitMs / 1000),
      }}
      contextPanel={{
        initiallyOpen: panelOpenFromCookie(panelCookie),
        limits: { lists: { ...STATE_LIMITS }, itemMaxChars: STATE_ITEM_MAX },
        sectionOrder: CONTEXT_SECTIONS,
      }}
      toolSettings={toolSettings(row)}
    />
  );
}

/** The workstream's tool permissions and what each of its agent's tools does by default. */
function toolSettings(row: Awaited<ReturnType<typeof loadWorkstream>>) {
  const asks = new Map(declaredApprovals().map((entry) => [entry.toolName, entry.rule]));
  return {
    mode: row.securityMode,
    allowlist: row.toolAllowlist,
    tools: (getAgent(row.agentId)?.tools ?? []).map((name) => ({
      name,
      asks: asks.get(name) ?? ("never" as const),
    })),
  };
}
