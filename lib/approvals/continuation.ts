// What answering an approval needs of the turn engine: the suspended turn's kept answer, its
// take-back, and its continuation. lib/turns builds on lib/approvals (it records what a turn asks),
// so approvals reach the engine only through this port, which the composition root fills
// (root/wiring.ts); a process that was never wired refuses to answer rather than write half.
import "server-only";
import type { Tx } from "@/db/client";
import type { turns } from "@/db/schema";
import { processSingleton } from "@/lib/kernel/singleton";
import type { ApprovalRow } from "./store";

/** The suspended turn an answer is for, with its workstream's owner. */
export type AnsweredTurn = typeof turns.$inferSelect & { ownerId: string | null };

export type TurnContinuation = {
  /**
   * Runs `work` with the turn's run held in this process, from before the commit that may make
   * the process the turn's owner until its run is registered, so the reaper never takes it.
   */
  holding<T>(turnId: string, work: () => Promise<T>): Promise<T>;
  /**
   * Writes the decisions into the kept answer, in the answer's transaction; returns the calls'
   * inputs by approval id, as they were kept.
   */
  recordAnswers(tx: Tx, turn: AnsweredTurn, decided: ApprovalRow[]): Promise<Map<string, unknown>>;
  /** Takes the turn back to go on, in the answer's transaction, under `serverRunId`. */
  takeBack(
    tx: Tx,
    turn: AnsweredTurn,
    serverRunId: string,
    resumedOffset: number | null,
  ): Promise<void>;
  /** After the commit: the taken-back turn goes on in this process. */
  continueTurn(input: {
    turnId: string;
    workstreamId: string;
    serverRunId: string;
    lastOffset: number;
  }): void;
};

// On globalThis: Next loads the routes apart from the instrumentation that wires the process, and
// a module-level variable would be set only in the wiring's copy of this module.
const wired = processSingleton("turn-continuation", () => ({}) as { engine?: TurnContinuation });

/** Set once per process by the composition root. */
export function setTurnContinuation(continuation: TurnContinuation): void {
  wired.engine = continuation;
}

export function turnContinuation(): TurnContinuation {
  if (!wired.engine) {
    throw new Error("Approvals cannot continue turns: the turn engine is not wired (wireDomains).");
  }
  return wired.engine;
}
