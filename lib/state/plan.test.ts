import { describe, expect, it } from "vitest";
import { nextPlan } from "./plan";
import type { ExecutionPlan } from "./schema";

function options() {
  let n = 0;
  return { now: "2026-01-01T00:00:00.000Z", newId: (kind: string) => `${kind}-${++n}` };
}

const active: ExecutionPlan = {
  id: "plan-a",
  title: "Launch",
  status: "active",
  updatedAt: "2025-12-31T00:00:00.000Z",
  steps: [
    { id: "s1", title: "Draft", status: "done" },
    { id: "s2", title: "Review", status: "in_progress" },
  ],
};

describe("nextPlan", () => {
  it("I13.2 revising the active plan keeps the ids of steps whose title is unchanged", () => {
    const plan = nextPlan(
      active,
      {
        steps: [
          { title: "Draft", status: "done" },
          { title: "Legal check", status: "in_progress" },
          { title: "Review", status: "pending" },
        ],
      },
      options(),
    );
    expect(plan).toMatchObject({ id: "plan-a", title: "Launch", status: "active" });
    expect(plan.steps.map((step) => step.id)).toEqual(["s1", "step-1", "s2"]);
  });

  it("I13.2 an update without steps changes only the title or status", () => {
    const plan = nextPlan(active, { status: "completed" }, options());
    expect(plan.steps).toEqual(active.steps);
    expect(plan.status).toBe("completed");
  });

  it("I13.2 without an active plan an update starts a new one, which needs a title", () => {
    const done = { ...active, status: "completed" as const };
    expect(() =>
      nextPlan(done, { steps: [{ title: "Next", status: "pending" }] }, options()),
    ).toThrow(expect.objectContaining({ code: "bad_request:validation" }));
    const fresh = nextPlan(
      done,
      { title: "Phase two", steps: [{ title: "Draft", status: "pending" }] },
      options(),
    );
    expect(fresh).toMatchObject({ title: "Phase two", status: "active" });
    expect(fresh.id).not.toBe(active.id);
    // A new plan does not inherit the finished plan's step ids.
    expect(fresh.steps[0]?.id).not.toBe("s1");
  });
});
