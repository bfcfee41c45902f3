// The turn's side of the authority stack: the AI SDK's `toolApproval` for one turn, from the
// workstream's security mode and allowlist and the organization's tool policy (read with the
// turn's opening, no statement of their own). Grants are read once, and only when a call would
// otherwise ask; a decision made without asking (policy, grant, mode) is audited. A call that
// needs no approval and that nothing stands in the way of costs nothing here. A tool the policy
// forbids is refused by the tool itself, without asking anyone: the AI SDK's automatic denial
// would still stream an approval request, so the call is answered with a denial instead.
import type { Tool, ToolApprovalStatus } from "ai";
import {
  approvalStatus,
  authorize,
  type Grant,
  POLICY_FORBIDS,
  type ToolPolicy,
} from "@/lib/agents/authority";
import { activeGrants, recordDecision } from "@/lib/approvals/store";
import type { KeptContext } from "@/lib/context/window";
import type { ForbiddenOutput } from "@/lib/stream/ui-parts";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import type { StageScope } from "./bus";
import type { HookContext } from "./hooks";
import type { WorkstreamMessage } from "./messages";
import { gateTools } from "./stages/tool-call";

/** The calls of a kept answer the owner already answered: on the way on, they are not re-asked. */
function answeredCalls(message: WorkstreamMessage | undefined): Set<string> {
  const answered = new Set<string>();
  for (const part of message?.parts ?? []) {
    const tool = part as { toolCallId?: string; approval?: { approved?: boolean } };
    if (tool.toolCallId && tool.approval?.approved !== undefined) answered.add(tool.toolCallId);
  }
  return answered;
}

export function toolApprovalFor({
  workstream,
  kept,
  ctx,
  resumed,
}: {
  workstream: Pick<WorkstreamRow, "id" | "securityMode" | "toolAllowlist">;
  kept: Pick<KeptContext, "toolPolicy">;
  ctx: HookContext;
  /** The kept answer a turn goes on from, after its approvals. */
  resumed?: WorkstreamMessage;
}): (options: {
  toolCall: { toolCallId: string; toolName: string; input: unknown };
}) => Promise<ToolApprovalStatus> {
  let grants: Promise<Grant[]> | undefined;
  const readGrants = () => {
    grants ??= activeGrants(workstream.id);
    return grants;
  };
  const answered = answeredCalls(resumed);
  const authority = {
    policy: kept.toolPolicy ?? {},
    mode: workstream.securityMode,
    allowlist: workstream.toolAllowlist,
  };
  return async ({ toolCall }) => {
    const verdict = await authorize(toolCall, authority, readGrants);
    // A forbidden call is not for approval: `refuseForbidden` answers it (and audits it).
    if (verdict.kind === "decided" && verdict.source === "policy") return undefined;
    // Going on after the owner's answer, the SDK checks the approved calls again: only the
    // organization's policy, changed meanwhile, may still stop them.
    if (answered.has(toolCall.toolCallId)) return undefined;
    if (verdict.kind === "decided") {
      await recordDecision({
        organizationId: ctx.organizationId,
        workstreamId: ctx.workstreamId,
        turnId: ctx.turnId,
        toolName: toolCall.toolName,
        toolCallId: toolCall.toolCallId,
        input: toolCall.input,
        decision: verdict.approved ? "approved" : "denied",
        source: verdict.source,
        reason: verdict.grantId ?? verdict.reason,
        decidedBy: null,
      });
    }
    return approvalStatus(verdict);
  };
}

/**
 * The tools with each one the organization's policy forbids replaced by a refusal: the call
 * does not run, the decision is audited (source policy), and the model reads one denial it can
 * act on. Applied outside the TOOL_CALL gate, so guards never see a call the policy refused.
 */
export function refuseForbidden(
  tools: Record<string, Tool>,
  policy: ToolPolicy | undefined,
  ctx: HookContext,
): Record<string, Tool> {
  const forbidden = Object.keys(tools).filter((name) => policy?.[name] === "forbidden");
  if (forbidden.length === 0) return tools;
  const refused = { ...tools };
  for (const toolName of forbidden) {
    const original = tools[toolName];
    if (!original) continue;
    refused[toolName] = {
      description: original.description,
      inputSchema: original.inputSchema,
      execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
        await recordDecision({
          organizationId: ctx.organizationId,
          workstreamId: ctx.workstreamId,
          turnId: ctx.turnId,
          toolName,
          toolCallId,
          input,
          decision: "denied",
          source: "policy",
          reason: POLICY_FORBIDS,
          decidedBy: null,
        });
        const output: ForbiddenOutput = { denied: true, reason: POLICY_FORBIDS };
        return output;
      },
      toModelOutput: () => ({ type: "execution-denied", reason: POLICY_FORBIDS }),
    } as Tool;
  }
  return refused;
}

/**
 * The TOOL_CALL stage for a model call nested in the turn (a consultation): its tools gated and
 * refused by policy like the turn's own, and the authority stack's decision for each call.
 */
export function nestedToolCalls({
  tools,
  workstream,
  kept,
  ctx,
  scope,
}: {
  tools: Record<string, Tool>;
  workstream: Pick<WorkstreamRow, "id" | "securityMode" | "toolAllowlist">;
  kept: Pick<KeptContext, "toolPolicy">;
  ctx: HookContext;
  scope: StageScope;
}): { tools: Record<string, Tool>; toolApproval: ReturnType<typeof toolApprovalFor> } {
  return {
    tools: refuseForbidden(gateTools(tools, ctx, scope), kept.toolPolicy, ctx),
    toolApproval: toolApprovalFor({ workstream, kept, ctx }),
  };
}
