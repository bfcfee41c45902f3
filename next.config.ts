import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WASM and extension bundles from its own package folder at run time.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector", "postgres"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
