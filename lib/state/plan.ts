// Applying a PlanUpdate to the execution plan: pure, like the state merge. A workstream has at
// most one active plan; an update either revises it or, when there is none, starts a new one.
import { AppError } from "@/lib/kernel/errors";
import type { ExecutionPlan, PlanUpdate } from "./schema";

export type PlanOptions = { now: string; newId: (kind: "plan" | "step") => string };

/**
 * The plan after `update`. Steps are replaced as a whole, in the order given; a step whose title
 * is unchanged keeps its id, so the model and the panel can follow it across revisions. Without
 * an active plan (none yet, or the last one completed or abandoned) the update starts a new plan,
 * which needs a title.
 */
export function nextPlan(
  previous: ExecutionPlan | null,
  update: PlanUpdate,
  options: PlanOptions,
): ExecutionPlan {
  const revising = previous?.status === "active" ? previous : null;
  const title = update.title ?? revising?.title;
  if (!title) {
    throw new AppError("bad_request:validation", {
      details: { field: "title", reason: "A new plan needs a title." },
    });
  }
  const unused = [...(revising?.steps ?? [])];
  const steps = update.steps
    ? update.steps.map((step) => {
        const same = unused.findIndex((old) => old.title === step.title);
        const id = same >= 0 ? (unused.splice(same, 1)[0]?.id ?? options.newId("step")) : null;
        return { id: id ?? options.newId("step"), title: step.title, status: step.status };
      })
    : (revising?.steps ?? []);
  return {
    id: revising?.id ?? options.newId("plan"),
    title,
    status: update.status ?? revising?.status ?? "active",
    steps,
    updatedAt: options.now,
  };
}
