// Every table of the app, re-exported for drizzle's relational API and drizzle-kit.
export * from "./activity";
export * from "./approvals";
export * from "./auth";
export * from "./compactions";
export * from "./context";
export * from "./files";
export * from "./jobs";
export * from "./memories";
export * from "./memory-digests";
export * from "./onboarding";
export * from "./skills";
export * from "./turns";
export * from "./workstreams";
