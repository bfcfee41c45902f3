// Next.js loads the route handlers in module graphs of their own, apart from the instrumentation
// that wires the process: a port the composition root fills must be seen by every copy of its
// module, or a route finds the engine unwired (an approval could not be answered in the app).
import { describe, expect, it, vi } from "vitest";

describe("the ports the composition root fills", () => {
  it("the turn continuation set through one copy of its module is seen by another", async () => {
    const first = await import("@/lib/approvals/continuation");
    const engine = { marker: "engine" } as unknown as Parameters<
      typeof first.setTurnContinuation
    >[0];
    first.setTurnContinuation(engine);
    vi.resetModules();
    const second = await import("@/lib/approvals/continuation");
    expect(second).not.toBe(first);
    expect(second.turnContinuation()).toBe(engine);
  });

  it("the consultation host set through one copy of its module is seen by another", async () => {
    const first = await import("@/lib/agents/consultation-host");
    const host = { marker: "host" } as unknown as Parameters<typeof first.setConsultationHost>[0];
    first.setConsultationHost(host);
    vi.resetModules();
    const second = await import("@/lib/agents/consultation-host");
    expect(second).not.toBe(first);
    expect(second.consultationHost()).toBe(host);
  });
});
