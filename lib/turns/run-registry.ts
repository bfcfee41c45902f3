// The run registry: the runs this process executes, each with its
// serverRunId and AbortController. Stop finds the run here or asks other processes to look.
import { ERROR_SENTENCES, type ErrorCode, isErrorCode } from "@/lib/http/errors";
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
