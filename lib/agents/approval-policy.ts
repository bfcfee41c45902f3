// Which tool calls wait for a person. Each tool declares whether it needs approval by default
// (a fixed answer, or one that depends on the call's input); a tool that declares nothing runs
// without asking. The turn turns these declarations into the AI SDK's `toolApproval` setting, so
// the SDK itself ends the stream with approval requests and, on the continuation, executes only
// what was approved. Pure and synchronous: a call that needs no approval costs nothing here.
import type { ToolApprovalStatus } from "ai";
import { processSingleton } from "@/lib/server/singleton";

/** `true`: every call asks; a function: asks for the inputs it returns true for. */
export type ApprovalRule = boolean | ((input: unknown) => boolean);

// Declared at start-up (instrumentation) and read by the turn (route handlers): Next.js loads
// those in separate module graphs, so the declarations live once per process.
const rules = processSingleton("approval-rules", () => new Map<string, ApprovalRule>());

/** Declares a tool's default. The domain that registers the tool declares it beside it. */
export function declareApproval(toolName: string, rule: ApprovalRule): void {
  rules.set(toolName, rule);
}

export function needsApproval(toolName: string, input: unknown): boolean {
  const rule = rules.get(toolName);
  if (typeof rule === "function") {
    try {
      return rule(input);
    } catch (error) {
      // A rule that cannot read the input asks rather than lets the call through.
      console.warn(`[approvals] the rule of ${toolName} failed; asking instead`, error);
      return true;
    }
  }
  return rule === true;
}

/** The tools whose every call asks, for the README and the settings that list them. */
export function declaredApprovals(): Array<{ toolName: string; rule: "always" | "sometimes" }> {
  return [...rules.entries()]
    .filter(([, rule]) => rule !== false)
    .map(([toolName, rule]) => ({ toolName, rule: rule === true ? "always" : "sometimes" }));
}

/**
 * The reason shown to the approver: the agent's own words when the tool takes a `reason`
 * argument (the agent states why it wants to act), else none.
 */
export function statedReason(input: unknown): string | undefined {
  if (!input || typeof input !== "object") return undefined;
  const reason = (input as { reason?: unknown }).reason;
  return typeof reason === "string" && reason.trim() ? reason.trim() : undefined;
}

/**
 * The AI SDK's `toolApproval` for a turn: a call whose tool needs approval becomes a
 * `user-approval` request carrying the agent's stated reason; anything else runs as before.
 */
export function toolApprovalStatus(toolCall: {
  toolName: string;
  input: unknown;
}): ToolApprovalStatus {
  if (!needsApproval(toolCall.toolName, toolCall.input)) return undefined;
  const reason = statedReason(toolCall.input);
  return reason ? { type: "user-approval", reason } : "user-approval";
}
