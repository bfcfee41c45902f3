// Too many turns from one user in a short window get 429 with Retry-After. They are counted from
// the turns table inside the transaction that opens the turn, under a per-user lock (see
// openTurn), so the limit holds for concurrent requests on every server process.

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env) {
  const turnsAllowed = Number(env.WORKSTREAMS_RATE_LIMIT_TURNS ?? 30);
  const windowMs = Number(env.WORKSTREAMS_RATE_LIMIT_WINDOW_MS ?? 60_000);
  return { turns: turnsAllowed, windowMs };
}
