// A whole server process for multi-process tests: start-up (migrations, lease loop, reaper, the
// domains' wiring and the job engine) and the app's route handlers on a port. Prints "LISTENING <url>" when ready.
import { onStartup, startServer } from "@/root/startup";
import { wireDomains } from "@/root/wiring";
import { startAppServer } from "./app-server";

// As instrumentation.ts does: OpenTelemetry only when an endpoint is configured.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTelemetry } = await import("@/lib/telemetry/start");
  startTelemetry();
}
try {
  // As instrumentation.ts does: the domains (and the job engine) start after migrations.
  onStartup(wireDomains);
  await startServer();
} catch (error) {
  console.error(`STARTUP FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(3);
}
const server = await startAppServer(Number(process.env.PORT ?? 0));
console.log(`LISTENING ${server.url}`);
