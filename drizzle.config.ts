import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL here; migrations are applied by drizzle-orm's migrator at
// start-up (db/migrate.ts), because `drizzle-kit migrate` on PGlite skips extensions silently.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
