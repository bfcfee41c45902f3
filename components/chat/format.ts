// How an answer's numbers read: tokens, cost, duration and model, in one short line.
import type { MessageMetadata } from "@/lib/chat-client/wire";
import { formatCost } from "@/lib/format/cost";
import { formatDuration, UNKNOWN } from "@/lib/format/duration";

const count = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

/**
 * The details line: "1,204 in · 312 out · $0.0031 · 2.4 s · gpt-4.1". A count or cost the
 * provider did not report (null) reads "—"; one that is simply absent is left out.
 */
export function metaDetails(metadata: MessageMetadata | undefined): string[] {
  if (!metadata) return [];
  const details: string[] = [];
  const known = (value: number | null) => (value === null ? UNKNOWN : count.format(value));
  if (metadata.inputTokens !== undefined) details.push(`${known(metadata.inputTokens)} in`);
  if (metadata.outputTokens !== undefined) details.push(`${known(metadata.outputTokens)} out`);
  if (metadata.reasoningTokens) details.push(`${count.format(metadata.reasoningTokens)} reasoning`);
  if (metadata.costUsd !== undefined) {
    details.push(metadata.costUsd === null ? `${UNKNOWN} cost` : formatCost(metadata.costUsd));
  }
  if (metadata.startedAt && metadata.finishedAt) {
    const ms = Date.parse(metadata.finishedAt) - Date.parse(metadata.startedAt);
    if (Number.isFinite(ms)) details.push(formatDuration(ms));
  }
  if (metadata.model) details.push(metadata.model);
  return details;
}
