// What a database error means, read from Postgres's SQLSTATE. Both drivers raise it with a
// `code`; through Drizzle the driver's error is the `cause` of a DrizzleQueryError.

const UNIQUE_VIOLATION = "23505";

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null
    ? (error as { code?: unknown }).code
    : undefined;
}

function sqlState(error: unknown): unknown {
  const cause =
    typeof error === "object" && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return codeOf(error) ?? codeOf(cause);
}

/** True when `error` (or the driver error it wraps) is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === UNIQUE_VIOLATION;
}
