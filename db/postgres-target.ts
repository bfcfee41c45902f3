// Where a DATABASE_URL points postgres-js. A server on the same machine can be reached through
// its Unix-domain socket, written as libpq writes it: the socket's directory in the URL's `host`
// parameter (`postgres://user@localhost:5432/db?host=/var/run/postgresql`). postgres-js would send
// that parameter to the server as a setting, so it becomes postgres-js's own `host` option
// instead; the URL's port names the socket file (`.s.PGSQL.5432`). A socket needs no TCP listener
// and allows peer authentication; it did not make a turn cheaper on the benchmark's machine
// (`npm run bench -- --pg-socket`).
import "server-only";
import type { Options, PostgresType, Sql } from "postgres";

/** A postgres-js client for a DATABASE_URL (its socket, if it names one); loaded on first use. */
export async function postgresClient(
  url: string,
  options: Options<Record<string, PostgresType>>,
): Promise<Sql> {
  const { default: postgres } = await import("postgres");
  const target = postgresTarget(url);
  return postgres(target.url, { ...target.options, ...options });
}

/** The URL to give postgres-js, and its options that name the socket's directory (if any). */
export function postgresTarget(url: string): { url: string; options: { host?: string } } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // postgres-js reports a URL it cannot read in its own words.
    return { url, options: {} };
  }
  const host = parsed.searchParams.get("host");
  if (!host?.startsWith("/")) return { url, options: {} };
  parsed.searchParams.delete("host");
  return { url: parsed.toString(), options: { host } };
}
