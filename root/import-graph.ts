// Reads the repository's TypeScript sources and builds the graph of value imports between
// folders. Type-only imports (`import type`, `export type`, and braces that hold only `type`
// names) are left out: they vanish at build time and cannot make a module load another.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE_ROOTS = ["app", "components", "lib", "db", "inngest", "root", "instrumentation.ts"];
const SKIP = /(^|\/)(node_modules|\.next|\.data|migrations)(\/|$)|\.test\.tsx?$|\.d\.ts$/;

export type ImportEdge = { from: string; to: string; specifier: string };

/** Every source file (repo-relative, forward slashes) the graph covers. */
export function sourceFiles(root = REPO_ROOT): string[] {
  const files: string[] = [];
  for (const entry of SOURCE_ROOTS) {
    const full = path.join(root, entry);
    if (!existsSync(full)) continue;
    if (statSync(full).isFile()) {
      files.push(entry);
      continue;
    }
    for (const file of readdirSync(full, { recursive: true, encoding: "utf8" })) {
      const relative = `${entry}/${file.split(path.sep).join("/")}`;
      if (/\.tsx?$/.test(relative) && !SKIP.test(relative)) files.push(relative);
    }
  }
  return files.sort();
}

const STATIC_IMPORT = /(?:^|[\n;])\s*(import|export)\s+([^;]*?)\s*from\s*["']([^"']+)["']/g;
const BARE_IMPORT = /(?:^|[\n;])\s*import\s*["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function isTypeOnly(keyword: string, clause: string): boolean {
  if (/^type\s/.test(clause)) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = (braces[1] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  // `export {}` re-exports nothing; an empty import clause loads the module for its effects.
  if (!names.length) return keyword === "export";
  return names.every((name) => /^type\s/.test(name));
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The value-import specifiers of one source text. */
export function valueSpecifiers(source: string): string[] {
  const text = stripComments(source);
  const found: string[] = [];
  for (const match of text.matchAll(STATIC_IMPORT)) {
    const [, keyword = "", clause = "", specifier = ""] = match;
    if (!isTypeOnly(keyword, clause.trim())) found.push(specifier);
  }
  for (const match of text.matchAll(BARE_IMPORT)) found.push(match[1] ?? "");
  for (const match of text.matchAll(DYNAMIC_IMPORT)) found.push(match[1] ?? "");
  return found;
}

function resolveFile(root: string, fromFile: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith("."))
    base = path.posix.join(path.posix.dirname(fromFile), specifier);
  else return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  if (base.endsWith(".js")) candidates.push(base.replace(/\.js$/, ".ts"));
  return candidates.find((candidate) => {
    const full = path.join(root, candidate);
    return existsSync(full) && statSync(full).isFile();
  });
}

/** The file-level value-import edges inside the repository. */
export function fileEdges(root = REPO_ROOT): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(root)) {
    const source = readFileSync(path.join(root, file), "utf8");
    for (const specifier of valueSpecifiers(source)) {
      const target = resolveFile(root, file, specifier);
      if (target) edges.push({ from: file, to: target, specifier });
    }
  }
  return edges;
}

/**
 * The folder a file belongs to in the house map: a folder of lib/, components/ and inngest/ is
 * named by its first two levels; `app/`, `db/` and top-level files are one folder each.
 */
export function folderOf(file: string): string {
  const parts = file.split("/");
  const [top = "", second] = parts;
  if (parts.length === 1) return top.replace(/\.tsx?$/, "");
  if (top === "app" || top === "db" || top === "root") return top;
  if (parts.length === 2) return top;
  return `${top}/${second}`;
}

/** Folder edges with one example file edge each, self-loops left out. */
export function folderEdges(edges: ImportEdge[]): Map<string, Map<string, ImportEdge>> {
  const graph = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    const from = folderOf(edge.from);
    const to = folderOf(edge.to);
    if (from === to) continue;
    const targets = graph.get(from) ?? new Map<string, ImportEdge>();
    if (!targets.has(to)) targets.set(to, edge);
    graph.set(from, targets);
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan's algorithm). */
export function folderCycles(graph: Map<string, Map<string, ImportEdge>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const nodes = new Set<string>([
    ...graph.keys(),
    ...[...graph.values()].flatMap((t) => [...t.keys()]),
  ]);
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** Every file a module loads, directly or not, through value imports. */
export function reachableFiles(edges: ImportEdge[], start: string): Set<string> {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift())
    for (const target of next.get(file) ?? [])
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
  return seen;
}
