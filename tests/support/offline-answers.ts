// Registers the domains' offline answers in each test file's process, as start-up does in the
// app (root/offline-answers.ts): tests call jobs and domain functions without starting a server.
import { registerDomainOfflineAnswers } from "@/root/offline-answers";

registerDomainOfflineAnswers();
