// The run registry (seed 000's chatRunRegistry): the runs this process executes, each with its
// serverRunId and AbortController. Stop finds the run here or asks other processes to look.
import { processSingleton } from "@/lib/server/singleton";

export type RegisteredRun = {
  turnId: string;
  workstreamId: string;
  serverRunId: string;
  controller: AbortController;
  done: Promise<void>;
};

const runs = processSingleton("runs", () => new Map<string, RegisteredRun>());

export const runRegistry = {
  register(run: RegisteredRun): void {
    runs.set(run.turnId, run);
  },
  unregister(turnId: string): void {
    runs.delete(turnId);
  },
  get(turnId: string): RegisteredRun | undefined {
    return runs.get(turnId);
  },
  all(): RegisteredRun[] {
    return [...runs.values()];
  },
  /** Aborts the run if this process has it; returns whether it did. */
  abort(turnId: string, reason: string): boolean {
    const run = runs.get(turnId);
    if (!run) return false;
    run.controller.abort(new StopRequested(reason));
    return true;
  },
};

export class StopRequested extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "StopRequested";
  }
}
