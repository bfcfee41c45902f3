import type { NextConfig } from "next";
import { exitOnUnsupportedNode } from "./lib/server/node-version.cjs";

// `next dev`, `next build` and `next start` all load this file first: an unsupported Node stops
// here with one line instead of serving with subtle failures later.
exitOnUnsupportedNode();

const nextConfig: NextConfig = {
  // PGlite loads its WASM and extension bundles from its own package folder at run time; unpdf
  // loads PDF.js the same way, and the upload and extraction libraries are plain Node packages.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "postgres",
    "unpdf",
    "mammoth",
    "busboy",
    "file-type",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
