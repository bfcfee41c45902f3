// Every table of the app, re-exported for drizzle's relational API and drizzle-kit.
export * from "./auth";
export * from "./turns";
export * from "./workstreams";
