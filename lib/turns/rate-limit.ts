// Too many turns from one user in a window get 429 with Retry-After. The statement that opens a
// turn bumps the user's counter for the current window (turn_rate_limits; see openTurn), whose
// row lock orders concurrent requests on every server process, so the limit holds for them all.

export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env) {
  const turnsAllowed = Number(env.WORKSTREAMS_RATE_LIMIT_TURNS ?? 30);
  const windowMs = Number(env.WORKSTREAMS_RATE_LIMIT_WINDOW_MS ?? 60_000);
  return { turns: turnsAllowed, windowMs };
}
