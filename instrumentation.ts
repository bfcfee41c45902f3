// Next.js start-up hook: migrate and seed before the first request, never during `next build`.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // next.config.ts checks this too, but a server that does not load it (a standalone build's
  // server.js) must still refuse an unsupported Node before it opens the database.
  const { exitOnUnsupportedNode } = await import("@/root/node-version.cjs");
  exitOnUnsupportedNode();
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // OpenTelemetry only when an endpoint is configured: otherwise its SDK is not even loaded.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTelemetry } = await import("@/lib/telemetry/start");
    startTelemetry();
  }
  // Loading is inside the guard too: a malformed setting throws while lib/config loads.
  const { onStartup, startServerOrExit } = await import("@/root/startup");
  await startServerOrExit(async () => {
    // The domains are connected (hooks, bus listeners) once the database is migrated.
    const { wireDomains } = await import("@/root/wiring");
    onStartup(wireDomains);
  });
}
