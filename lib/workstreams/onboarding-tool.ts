// The chief's complete_onboarding tool: a scoped tool (it acts for the workstream's owner), so it
// is registered once here and bound per turn by the agent's tool list (lib/agents/tools.ts).
import "server-only";
import { tool } from "ai";
import { z } from "zod";
import { registerScopedTool, type ToolScope } from "@/lib/agents/tools";
import { strictSchema } from "@/lib/models/strict-schema";
import { completeOnboarding } from "./onboarding";

// Built once: the tool is bound per turn, its schema is not (see lib/agents/tools.ts).
const noInput = strictSchema(z.object({}));

/** complete_onboarding, bound to the owner and the turn it acts for. */
export function completeOnboardingTool({ userId, organizationId }: ToolScope) {
  return tool({
    description:
      "Completes the member's onboarding: sets up their specialist agents and core " +
      "workstreams. Call it once, when the member has said what they work on and wants to " +
      "start; not on a first hello, and not again once it is done. It takes no parameters.",
    strict: true,
    inputSchema: noInput,
    execute: async () => {
      const result = await completeOnboarding({ userId, organizationId });
      return {
        completed: true,
        alreadyComplete: !result.changed,
        provisioned: result.provisioned.map((workstream) => workstream.title),
      };
    },
  });
}

export function registerOnboardingTool(): void {
  registerScopedTool("complete_onboarding", completeOnboardingTool);
}
