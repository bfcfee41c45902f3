// Running turns against a server under test: the app (`POST /api/workstreams/:id/messages`) or
// the baseline (`POST /chat`), with the same message body. A 409 (the previous turn in that
// workstream is still closing) is retried briefly and counted. On the app a turn may have one
// follower: a second connection of the same user (another tab) that follows the workstream's
// events (`GET …/events?after=N`) from the moment the POST's response headers arrive.
import type { TurnTiming } from "./http";
import type { Server } from "./servers";
import { type BenchUser, userMessage } from "./users";

export type TurnTarget = { server: Server; users: BenchUser[] };

export type TurnResult = TurnTiming & { retries: number; follower?: TurnTiming };

export async function runTurn(
  target: TurnTarget,
  userIndex: number,
  text: string,
  timeoutMs = 60_000,
  { follower = false }: { follower?: boolean } = {},
): Promise<TurnResult> {
  const user = target.users[userIndex % target.users.length];
  if (!user) throw new Error("no users");
  const app = target.server.kind !== "baseline";
  const path = app ? `/api/workstreams/${user.workstreamId}/messages` : "/chat";
  let retries = 0;
  for (;;) {
    let following: Promise<TurnTiming> | undefined;
    const after = user.lastOffset ?? 0;
    const onHeaders =
      follower && app
        ? (status: number) => {
            if (status !== 200) return;
            following = user.client.follow(
              `/api/workstreams/${user.workstreamId}/events?after=${after}`,
              timeoutMs,
            );
          }
        : undefined;
    const timing = await user.client.streamTurn(path, userMessage(text), timeoutMs, onHeaders);
    if (timing.status === 409 && retries < 40) {
      retries++;
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    const followed = following ? await following : undefined;
    user.lastOffset = Math.max(after, timing.lastId, followed?.lastId ?? 0);
    return { ...timing, retries, ...(followed ? { follower: followed } : {}) };
  }
}

/** Gaps between consecutive chunks (SSE events of any type) within each turn. */
export function chunkGaps(timings: readonly TurnTiming[]): number[] {
  const gaps: number[] = [];
  for (const timing of timings) {
    for (let i = 1; i < timing.eventMs.length; i++) {
      gaps.push((timing.eventMs[i] ?? 0) - (timing.eventMs[i - 1] ?? 0));
    }
  }
  return gaps;
}

/** Each turn's largest gap between consecutive chunks (SSE events of any type). */
export function largestGaps(timings: readonly TurnTiming[]): number[] {
  const out: number[] = [];
  for (const timing of timings) {
    let largest = Number.NaN;
    for (let i = 1; i < timing.eventMs.length; i++) {
      const gap = (timing.eventMs[i] ?? 0) - (timing.eventMs[i - 1] ?? 0);
      if (!(gap <= largest)) largest = gap;
    }
    if (Number.isFinite(largest)) out.push(largest);
  }
  return out;
}
