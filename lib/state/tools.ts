// The agent's tools over the workstream state and execution plan: update_workstream_state and
// update_plan. Scoped tools (they act for the workstream's owner), registered once and bound per
// turn by the agent's tool list (lib/agents/tools.ts). Their input is the same shape a member's
// edit takes; the agent's merges evict by the lists' rules instead of being refused.
import "server-only";
import { tool } from "ai";
import { declareApproval } from "@/lib/agents/approval-policy";
import { registerScopedTool, type ToolScope } from "@/lib/agents/tools";
import { isAppError } from "@/lib/kernel/errors";
import { strictSchema } from "@/lib/models/strict-schema";
import { toStorableJson } from "@/lib/text/storable";
import { UnknownStateItemError } from "./merge";
import {
  planUpdateSchema,
  STATE_LIMITS,
  STATE_LISTS,
  type StateListName,
  type WorkstreamStateDelta,
} from "./schema";

type ListChange = NonNullable<WorkstreamStateDelta[StateListName]>;

import { applyStateDelta, type StateTarget, writePlan } from "./store";
import { stateDeltaToolInput } from "./tool-schema";

const LIMITS_TEXT = Object.entries(STATE_LIMITS)
  .map(([list, limit]) => `${list} ${limit}`)
  .join(", ");

const STATE_DESCRIPTION =
  "Records what this workstream has settled, shown to you as <workstream-state> every turn: " +
  "activeConstraints, keyDecisions, tasks, openQuestions, risks, artifacts, currentPlan (one " +
  "line) and agentContributions. Use it in the same turn the member states a constraint, " +
  "agrees a decision, takes on a task or raises a question or risk; not for small talk, for " +
  "what is already listed, or for plan steps (update_plan). Per list send add, update (an id " +
  "and the fields that change) or remove (ids), and null for the lists you leave alone. " +
  `Limits: ${LIMITS_TEXT}; past one the least important item is evicted and the result says ` +
  "which. Mark finished tasks done.";

const PLAN_DESCRIPTION =
  "Writes the execution plan you are following, shown to you as <execution-plan-state> every " +
  "turn. Use it when the member agrees work of three or more steps, and again when a step " +
  "starts, finishes or is blocked; not for a single task (update_workstream_state) or a plan " +
  "still being discussed. Send the whole list of steps as it should now read, with statuses " +
  "(one in_progress at a time); steps whose title is unchanged keep their id. Set status " +
  "completed when every step is done, or abandoned when it no longer applies; the next " +
  "update_plan then starts a new plan.";

// Wrapped once, so the SDK converts it to JSON Schema once (see lib/agents/tools.ts).
const planUpdateInput = strictSchema(planUpdateSchema);

function targetOf(scope: ToolScope): StateTarget {
  return {
    workstreamId: scope.workstreamId,
    organizationId: scope.organizationId,
    ownerId: scope.userId,
  };
}

/** An error the model can act on: which id is unknown, or the sentence of the code. */
function toolError(error: unknown): Error {
  if (error instanceof UnknownStateItemError) {
    return new Error(
      `${error.list} has no item with id "${error.id}". Use an id shown in <workstream-state>.`,
    );
  }
  if (isAppError(error)) {
    const field = typeof error.details?.field === "string" ? ` (${error.details.field})` : "";
    const reason = typeof error.details?.reason === "string" ? ` ${error.details.reason}` : "";
    return new Error(`${error.message}${field}${reason}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** update_workstream_state, bound to the owner and the turn it acts for. */
export function updateWorkstreamStateTool(scope: ToolScope) {
  return tool({
    description: STATE_DESCRIPTION,
    strict: true,
    inputSchema: stateDeltaToolInput,
    execute: async (delta) => {
      try {
        const result = await applyStateDelta({
          ...targetOf(scope),
          // Model output is never refused for its characters: they are replaced instead.
          delta: toStorableJson(delta),
          mode: "evict",
        });
        const byId = (pick: (change: ListChange) => readonly string[] | undefined) =>
          STATE_LISTS.flatMap((list) =>
            (pick(delta[list] ?? {}) ?? []).map((id) => ({ list, id })),
          );
        return {
          version: result.version,
          added: result.added,
          updated: byId((change) => change.update?.map((update) => update.id)),
          removed: byId((change) => change.remove),
          evicted: result.lastEvictions.map(({ list, id, text, rule }) => ({
            list,
            id,
            text,
            why: rule,
          })),
        };
      } catch (error) {
        throw toolError(error);
      }
    },
  });
}

/** update_plan, bound to the owner and the turn it acts for. */
export function updatePlanTool(scope: ToolScope) {
  return tool({
    description: PLAN_DESCRIPTION,
    strict: true,
    inputSchema: planUpdateInput,
    execute: async (update) => {
      try {
        const { plan } = await writePlan({ ...targetOf(scope), update: toStorableJson(update) });
        return { title: plan.title, status: plan.status, steps: plan.steps };
      } catch (error) {
        throw toolError(error);
      }
    },
  });
}

export function registerStateTools(): void {
  // The agent's own notes on the work: they change nothing outside this workstream.
  declareApproval("update_workstream_state", false);
  declareApproval("update_plan", false);
  registerScopedTool("update_workstream_state", updateWorkstreamStateTool);
  registerScopedTool("update_plan", updatePlanTool);
}
