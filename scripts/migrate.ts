// `npm run db:migrate`: applies the committed migrations to DATABASE_URL or the embedded database.
import { databaseOptionsFromEnv, openDatabase } from "../db/client";
import { migrateDatabase } from "../db/migrate";

const options = databaseOptionsFromEnv();
const handle = await openDatabase(options);
try {
  await migrateDatabase(handle);
  console.log(
    `Migrated ${options.kind === "postgres" ? "Postgres" : `PGlite at ${options.dataDir}`}.`,
  );
} finally {
  await handle.close();
}
