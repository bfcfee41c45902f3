// The run registry: the runs this process executes, each with its
// serverRunId and AbortController. Stop finds the run here or asks other processes to look.
import { ERROR_SENTENCES, type ErrorCode, isErrorCode } from "@/lib/kernel/errors";
import { processSingleton } from "@/lib/kernel/singleton";

export type RegisteredRun = {
  turnId: string;
  workstreamId: string;
  serverRunId: string;
  controller: AbortController;
  done: Promise<void>;
};

const runs = processSingleton("runs", () => new Map<string, RegisteredRun>());
/**
 * Turns this process is about to own: a commit makes it their owner before their run can be
 * registered (the opening transaction, an approval taking a turn back), and the reaper must not
 * take such a turn for one whose close failed.
 */
const reserved = processSingleton("reserved-runs", () => new Map<string, number>());

export const runRegistry = {
  register(run: RegisteredRun): void {
    runs.set(run.turnId, run);
  },
  /**
   * Holds `turnId` for this process until the returned release is called (after the run is
   * registered, or the commit did not happen). Holds nest: each release undoes one.
   */
  reserve(turnId: string): () => void {
    reserved.set(turnId, (reserved.get(turnId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (reserved.get(turnId) ?? 1) - 1;
      if (left > 0) reserved.set(turnId, left);
      else reserved.delete(turnId);
    };
  },
  /** Runs `work` with `turnId` reserved (see `reserve`), released when it settles. */
  async holding<T>(turnId: string, work: () => Promise<T>): Promise<T> {
    const release = runRegistry.reserve(turnId);
    try {
      return await work();
    } finally {
      release();
    }
  },
  /** Whether this process is about to run `turnId` (a reservation not yet released). */
  isReserved(turnId: string): boolean {
    return reserved.has(turnId);
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
  /** How many runs this process executes now. */
  size(): number {
    return runs.size;
  },
  /**
   * Aborts the run if this process has it; returns whether it did. `code` names why, as a code of
   * the closed vocabulary (a shutdown may say `internal:server_restarted`); anything else, and
   * every stop by a person, is `turn:stopped`.
   */
  abort(turnId: string, code?: string): boolean {
    const run = runs.get(turnId);
    if (!run) return false;
    run.controller.abort(new StopRequested(code));
    return true;
  },
};

export class StopRequested extends Error {
  readonly code: ErrorCode;

  constructor(code?: string) {
    const known: ErrorCode = isErrorCode(code) ? code : "turn:stopped";
    super(ERROR_SENTENCES[known]);
    this.name = "StopRequested";
    this.code = known;
  }
}
