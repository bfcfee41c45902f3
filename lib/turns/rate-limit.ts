// Too many turns from one user in a short window get 429 with Retry-After. Counted from the
// turns table, so the limit holds across every server process.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { turns } from "@/db/schema";
import { AppError } from "@/lib/http/errors";

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env) {
  const turnsAllowed = Number(env.WORKSTREAMS_RATE_LIMIT_TURNS ?? 30);
  const windowMs = Number(env.WORKSTREAMS_RATE_LIMIT_WINDOW_MS ?? 60_000);
  return { turns: turnsAllowed, windowMs };
}

export async function checkTurnRateLimit({ userId }: { userId: string }): Promise<void> {
  const limit = rateLimitSettings();
  if (!(limit.turns > 0)) return;
  const db = await getDb();
  const windowStart = sql`now() - ${`${limit.windowMs} milliseconds`}::interval`;
  const recent = await db
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
