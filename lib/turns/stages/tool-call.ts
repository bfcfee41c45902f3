// TOOL_CALL: each tool call is a stage of its own. Its pre point runs the guard hooks (deny wins)
// and the transforms of the arguments; then the tool executes; its post point lets observers see
// the call with its output. A denied or throwing tool becomes an error result the model sees;
// the turn goes on. Every invocation is on the bus. Guards see every call that got this far,
// approved by its owner or needing no approval; a guard's denial is audited like an approval's
// (it costs a statement only when a guard refuses).
import type { Tool } from "ai";
import { recordDecision } from "@/lib/approvals/store";
import { bus, type StageScope, stage } from "../bus";
import { afterStage, beforeStage, GuardRefusal, type HookContext } from "../hooks";

export function gateTools(
  tools: Record<string, Tool>,
  ctx: HookContext,
  scope: StageScope,
): Record<string, Tool> {
  return Object.fromEntries(
    Object.entries(tools).map(([toolName, original]) => {
      const execute = original.execute;
      if (!execute) return [toolName, original];
      const gated: Tool = {
        ...original,
        execute: (input: unknown, options) =>
          stage(
            scope,
            "TOOL_CALL",
            async () => {
              const { toolCallId, abortSignal } = options;
              const event = { turnId: ctx.turnId, toolName, toolCallId };
              bus.emit({ type: "ToolInvocationStarted", ...event });
              try {
                const payload = await beforeStage(
                  "TOOL_CALL",
                  { toolName, toolCallId, input },
                  ctx,
                );
                const output = await execute(payload.input as never, options);
                bus.emit({ type: "ToolInvocationSucceeded", ...event });
                await afterStage("TOOL_CALL", { ...payload, output }, ctx);
                return output;
              } catch (error) {
                if (abortSignal?.aborted) {
                  bus.emit({ type: "ToolInvocationCancelled", ...event });
                } else {
                  const message = error instanceof Error ? error.message : String(error);
                  bus.emit({ type: "ToolInvocationFailed", ...event, error: message });
                }
                if (error instanceof GuardRefusal) {
                  await recordDecision({
                    organizationId: ctx.organizationId,
                    workstreamId: ctx.workstreamId,
                    turnId: ctx.turnId,
                    toolName,
                    toolCallId,
                    input,
                    decision: "denied",
                    source: "guard",
                    // The hook's name: its reason may quote the arguments.
                    reason: error.hook,
                    decidedBy: null,
                  }).catch((failure: unknown) =>
                    console.error(`[turn ${ctx.turnId}] auditing a guard's denial failed`, failure),
                  );
                  throw new Error(`Denied: ${error.reason}`);
                }
                throw error;
              }
            },
            { toolName, toolCallId: options.toolCallId },
          ),
      } as Tool;
      return [toolName, gated];
    }),
  );
}
