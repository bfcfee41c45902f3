// Too many turns from one user in a window get 429 with Retry-After. Opening a turn counts it
// against the user's counter for the current window (turn_rate_limits) inside the opening's
// transaction; the counter's row lock orders concurrent requests on every server process, so the
// limit holds for them all.
import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { turnRateLimits } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env) {
  const turnsAllowed = Number(env.WORKSTREAMS_RATE_LIMIT_TURNS ?? 30);
  const windowMs = Number(env.WORKSTREAMS_RATE_LIMIT_WINDOW_MS ?? 60_000);
  return { turns: turnsAllowed, windowMs };
}

/**
 * Counts one turn for `userId` (a new window once the last one lapsed). Null when it is within
 * the limit (or there is none); otherwise the refusal, with when to try again.
 */
export async function countTurn(tx: Tx, userId: string): Promise<AppError | null> {
  const limit = rateLimitSettings();
  if (limit.turns <= 0) return null;
  const lapsed = sql`${turnRateLimits.windowStart} <= now() - ${`${limit.windowMs} milliseconds`}::interval`;
  const [row] = await tx
    .insert(turnRateLimits)
    .values({ userId, windowStart: sql`now()`, turns: 1 })
    .onConflictDoUpdate({
      target: turnRateLimits.userId,
      set: {
        turns: sql`case when ${lapsed} then 1 else ${turnRateLimits.turns} + 1 end`,
        windowStart: sql`case when ${lapsed} then now() else ${turnRateLimits.windowStart} end`,
      },
    })
    .returning({ turns: turnRateLimits.turns, windowStart: turnRateLimits.windowStart });
  if (!row || row.turns <= limit.turns) return null;
  const since = new Date(row.windowStart).getTime();
  const retryAfter = Math.max(1, Math.ceil((since + limit.windowMs - Date.now()) / 1000));
  return new AppError("rate_limit:turn", { details: { retryAfter } });
}
