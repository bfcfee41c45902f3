// Which tool calls wait for a person. Each tool declares whether it needs approval by default
// (a fixed answer, or one that depends on the call's input); a tool that declares nothing runs
// without asking. The turn turns these declarations into the AI SDK's `toolApproval` setting, so
// the SDK itself ends the stream with approval requests and, on the continuation, executes only
// what was approved. Pure and synchronous: a call that needs no approval costs nothing here.
import { processSingleton } from "@/lib/kernel/singleton";

/** `true`: every call asks; a function: asks for the inputs it returns true for. */
export type ApprovalRule = boolean | ((input: unknown) => boolean);

type Declaration = {
  rule: ApprovalRule;
  /**
   * What a remembered grant of the tool covers: calls whose key is the same (send_message: the
   * target workstream). Without it a grant covers every call of the tool.
   */
  key?: (input: unknown) => string | null;
};

// Declared at start-up (instrumentation) and read by the turn (route handlers): Next.js loads
// those in separate module graphs, so the declarations live once per process.
const declarations = processSingleton("approval-rules", () => new Map<string, Declaration>());

/** Declares a tool's default. The domain that registers the tool declares it beside it. */
export function declareApproval(
  toolName: string,
  rule: ApprovalRule,
  options: Omit<Declaration, "rule"> = {},
): void {
  declarations.set(toolName, { rule, ...options });
}

/** A grant of `toolName` covers a call when their keys are equal, or the grant's is "*". */
export const ANY_CALL = "*";

export function approvalKey(toolName: string, input: unknown): string {
  try {
    return declarations.get(toolName)?.key?.(input) ?? ANY_CALL;
  } catch (error) {
    console.warn(`[approvals] the key of ${toolName} failed; using none`, error);
    return ANY_CALL;
  }
}

/** Whether a tool declared anything (tools without a declaration never ask). */
export function isDeclared(toolName: string): boolean {
  return declarations.has(toolName);
}

export function needsApproval(toolName: string, input: unknown): boolean {
  const rule = declarations.get(toolName)?.rule;
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
export function declaredApprovals(): Array<{
  toolName: string;
  rule: "never" | "always" | "sometimes";
}> {
  return [...declarations.entries()].map(([toolName, { rule }]) => ({
    toolName,
    rule: rule === false ? "never" : rule === true ? "always" : "sometimes",
  }));
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
