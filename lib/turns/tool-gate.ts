// TOOL_CALL (seed 004's authority stack, without approvals yet): guard hooks (deny wins), then
// transform hooks on the arguments, then execute. A denied or throwing tool becomes an error
// result the model sees; the turn goes on. Every invocation is on the bus.
import type { Tool } from "ai";
import { bus } from "./bus";
import { GuardRefusal, type HookContext, runStageHooks } from "./hooks";

export function gateTools(tools: Record<string, Tool>, ctx: HookContext): Record<string, Tool> {
  return Object.fromEntries(
    Object.entries(tools).map(([toolName, original]) => {
      const execute = original.execute;
      if (!execute) return [toolName, original];
      const gated: Tool = {
        ...original,
        execute: async (input: unknown, options) => {
          const { toolCallId, abortSignal } = options;
          bus.emit({ type: "ToolInvocationStarted", turnId: ctx.turnId, toolName, toolCallId });
          try {
            const payload = await runStageHooks("TOOL_CALL", { toolName, toolCallId, input }, ctx);
            const output = await execute(payload.input as never, options);
            bus.emit({ type: "ToolInvocationSucceeded", turnId: ctx.turnId, toolName, toolCallId });
            return output;
          } catch (error) {
            if (abortSignal?.aborted) {
              bus.emit({
                type: "ToolInvocationCancelled",
                turnId: ctx.turnId,
                toolName,
                toolCallId,
              });
            } else {
              const message = error instanceof Error ? error.message : String(error);
              bus.emit({
                type: "ToolInvocationFailed",
                turnId: ctx.turnId,
                toolName,
                toolCallId,
                error: message,
              });
            }
            if (error instanceof GuardRefusal) throw new Error(`Denied: ${error.reason}`);
            throw error;
          }
        },
      } as Tool;
      return [toolName, gated];
    }),
  );
}
