// A whole server process for multi-process tests: start-up (migrations, lease loop, reaper) and
// the app's route handlers on a port. Prints "LISTENING <url>" when ready.
import { startServer } from "@/lib/server/startup";
import { startAppServer } from "./app-server";

try {
  await startServer();
} catch (error) {
  console.error(`STARTUP FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(3);
}
const server = await startAppServer(Number(process.env.PORT ?? 0));
console.log(`LISTENING ${server.url}`);
