// The admin console's tool policy: every tool an agent can have, whether it asks by default, and
// the organization's rule for it (allowed, requires approval, forbidden). Rules go through
// lib/approvals, which owns the table.
import "server-only";
import { declaredApprovals } from "@/lib/agents/approval-policy";
import type { PolicyRule } from "@/lib/agents/authority";
import { readToolPolicy, writeToolPolicy } from "@/lib/approvals/store";
import { listAgents } from "@/lib/config";
import { AppError } from "@/lib/kernel/errors";

export type ToolPolicyEntry = {
  toolName: string;
  /** Whether the tool asks its owner by default: never, always, or for some inputs. */
  asks: "never" | "always" | "sometimes";
  rule: PolicyRule;
};

/** Every tool some agent has, by name. */
export function knownTools(): string[] {
  return [...new Set(listAgents().flatMap((agent) => agent.tools))].sort();
}

export async function toolPolicyView(
  organizationId: string,
): Promise<{ tools: ToolPolicyEntry[] }> {
  const policy = await readToolPolicy(organizationId);
  const asks = new Map(declaredApprovals().map((entry) => [entry.toolName, entry.rule]));
  return {
    tools: knownTools().map((toolName) => ({
      toolName,
      asks: asks.get(toolName) ?? "never",
      rule: Object.hasOwn(policy, toolName) ? (policy[toolName] ?? "allowed") : "allowed",
    })),
  };
}

export async function updateToolPolicy({
  organizationId,
  rules,
  updatedBy,
}: {
  organizationId: string;
  rules: Record<string, PolicyRule>;
  updatedBy: string;
}): Promise<{ tools: ToolPolicyEntry[] }> {
  const tools = knownTools();
  const unknown = Object.keys(rules).find((tool) => !tools.includes(tool));
  if (unknown !== undefined) throw new AppError("bad_request:tool", { details: { tool: unknown } });
  await writeToolPolicy({ organizationId, rules, updatedBy });
  return toolPolicyView(organizationId);
}
