// The authority stack over one tool call, in order: (1) the organization's tool policy (a
// forbidden tool is denied without asking; one that requires approval is always asked);
// (2) a remembered grant, then the workstream's security mode (`auto` runs everything,
// `allowlist` runs the listed tools and asks for the rest, `ask` asks for the tools that need
// approval); (3) ask the owner. Guard hooks (4) run later, at the call's TOOL_CALL stage, on
// every call that gets that far; then it executes (5). Pure: what it needs is handed in.
import type { ToolApprovalStatus } from "ai";
import { ANY_CALL, approvalKey, needsApproval, statedReason } from "./approval-policy";

export type SecurityMode = "ask" | "allowlist" | "auto";
export type PolicyRule = "allowed" | "requires_approval" | "forbidden";
export type ToolPolicy = Readonly<Record<string, PolicyRule>>;
export type DecisionSource = "policy" | "grant" | "mode";

export type Grant = { id: string; toolName: string; approvalKey: string; expiresAt: Date };

export type AuthorityInput = {
  policy: ToolPolicy;
  mode: SecurityMode;
  allowlist: readonly string[];
};

export type Verdict =
  /** Runs without any approval record: nothing stood in its way. */
  | { kind: "run" }
  /** Decided without asking, with who decided (audited). */
  | { kind: "decided"; approved: boolean; source: DecisionSource; reason: string; grantId?: string }
  /** The owner is asked. */
  | { kind: "ask"; reason?: string };

export const POLICY_FORBIDS =
  "Forbidden by policy: the organization's tool policy forbids this tool.";
export const GRANT_ALLOWS = "A remembered approval allows it.";
export const MODE_ALLOWS = "The workstream's security mode allows it.";

function policyOf(policy: ToolPolicy, toolName: string): PolicyRule {
  return Object.hasOwn(policy, toolName) ? (policy[toolName] ?? "allowed") : "allowed";
}

/**
 * The verdict on a call. `grants` is asked for only when a call would otherwise ask the owner,
 * so a turn whose calls need no approval never reads them.
 */
export async function authorize(
  call: { toolName: string; input: unknown },
  authority: AuthorityInput,
  grants: () => Promise<readonly Grant[]>,
  now: Date = new Date(),
): Promise<Verdict> {
  const { toolName, input } = call;
  const rule = policyOf(authority.policy, toolName);
  if (rule === "forbidden") {
    return { kind: "decided", approved: false, source: "policy", reason: POLICY_FORBIDS };
  }
  const reason = statedReason(input);
  const asked = reason ? { kind: "ask" as const, reason } : { kind: "ask" as const };
  if (rule === "requires_approval") return asked;
  const wanted = needsApproval(toolName, input);
  const listed = authority.allowlist.includes(toolName);
  const modeAsks =
    authority.mode === "ask" ? wanted : authority.mode === "allowlist" ? !listed : false;
  // Nothing to decide: the tool needs no approval and the mode does not ask for it.
  if (!wanted && !modeAsks) return { kind: "run" };
  const key = approvalKey(toolName, input);
  const grant = (await grants()).find(
    (candidate) =>
      candidate.toolName === toolName &&
      candidate.expiresAt.getTime() > now.getTime() &&
      (candidate.approvalKey === ANY_CALL || candidate.approvalKey === key),
  );
  if (grant) {
    return {
      kind: "decided",
      approved: true,
      source: "grant",
      reason: GRANT_ALLOWS,
      grantId: grant.id,
    };
  }
  if (!modeAsks) return { kind: "decided", approved: true, source: "mode", reason: MODE_ALLOWS };
  return asked;
}

/** The verdict as the AI SDK's approval status for the call. */
export function approvalStatus(verdict: Verdict): ToolApprovalStatus {
  switch (verdict.kind) {
    case "run":
      return undefined;
    case "decided":
      return { type: verdict.approved ? "approved" : "denied", reason: verdict.reason };
    case "ask":
      return verdict.reason ? { type: "user-approval", reason: verdict.reason } : "user-approval";
  }
}
