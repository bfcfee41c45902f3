// What a log line may say about an error thrown below the app: its class and SQLSTATE, never its
// message. Database errors from postgres-js, PGlite and drizzle carry the failed query and its
// parameters (other users' ids, their model output), so the error object itself is never printed.

/** e.g. `DrizzleQueryError ← PostgresError 23505`: the error's class and its causes' classes. */
export function errorClass(error: unknown): string {
  const names: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    names.push(describeOne(current));
    current = (current as { cause?: unknown }).cause;
  }
  return names.join(" ← ") || "unknown";
}

function describeOne(error: unknown): string {
  if (typeof error !== "object" || error === null) return typeof error;
  const name = error instanceof Error ? error.name : (error.constructor?.name ?? "object");
  const code = (error as { code?: unknown }).code;
  // A SQLSTATE is five characters from a closed list: safe to log, useful to act on.
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? `${name} ${code}` : name;
}
