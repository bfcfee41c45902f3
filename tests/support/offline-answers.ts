// Registers the domains' offline answers in each test file's process, as start-up does in the
// app (root/offline-answers.ts): tests call jobs and domain functions without starting a server.
// Imported in a hook, after the test file has set its environment: the domains read the config.
import { beforeAll } from "vitest";

beforeAll(async () => {
  const { registerDomainOfflineAnswers } = await import("@/root/offline-answers");
  registerDomainOfflineAnswers();
});
