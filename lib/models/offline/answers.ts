/**
 * What the domains teach the offline model, so a member without an API key sees their work: the
 * composition root (root/offline-answers.ts) registers each domain's answers once per process.
 * The model knows no domain; it looks answers up here by key:
 * - a task answer by the task a background call names in `providerOptions.offline.task`;
 * - a tool report by the name of the tool whose result it reads back to the member;
 * - asides, lines an ordinary answer opens with (what the instructions say about the message);
 * - requests, plain words a domain turns into one of its tool calls (documented in the demo's
 *   "See all triggers" dialog through `documented`).
 */
import { processSingleton } from "@/lib/kernel/singleton";

/** The call's prompt with the member's triggers removed, and its instructions. */
export type OfflineTaskAnswer = (input: { prompt: string; system: string }) => string;
/** A tool result in plain words; undefined when the result has another shape. */
export type OfflineToolReport = (output: unknown) => string | undefined;
/** The member's message as an aside or a request reads it. */
export type OfflineMessage = {
  system: string;
  /** The message without triggers. */
  text: string;
  files: ReadonlyArray<{ filename?: string; mediaType: string }>;
  /** The tools the call offers. */
  tools: ReadonlyArray<{ name: string; description?: string }>;
};
type Request = { name: string; argsJson: string };

export interface OfflineAnswers {
  tasks?: Record<string, OfflineTaskAnswer>;
  toolReports?: Record<string, OfflineToolReport>;
  asides?: Array<(message: OfflineMessage) => string | undefined>;
  requests?: Array<(message: OfflineMessage) => Request | null>;
  documented?: Array<{ trigger: string; effect: string }>;
}

const registered = processSingleton("offline-answer-registrations", () => [] as OfflineAnswers[]);

/** Adds a domain's answers; a later registration of the same task or tool replaces the earlier. */
export function registerOfflineAnswers(answers: OfflineAnswers): void {
  registered.push(answers);
}

function latest<T>(table: (answers: OfflineAnswers) => Record<string, T> | undefined, key: string) {
  const found = registered.findLast((answers) => Object.hasOwn(table(answers) ?? {}, key));
  return found ? table(found)?.[key] : undefined;
}

export function taskAnswer(task: unknown): OfflineTaskAnswer | undefined {
  return typeof task === "string" ? latest((answers) => answers.tasks, task) : undefined;
}

export function toolReport(tool: string): OfflineToolReport | undefined {
  return latest((answers) => answers.toolReports, tool);
}

export function asides(message: OfflineMessage): string[] {
  return registered.flatMap(({ asides = [] }) => asides.flatMap((aside) => aside(message) ?? []));
}

/** The first registered request the message makes, or null. */
export function plainRequest(message: OfflineMessage): Request | null {
  for (const request of registered.flatMap((answers) => answers.requests ?? [])) {
    const found = request(message);
    if (found) return found;
  }
  return null;
}

export function documentedRequests(): ReadonlyArray<{ trigger: string; effect: string }> {
  return registered.flatMap((answers) => answers.documented ?? []);
}
