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
export type OfflineTaskInput = { prompt: string; system: string };
export type OfflineTaskAnswer = (input: OfflineTaskInput) => string;
/** A tool result in plain words; undefined when the result has another shape. */
export type OfflineToolReport = (output: unknown) => string | undefined;
export type OfflineAsideInput = {
  system: string;
  /** The member's message without triggers. */
  text: string;
  files: ReadonlyArray<{ filename?: string; mediaType: string }>;
};
export type OfflineAside = (input: OfflineAsideInput) => string | undefined;
export type OfflineToolRequest = { name: string; argsJson: string };
export type OfflineRequestInput = {
  system: string;
  /** The member's message without triggers. */
  text: string;
  /** The tools the call offers. */
  tools: ReadonlyArray<{ name: string; description?: string }>;
};
export type OfflineRequest = (input: OfflineRequestInput) => OfflineToolRequest | null;
export type DocumentedRequest = { trigger: string; effect: string };

export interface OfflineAnswers {
  tasks?: Record<string, OfflineTaskAnswer>;
  toolReports?: Record<string, OfflineToolReport>;
  asides?: OfflineAside[];
  requests?: OfflineRequest[];
  documented?: DocumentedRequest[];
}

const registry = processSingleton("offline-answers", () => ({
  tasks: new Map<string, OfflineTaskAnswer>(),
  toolReports: new Map<string, OfflineToolReport>(),
  asides: [] as OfflineAside[],
  requests: [] as OfflineRequest[],
  documented: [] as DocumentedRequest[],
}));

/** Adds a domain's answers; a later registration of the same key replaces the earlier one. */
export function registerOfflineAnswers(answers: OfflineAnswers): void {
  for (const [task, answer] of Object.entries(answers.tasks ?? {}))
    registry.tasks.set(task, answer);
  for (const [tool, report] of Object.entries(answers.toolReports ?? {})) {
    registry.toolReports.set(tool, report);
  }
  registry.asides.push(...(answers.asides ?? []));
  registry.requests.push(...(answers.requests ?? []));
  registry.documented.push(...(answers.documented ?? []));
}

export function taskAnswer(task: unknown): OfflineTaskAnswer | undefined {
  return typeof task === "string" ? registry.tasks.get(task) : undefined;
}

export function toolReport(tool: string): OfflineToolReport | undefined {
  return registry.toolReports.get(tool);
}

export function asides(input: OfflineAsideInput): string[] {
  return registry.asides.flatMap((aside) => aside(input) ?? []);
}

/** The first registered request the message makes, or null. */
export function plainRequest(input: OfflineRequestInput): OfflineToolRequest | null {
  for (const request of registry.requests) {
    const found = request(input);
    if (found) return found;
  }
  return null;
}

export function documentedRequests(): readonly DocumentedRequest[] {
  return registry.documented;
}
