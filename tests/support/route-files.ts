// The app's API routes and pages, read from the file system the way Next.js routes them. Only
// Node built-ins here, so the browser tests can list routes too (./routes.ts adds what needs the
// app's modules).
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export type ApiRoute = {
  /** e.g. /api/workstreams/[workstreamId]/messages */
  pattern: string;
  file: string;
  /** A catch-all is optional when written `[[...name]]`: it also matches no segment at all. */
  segments: Array<{ kind: "static" | "param" | "catchAll"; name: string; optional?: true }>;
};

export function listApiRoutes(root = path.resolve("app/api")): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "route.ts") {
        const relative = path.relative(path.resolve("app"), dir).split(path.sep);
        routes.push({
          pattern: `/${relative.join("/")}`,
          file: full,
          segments: segmentsOf(relative),
        });
      }
    }
  };
  walk(root);
  // Static segments win over dynamic ones, as in Next.js.
  return routes.sort((a, b) => specificity(b) - specificity(a));
}

const isGroup = (part: string) => part.startsWith("(") && part.endsWith(")");

function segmentsOf(parts: string[]): ApiRoute["segments"] {
  return parts
    .filter((part) => !isGroup(part))
    .map((part) => {
      if (part.startsWith("[[..."))
        return { kind: "catchAll" as const, name: part.slice(5, -2), optional: true as const };
      if (part.startsWith("[...")) return { kind: "catchAll" as const, name: part.slice(4, -1) };
      if (part.startsWith("[")) return { kind: "param" as const, name: part.slice(1, -1) };
      return { kind: "static" as const, name: part };
    });
}

/** The app's pages (each page.tsx under app/), as URL patterns with their segments, like the API routes. */
export function listPages(root = path.resolve("app")): ApiRoute[] {
  const pages: ApiRoute[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== "api") walk(full);
      } else if (name === "page.tsx") {
        const relative = path.relative(root, dir).split(path.sep).filter(Boolean);
        const visible = relative.filter((part) => !isGroup(part));
        pages.push({ pattern: `/${visible.join("/")}`, file: full, segments: segmentsOf(visible) });
      }
    }
  };
  walk(root);
  return pages;
}

function specificity(route: ApiRoute): number {
  return route.segments.reduce(
    (score, segment, index) =>
      score +
      (segment.kind === "static" ? 3 : segment.kind === "param" ? 2 : 1) * 10 ** (8 - index),
    0,
  );
}
