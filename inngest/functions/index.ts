// Every background function, in one list: served to Inngest and registered with the embedded
// runner alike. A new function is added here and nowhere else.
import type { AnyJobDefinition } from "@/lib/jobs/define";
import { approvalExpiry } from "./approval-expiry";
import { contextCompaction } from "./context-compaction";
import { filesDeletion, filesSweep } from "./file-cleanup";
import { memoryBlockSummary } from "./memory-block-summary";
import { postChatMemory } from "./post-chat-memory";
import { recentActivity } from "./recent-activity";
import { regularChatMemoryDigest } from "./regular-chat-memory-digest";
import { skillExtraction } from "./skill-extraction";
import { titleGeneration } from "./title-generation";

export const JOBS: readonly AnyJobDefinition[] = [
  titleGeneration,
  recentActivity,
  memoryBlockSummary,
  postChatMemory,
  regularChatMemoryDigest,
  skillExtraction,
  contextCompaction,
  approvalExpiry,
  filesDeletion,
  filesSweep,
];

/** Each function's display name by its id, for the admin's list of failed jobs. */
export function jobNames(): ReadonlyMap<string, string> {
  return new Map(JOBS.map((job) => [job.id, job.name]));
}
