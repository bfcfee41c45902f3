// Every table is written only by the modules its schema file's header names: the test reads each
// header, finds every insert, update and delete in the source (Drizzle's and hand-written SQL),
// and fails on a write from anywhere else.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCHEMA = path.join(ROOT, "db/schema");
const SOURCE_DIRS = ["lib", "inngest", "root", "app", "db", "instrumentation.ts"];

type Table = { name: string; exportName: string; schemaFile: string };

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full).flatMap((child) => {
    const relative = path.join(entry, child);
    if (child === "node_modules" || child === "migrations") return [];
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(child) && !/\.test\.tsx?$/.test(child) ? [relative] : [];
  });
}

function schemaFiles(): string[] {
  return readdirSync(SCHEMA)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && file !== "index.ts")
    .map((file) => path.join("db/schema", file));
}

function tablesOf(schemaFile: string): Table[] {
  const text = readFileSync(path.join(ROOT, schemaFile), "utf8");
  return [...text.matchAll(/export const (\w+) = pgTable\(\s*"([^"]+)"/g)].map((match) => ({
    exportName: match[1] ?? "",
    name: match[2] ?? "",
    schemaFile,
  }));
}

/** The paths the header's comment names as the writers (a folder ends with a slash or not). */
function namedWriters(schemaFile: string): string[] {
  return [...headerOf(schemaFile).matchAll(/\b((?:lib|inngest|root|app)\/(?:[\w./-]*\w)?)/g)].map(
    (match) => match[1] ?? "",
  );
}

/** The schema file's opening comment, as one line of prose. */
function headerOf(schemaFile: string): string {
  const lines = readFileSync(path.join(ROOT, schemaFile), "utf8").split("\n");
  const end = lines.findIndex((line) => !line.startsWith("//"));
  return lines
    .slice(0, end)
    .map((line) => line.replace(/^\/\/\s?/, ""))
    .join(" ");
}

// A Drizzle write is called on the database or a transaction (`db.insert(t)`, `tx.update(t)`, or
// a chain that starts on its own line); `set.delete(x)` on a Map or a Set is not one.
const DRIZZLE_RECEIVER = /(?:\b(?:db|tx|trx|database|executor)|\)|^)\s*$/;

function writesIn(file: string, tables: Table[]): Table[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return tables.filter(({ name, exportName }) => {
    const quoted = `"${name}"`;
    const sqlWrite = new RegExp(
      `\\b(insert\\s+into|update|delete\\s+from)\\s+${quoted.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
      "i",
    );
    const drizzleWrite = new RegExp(`\\.(?:insert|update|delete)\\(\\s*${exportName}\\s*[),]`, "g");
    const drizzle = [...text.matchAll(drizzleWrite)].some((match) => {
      const before = text.slice(Math.max(0, (match.index ?? 0) - 40), match.index);
      return DRIZZLE_RECEIVER.test(before.split("\n").at(-1) ?? "");
    });
    return sqlWrite.test(text) || drizzle;
  });
}

function covers(writer: string, file: string): boolean {
  return file === writer || file.startsWith(writer.endsWith("/") ? writer : `${writer}/`);
}

describe("the tables' writers", () => {
  const schemas = schemaFiles();
  const tables = schemas.flatMap(tablesOf);
  const files = SOURCE_DIRS.flatMap(sourceFiles).filter((file) => !file.startsWith("db/schema/"));

  it("every schema file's header names who writes its tables", () => {
    for (const schema of schemas) {
      expect(/Written (only )?by/.test(headerOf(schema)), schema).toBe(true);
    }
  });

  it("every table is written only by the modules its schema file's header names", () => {
    const strays: string[] = [];
    for (const file of files) {
      for (const table of writesIn(file, tables)) {
        const writers = namedWriters(table.schemaFile);
        if (!writers.some((writer) => covers(writer, file))) {
          strays.push(
            `${file} writes ${table.name} (${table.schemaFile} names ${writers.join(", ") || "none"})`,
          );
        }
      }
    }
    expect(strays).toEqual([]);
  });

  it("finds the writes it checks (a turn's row and its messages)", () => {
    const found = (name: string) =>
      files.filter((file) => writesIn(file, tables).some((table) => table.name === name));
    expect(found("turns")).toContain("lib/turns/turn-records.ts");
    expect(found("messages")).toContain("lib/turns/message-store.ts");
  });
});
