// One compaction of a workstream, as the context-compaction job runs it: weigh the uncompacted
// history against the window of the model the last turn used; if it passed the threshold, claim
// the workstream (is_compacting under a lease, renewed while the model works), summarize the older
// part with the previous summary folded in, and write the compaction, the state delta and the
// moved pointers together. The claim is released in every outcome: by the write, by the release
// here when anything else happened, or by the reaper if this process dies.
import "server-only";
import { config } from "@/lib/config";
import { compactionSummaryMessage } from "@/lib/context/build";
import { budgetTokens, windowOf } from "@/lib/context/window";
import { errorClass } from "@/lib/kernel/error-class";
import { publishContextChange } from "@/lib/state/publish";
import { notifyWorkstreamChanged } from "@/lib/workstreams/live";
import {
  type Candidate,
  type Claim,
  claimWorkstream,
  readCandidate,
  readRange,
  releaseClaim,
  renewClaim,
  writeCompaction,
} from "./store";
import { type RangeSummary, summarizeRange } from "./summarize";
import { compactedCount, compactionDue, historyBudget, summaryMaxChars } from "./threshold";

export type CompactionOutcome =
  | { compacted: false; reason: "gone" | "not_due" | "busy" | "lost" }
  | {
      compacted: true;
      compactionId: string;
      messages: number;
      tokensBefore: number;
      tokensAfter: number;
      durationMs: number;
    };

/** The summarizer: the model by default; tests give one that fails or waits. */
export type Summarize = typeof summarizeRange;

/** The owner's tabs learn that the flag moved (and the sidebar, the admin console's metadata). */
async function announceFlag(workstreamId: string): Promise<void> {
  await notifyWorkstreamChanged({ workstreamId, reason: "compacting" }).catch((error: unknown) => {
    console.error(`[compaction] announcing ${workstreamId} failed (${errorClass(error)})`);
  });
}

export async function compactWorkstream({
  workstreamId,
  turnId,
  summarize = summarizeRange,
}: {
  workstreamId: string;
  /** The turn whose end asked: its model's window is the one that counts. */
  turnId: string;
  summarize?: Summarize;
}): Promise<CompactionOutcome> {
  const startedAt = performance.now();
  const candidate = await readCandidate({ workstreamId, turnId });
  if (!candidate) return { compacted: false, reason: "gone" };
  const window = windowOf(candidate.model ?? "");
  const tokensBefore = historyBudget(candidate.history);
  const count = compactedCount(candidate.history, window);
  // Messages beyond what a turn reads back are never sent to the model: they are due too.
  const leftOut = Math.max(0, candidate.history.length - config.context.maxHistoryMessages);
  // Two turns ending together queue two jobs: the second finds the history compacted already.
  if (!compactionDue({ historyTokens: tokensBefore, leftOut, window }) || count === 0) {
    return { compacted: false, reason: "not_due" };
  }
  const claim: Claim = { workstreamId, token: crypto.randomUUID() };
  const claimed = await claimWorkstream({
    workstreamId,
    lastCompactedMessageId: candidate.lastCompactedMessageId,
    token: claim.token,
  });
  if (!claimed) return { compacted: false, reason: "busy" };
  await announceFlag(workstreamId);

  const lost = new AbortController();
  const renewal = setInterval(
    () => {
      renewClaim(claim)
        .then((held) => {
          if (!held) lost.abort(new Error("The compaction's claim lapsed"));
        })
        .catch((error: unknown) => {
          console.error(`[compaction] renewing ${workstreamId} failed (${errorClass(error)})`);
        });
    },
    Math.max(100, Math.floor(config.compaction.leaseMs / 3)),
  );
  renewal.unref();
  let written = false;
  try {
    const result = await summarizeCandidate(candidate, count, window, summarize, lost.signal);
    const range = candidate.history.slice(0, count);
    const first = range[0];
    const last = range.at(-1);
    if (!first || !last) return { compacted: false, reason: "not_due" };
    const tokensAfter =
      budgetTokens(compactionSummaryMessage(result.summary)) +
      historyBudget(candidate.history.slice(count));
    const durationMs = Math.round(performance.now() - startedAt);
    const outcome = await writeCompaction({
      id: `cmp_${crypto.randomUUID().replaceAll("-", "")}`,
      claim,
      organizationId: candidate.organizationId,
      first: { id: first.id, seq: first.seq },
      last: { id: last.id, seq: last.seq },
      messageCount: count,
      summary: result.summary,
      delta: result.delta,
      tokensBefore,
      tokensAfter,
      model: result.model,
      durationMs,
    });
    if (!outcome) return { compacted: false, reason: "lost" };
    written = true;
    const owner = {
      organizationId: candidate.organizationId,
      ownerId: candidate.ownerId,
      workstreamId,
    };
    if (outcome.changes.added.length || outcome.changes.evicted.length) {
      await publishContextChange({ ...owner, reason: "state" });
    }
    await publishContextChange({ ...owner, reason: "compaction" });
    await announceFlag(workstreamId);
    return {
      compacted: true,
      compactionId: outcome.row.id,
      messages: count,
      tokensBefore,
      tokensAfter,
      durationMs,
    };
  } finally {
    clearInterval(renewal);
    if (!written) {
      // A release that fails leaves the flag to the reaper once the lease lapses.
      const released = await releaseClaim(claim).catch((error: unknown) => {
        console.error(`[compaction] releasing ${workstreamId} failed (${errorClass(error)})`);
        return false;
      });
      if (released) await announceFlag(workstreamId);
    }
  }
}

async function summarizeCandidate(
  candidate: Candidate,
  count: number,
  window: number,
  summarize: Summarize,
  signal: AbortSignal,
): Promise<RangeSummary> {
  const range = candidate.history.slice(0, count);
  const { messages, state } = await readRange({
    workstreamId: candidate.workstreamId,
    fromSeq: range[0]?.seq ?? 0,
    toSeq: range.at(-1)?.seq ?? 0,
  });
  return summarize(
    {
      previousSummary: candidate.previousSummary,
      messages,
      state,
      limit: summaryMaxChars(window),
    },
    { signal },
  );
}
