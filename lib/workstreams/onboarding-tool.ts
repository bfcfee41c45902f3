// The chief's complete_onboarding tool: a scoped tool (it acts for the workstream's owner), so it
// is registered once here and bound per turn by the agent's tool list (lib/agents/tools.ts).
import "server-only";
import { tool } from "ai";
import { z } from "zod";
import { registerScopedTool } from "@/lib/agents/tools";
import { completeOnboarding } from "./onboarding";

export function registerOnboardingTool(): void {
  registerScopedTool("complete_onboarding", ({ userId, organizationId }) =>
    tool({
      description:
        "Completes the member's onboarding: sets up their specialist agents and core " +
        "workstreams. Call it once the member has told you what they work on and is ready.",
      inputSchema: z.object({}),
      execute: async () => {
        const result = await completeOnboarding({ userId, organizationId });
        return {
          completed: true,
          alreadyComplete: !result.changed,
          provisioned: result.provisioned.map((workstream) => workstream.title),
        };
      },
    }),
  );
}
