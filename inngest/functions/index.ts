// Every background function, in one list: served to Inngest and registered with the embedded
// runner alike. A new function is added here and nowhere else.
import type { AnyJobDefinition } from "@/inngest/define";
import { approvalExpiry } from "./approval-expiry";
import { memoryBlockSummary } from "./memory-block-summary";
import { recentActivity } from "./recent-activity";
import { titleGeneration } from "./title-generation";

export const JOBS: readonly AnyJobDefinition[] = [
  titleGeneration,
  recentActivity,
  memoryBlockSummary,
  approvalExpiry,
];
