// Registers the workstreams domain's per-process services with the server start-up (imported by
// instrumentation.ts before startServer runs the hooks).
import "server-only";
import { onStartup } from "@/lib/server/startup";
import { startWorkstreamServices } from "./services";

onStartup(startWorkstreamServices);
