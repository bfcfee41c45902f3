// The one place the domains are connected, once per server process at start-up. The turn engine
// (lib/turns) reads workstream rows; lib/workstreams knows nothing of turns. What a turn means to
// a workstream is said here: the turn's start and end change the summary's running flag (a live
// update), a post-turn event (queued by the turn's closing statement) is handed to the job engine
// a moment later, and each turn's agent gets the scoped tools that act for the owner. The
// features that sit below the engine (consultations in lib/agents, answering approvals in
// lib/approvals) are handed the engine's parts they need here. Tests call wireDomains() directly.
import "server-only";
import { inngestFunctions, startJobs } from "@/inngest/engine";
import { setConsultationHost } from "@/lib/agents/consultation-host";
import { declareSpecialistTool } from "@/lib/agents/specialists";
import { scopedToolsFor } from "@/lib/agents/tools";
import { setTurnContinuation } from "@/lib/approvals/continuation";
import { memberSection } from "@/lib/context/build";
import { startFileLifecycle } from "@/lib/files/lifecycle";
import { registerFileTools } from "@/lib/files/read-tool";
import { wakeJobsSoon } from "@/lib/jobs/port";
import { processSingleton } from "@/lib/kernel/singleton";
import { registerMemoryTools } from "@/lib/memory/tools";
import { registerSkillTool, skillsSection, toolsForOfferedSkills } from "@/lib/skills/tools";
import { renderWorkstreamState } from "@/lib/state/render";
import { applyStateDelta } from "@/lib/state/store";
import { registerStateTools } from "@/lib/state/tools";
import { getFanout } from "@/lib/stream/fanout-instance";
import { type BusEvent, bus } from "@/lib/turns/bus";
import { registerHook } from "@/lib/turns/hooks";
import { runRegistry } from "@/lib/turns/run-registry";
import { approvalContinuation } from "@/lib/turns/take-back";
import { nestedToolCalls } from "@/lib/turns/tool-authority";
import { notifyWorkstreamChanged, publishWorkstreamChange } from "@/lib/workstreams/live";
import { registerOnboardingTool } from "@/lib/workstreams/onboarding-tool";
import { registerSendMessageTool } from "@/lib/workstreams/send-message";
import { registerDomainOfflineAnswers } from "./offline-answers";

const state = processSingleton<{
  wired?: Promise<void>;
  tools?: boolean;
  queues: Map<string, Promise<void>>;
}>("domain-wiring", () => ({ queues: new Map() }));

/**
 * Runs `work` after the previous work for the same workstream, so a turn's "running" and
 * "finished" reach clients in the order they happened even when the reads race.
 */
function inOrder(workstreamId: string, label: string, work: () => Promise<void>): void {
  const previous = state.queues.get(workstreamId) ?? Promise.resolve();
  const next = previous
    .then(work)
    .catch((error: unknown) => console.error(`[wiring] ${label} failed:`, error));
  state.queues.set(workstreamId, next);
  void next.finally(() => {
    if (state.queues.get(workstreamId) === next) state.queues.delete(workstreamId);
  });
}

function onBusEvent(event: BusEvent): void {
  if (event.type === "SessionTurnStart" || event.type === "SessionTurnEnd") {
    const { workstream } = event;
    // The turn hands over the workstream as it read or left it; only without it is it re-read.
    inOrder(event.workstreamId, "running update", () =>
      workstream
        ? publishWorkstreamChange(workstream, "running")
        : notifyWorkstreamChanged({ workstreamId: event.workstreamId, reason: "running" }),
    );
    // The turn's closing statement queued its post-turn event; hand it over shortly.
    if (event.type === "SessionTurnEnd" && event.queuedEvent) wakeJobsSoon();
  }
}

function registerMemberSection(): void {
  registerHook({
    kind: "buildExtraInstructionSections",
    name: "workstreams:member",
    run: ({ member }) => memberSection(member),
  });
}

function registerScopedToolsHook(): void {
  // Scoped tools act for the workstream's owner, so they are bound when the turn resolves its
  // agent; only tools listed in the agent's config are added.
  registerHook({
    kind: "resolveAgent",
    name: "workstreams:scoped-tools",
    run: ({ workstream, turn, resolved }) => {
      if (!workstream.ownerId) return resolved;
      const scoped = scopedToolsFor(resolved.agent.tools, {
        userId: workstream.ownerId,
        organizationId: workstream.organizationId,
        workstreamId: workstream.id,
        agentId: resolved.agent.id,
        turnId: turn.id,
        messageId: turn.userMessageId,
      });
      return { ...resolved, tools: { ...resolved.tools, ...scoped } };
    },
  });
}

/**
 * What a turn's agent is given: the domains' scoped tools (bound per turn by the agent's tool
 * list), the member section of its context and the domains' offline answers; what a consultation
 * needs of the engine and the state, and the engine that continues a turn once its approvals are
 * answered (lib/agents and lib/approvals sit below lib/turns, so they are handed these here). Once
 * per process; part of wireDomains, and on its own for tests that run turns without the
 * background machinery.
 */
export function wireTurnTools(): void {
  if (state.tools) return;
  state.tools = true;
  setTurnContinuation(approvalContinuation);
  setConsultationHost({ nestedToolCalls, renderWorkstreamState, applyStateDelta });
  // What the domains answer when the offline model stands in (a no-op for a real model).
  registerDomainOfflineAnswers();
  registerOnboardingTool();
  registerMemoryTools();
  registerFileTools();
  registerStateTools();
  registerSendMessageTool();
  declareSpecialistTool();
  registerScopedToolsHook();
  registerMemberSection();
  registerSkills();
}

function registerSkills(): void {
  registerSkillTool();
  // Registered after the scoped tools, which add use_skill.
  registerHook({
    kind: "resolveAgent",
    name: "workstreams:skills-tool",
    run: ({ turn, resolved }) => toolsForOfferedSkills(resolved, turn.offeredSkills),
  });
  // After the member section: the extra sections' budget keeps the earlier ones first.
  registerHook({
    kind: "buildExtraInstructionSections",
    name: "workstreams:skills",
    run: ({ skills }) => skillsSection(skills),
  });
}

/** Connects the domains (once per process; later calls wait for the first). */
export function wireDomains(): Promise<void> {
  state.wired ??= (async () => {
    bus.on(onBusEvent);
    wireTurnTools();
    // Open the live channel now, so LISTEN is up before the first change on Postgres.
    await getFanout();
    // Post-turn work: the outbox sender, and the embedded runner unless Inngest runs the jobs;
    // the runner lets this process's live turns go first.
    startJobs({ busy: () => runRegistry.size() > 0 });
    // Tomorrow's sweep of unattached uploads, and storage objects no file owns.
    startFileLifecycle();
  })();
  return state.wired;
}

/**
 * The job functions as Inngest serves them at /api/inngest. A step Inngest calls may continue a
 * turn (an expired approval), so the agents' tools are wired in this process first.
 */
export function servedJobFunctions(): ReturnType<typeof inngestFunctions> {
  wireTurnTools();
  return inngestFunctions();
}
