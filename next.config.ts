import type { NextConfig } from "next";
import { devOriginHostnames } from "./root/dev-origins";
import { exitOnUnsupportedNode } from "./root/node-version.cjs";

// `next dev`, `next build` and `next start` all load this file first: an unsupported Node stops
// here with one line instead of serving with subtle failures later.
exitOnUnsupportedNode();

const nextConfig: NextConfig = {
  // PGlite loads its WASM and extension bundles from its own package folder at run time; unpdf
  // loads PDF.js the same way, and the upload and extraction libraries are plain Node packages.
  // The rest are loaded once per process instead of bundled: Turbopack gives each group of routes
  // its own copy of the server code, so a bundled library is held (and its tables built) once per
  // group. Kept out of the bundles, the tokenizer's 200,000-entry vocabulary, the AI SDK, zod,
  // Inngest and better-auth cut the server's live heap from 165 to 103 MiB (bench/heap.ts shows
  // what the heap holds). Not React-bound packages such as
  // @ai-sdk/react: server rendering must use Next's own React.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "postgres",
    "unpdf",
    "mammoth",
    "busboy",
    "file-type",
    "gpt-tokenizer",
    "ai",
    "@ai-sdk/openai",
    "zod",
    "inngest",
    "better-auth",
  ],
  // `next dev` otherwise serves its HMR socket only to pages opened at localhost, and a page opened
  // at 127.0.0.1 or from a phone on the LAN never hydrates. Ignored by `next start`.
  allowedDevOrigins: devOriginHostnames(),
  poweredByHeader: false,
  // The redirect ran before proxy.ts and turned `/api/workstreams/..` into a redirect to `/api`;
  // proxy.ts redirects pages itself and routes API paths as written.
  skipTrailingSlashRedirect: true,
  reactStrictMode: true,
  // `npm test` type-checks the whole repository in its own phase just before it builds; the
  // build's second check of the same files is then skipped. Every other build checks types.
  typescript: { ignoreBuildErrors: process.env.WORKSTREAMS_BUILD_TYPECHECKED === "1" },
};

export default nextConfig;
