// Vitest global setup for integration tests: build the migrated template once per run. Global
// setup runs outside the project's `env`, so each project names its kind in its own file.
import { buildPgliteTemplate, buildPostgresTemplate } from "./template";

export async function setupTemplate(kind: "pglite" | "postgres"): Promise<void> {
  if (kind === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DATABASE_URL is required for the postgres project");
    await buildPostgresTemplate(url);
  } else {
    await buildPgliteTemplate();
  }
}
