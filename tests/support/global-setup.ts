// Vitest global setup for integration tests: build the migrated template once per run.
import { buildPgliteTemplate, buildPostgresTemplate } from "./template";

export default async function setup(): Promise<void> {
  if (process.env.TEST_DB_KIND === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DATABASE_URL is required for the postgres project");
    await buildPostgresTemplate(url);
  } else {
    await buildPgliteTemplate();
  }
}
