// SEND_REQUEST: the composed request goes to the model through the AI SDK's streamText (retries,
// backoff and the fallback model are the resilient model's, lib/models/resilient-model.ts),
// with the turn's tools behind their TOOL_CALL stage (./tool-call.ts) and the authority stack.
import { config } from "@/lib/config";
import { streamModelText } from "@/lib/models/calls";
import { costUsd } from "@/lib/models/catalogue";
import { tokenUsage } from "@/lib/models/usage";
import { stage } from "../bus";
import { afterStage, beforeStage } from "../hooks";
import { refuseForbidden, toolApprovalFor } from "../tool-authority";
import type { ComposedTurn } from "./compose-request";
import type { TurnRun } from "./run";
import type { StreamingTurn } from "./stream-response";
import { gateTools } from "./tool-call";

export function sendStage(run: TurnRun, composed: ComposedTurn, streaming: StreamingTurn) {
  const { workstream, controller, resumed, scope, ctx, trace } = run;
  const { resolved, kept } = composed;
  return stage(scope, "SEND_REQUEST", async () => {
    const request = await beforeStage(
      "SEND_REQUEST",
      {
        modelId: resolved.model.modelId,
        provider: resolved.model.provider,
        instructions: composed.instructions,
        messages: composed.messages,
      },
      ctx,
    );
    const streaming_ = trace.within(() =>
      streamModelText({
        call: "turn",
        model: resolved.model.model,
        // The model is the resolved agent's (resolveAgent hooks choose it); a transform here
        // rewrites what it is asked.
        instructions: request.instructions,
        messages: request.messages,
        allowSystemInMessages: true,
        tools: refuseForbidden(gateTools(streaming.tools, ctx, scope), kept.toolPolicy, ctx),
        // The authority stack decides each call: policy, grants and mode may decide it at once;
        // a call that asks the owner ends the stream with its approval request instead of
        // running, and the continuation after the answers runs (only) the approved ones.
        toolApproval: toolApprovalFor({ workstream, kept, ctx, resumed: resumed?.message }),
        // Consultations' model calls count toward the bound as well.
        stopWhen: ({ steps }) => streaming.stepsUsed(steps.length) >= config.turns.maxSteps,
        abortSignal: controller.signal,
        maxRetries: 0, // attempts, backoff and fallback are the resilient model's
        onError: () => {}, // failures reach the turn through the UI stream's error chunk
        // A stop rejects the SDK's totals, so each finished model call's usage is kept here.
        onStepEnd: (step) => {
          const usage = tokenUsage(step.usage);
          streaming.stepsEnded.push({ usage, finishReason: step.finishReason });
          // The resilient model answers under the primary's id: the last attempt that streamed
          // names the model that really answered (a fallback, after failures).
          const modelId =
            resolved.model.attempts.findLast((attempt) => attempt.outcome === "ok")?.modelId ??
            resolved.model.modelId;
          trace.step({
            modelId,
            finishReason: step.finishReason,
            usage,
            costUsd: costUsd(modelId, usage),
          });
        },
      }),
    );
    await afterStage("SEND_REQUEST", request, ctx);
    return streaming_;
  });
}

export type SentRequest = Awaited<ReturnType<typeof sendStage>>;
