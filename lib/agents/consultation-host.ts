// What a consultation (./specialists.ts) needs from beyond lib/agents: the turn engine's TOOL_CALL
// stage for the specialist's calls, and the workstream state's rendering and agent contributions.
// The engine and the state build on lib/agents, so they are handed in here by the composition
// root (root/wiring.ts) rather than imported.
import type { Tool, ToolApprovalStatus } from "ai";
import type { KeptContext } from "@/lib/context/window";
import { processSingleton } from "@/lib/kernel/singleton";
import type { renderWorkstreamState } from "@/lib/state/render";
import type { applyStateDelta } from "@/lib/state/store";
import type { StageScope } from "@/lib/turns/bus";
import type { HookContext } from "@/lib/turns/hooks";
import type { WorkstreamRow } from "@/lib/workstreams/queries";

type ToolCallApproval = (options: {
  toolCall: { toolCallId: string; toolName: string; input: unknown };
}) => Promise<ToolApprovalStatus>;

/** What a consultation is given by the composition root. */
export type ConsultationHost = {
  /**
   * The turn's TOOL_CALL stage for the specialist's own calls: the same gate (hooks, trace), the
   * organization's tool policy, and the authority stack's decision of each call.
   */
  nestedToolCalls(input: {
    tools: Record<string, Tool>;
    workstream: Pick<WorkstreamRow, "id" | "securityMode" | "toolAllowlist">;
    kept: KeptContext;
    ctx: HookContext;
    scope: StageScope;
  }): { tools: Record<string, Tool>; toolApproval: ToolCallApproval };
  /** The `<workstream-state>` section, rendered as the lead's turn renders it. */
  renderWorkstreamState: typeof renderWorkstreamState;
  /** Where the consultation is recorded: the state's agent contributions. */
  applyStateDelta: typeof applyStateDelta;
};

// On globalThis: Next loads the routes apart from the instrumentation that wires the process, and
// a module-level variable would be set only in the wiring's copy of this module.
const wired = processSingleton("consultation-host", () => ({}) as { host?: ConsultationHost });

/** Set once per process by the composition root. */
export function setConsultationHost(consultationHost: ConsultationHost): void {
  wired.host = consultationHost;
}

export function consultationHost(): ConsultationHost {
  if (!wired.host) {
    throw new Error("Consultations need the turn engine: it is not wired (wireDomains).");
  }
  return wired.host;
}
