// Running turns against a server under test: the app (`POST /api/workstreams/:id/messages`) or
// the baseline (`POST /chat`), with the same message body. A 409 (the previous turn in that
// workstream is still closing) is retried briefly and counted.
import type { TurnTiming } from "./http";
import type { Server } from "./servers";
import { type BenchUser, userMessage } from "./users";

export type TurnTarget = { server: Server; users: BenchUser[] };

export async function runTurn(
  target: TurnTarget,
  userIndex: number,
  text: string,
  timeoutMs = 60_000,
): Promise<TurnTiming & { retries: number }> {
  const user = target.users[userIndex % target.users.length];
  if (!user) throw new Error("no users");
  const path =
    target.server.kind === "baseline" ? "/chat" : `/api/workstreams/${user.workstreamId}/messages`;
  let retries = 0;
  for (;;) {
    const timing = await user.client.streamTurn(path, userMessage(text), timeoutMs);
    if (timing.status === 409 && retries < 40) {
      retries++;
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    return { ...timing, retries };
  }
}

/** Gaps between consecutive text-delta arrivals within each turn. */
export function chunkGaps(timings: readonly TurnTiming[]): number[] {
  const gaps: number[] = [];
  for (const timing of timings) {
    for (let i = 1; i < timing.textMs.length; i++) {
      gaps.push((timing.textMs[i] ?? 0) - (timing.textMs[i - 1] ?? 0));
    }
  }
  return gaps;
}
