import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  // Tests load server modules outside Next's server bundle, where `server-only` would throw.
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};
// Files about the model contract and telemetry, not the database: the database under them does
// not change what they show, so they run on the embedded one only (which every machine has), and
// the Postgres run keeps its minutes for what a database can break.
const ONE_DATABASE = [
  "tests/integration/model-profiles.test.ts",
  "tests/integration/models.test.ts",
  "tests/integration/learning-profiles.test.ts",
  "tests/integration/learning-openai.test.ts",
  "tests/integration/eval.test.ts",
  "tests/integration/context-window.test.ts",
  "tests/integration/telemetry-export.test.ts",
];
const integration = (kind: "pglite" | "postgres") => ({
  resolve: { alias },
  test: {
    name: `integration-${kind}`,
    include: ["tests/integration/**/*.test.ts"],
    // `*.pglite.test.ts` / `*.postgres.test.ts` hold what only one kind of database can show.
    exclude: [
      `tests/integration/**/*.${kind === "pglite" ? "postgres" : "pglite"}.test.ts`,
      ...(kind === "postgres" ? ONE_DATABASE : []),
    ],
    globalSetup: [`tests/support/global-setup-${kind}.ts`],
    // The domains' offline answers, as the composition root registers them at start-up.
    setupFiles: ["tests/support/offline-answers.ts"],
    // Memories get vectors and retrieval is hybrid, without a network (tests may unset it).
    env: {
      TEST_DB_KIND: kind,
      NODE_ENV: "test" as const,
      OPENAI_EMBEDDING_MODEL: "offline",
      // Uploads of tests that keep the default store stay out of the working tree.
      WORKSTREAMS_FILES_DIR: path.join(tmpdir(), "workstreams-test-files"),
    },
    testTimeout: 60_000,
    // A file's set-up copies a database, starts an app server and signs people up: on a loaded
    // CI box that has taken over a minute, and a timed-out hook fails every test of the file.
    hookTimeout: 120_000,
    // Each file gets its own database copied from a migrated template, so files run in parallel.
    fileParallelism: true,
    // Vitest's default is one worker less than the cores: one on a 2-core machine. These files
    // wait on servers, sockets and timers more than they compute, so two share two cores well.
    maxWorkers: 2,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "root/**/*.test.ts",
            "db/**/*.test.ts",
            "components/**/*.test.ts",
            "tests/unit/**/*.test.ts",
          ],
          env: { NODE_ENV: "test", OPENAI_EMBEDDING_MODEL: "offline" },
        },
      },
      integration("pglite"),
      ...(process.env.TEST_DATABASE_URL ? [integration("postgres")] : []),
    ],
  },
});
