// Too many turns from one user in a short window get 429 with Retry-After. Counted from the
// turns table inside the transaction that opens the turn, under a per-user lock, so the limit
// holds for concurrent requests on every server process.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { turns } from "@/db/schema";
import { AppError } from "@/lib/http/errors";

// First key of the two-key advisory lock: keeps these per-user locks apart from any other
// advisory lock the app takes (migrations, the demo seed use the one-key form).
const TURN_RATE_LOCK_SPACE = 727_002;

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env) {
  const turnsAllowed = Number(env.WORKSTREAMS_RATE_LIMIT_TURNS ?? 30);
  const windowMs = Number(env.WORKSTREAMS_RATE_LIMIT_WINDOW_MS ?? 60_000);
  return { turns: turnsAllowed, windowMs };
}

/**
 * Refuses the turn about to be opened in `tx` when the user already opened the limit within the
 * window. Must run in the transaction that inserts the turn row: the lock is held until that
 * transaction commits, so the next request of the same user counts this turn. The count is its
 * own statement after the lock so that it reads rows committed while this one waited.
 */
export async function checkTurnRateLimit(tx: Db, { userId }: { userId: string }): Promise<void> {
  const limit = rateLimitSettings();
  if (!(limit.turns > 0)) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${TURN_RATE_LOCK_SPACE}, hashtext(${userId}))`);
  const windowStart = sql`now() - ${`${limit.windowMs} milliseconds`}::interval`;
  const recent = await tx
    .select({ createdAt: turns.createdAt })
    .from(turns)
    .where(and(eq(turns.userId, userId), gt(turns.createdAt, windowStart)))
    .orderBy(asc(turns.createdAt))
    .limit(limit.turns);
  if (recent.length < limit.turns) return;
  const oldest = recent[0]?.createdAt.getTime() ?? Date.now();
  const retryAfter = Math.max(1, Math.ceil((oldest + limit.windowMs - Date.now()) / 1000));
  throw new AppError("rate_limit:turn", {
    headers: { "retry-after": String(retryAfter) },
    details: { retryAfter },
  });
}
