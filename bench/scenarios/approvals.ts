// A turn with one approved tool call, end to end: the member asks the chief to pass a note to
// another of their workstreams (send_message, which asks first), the turn ends suspended with the
// approval request, the member approves, and the same turn goes on to its end. Timed at the
// client: send → suspended (the stream's end), approve (the answer's round trip), approve → the
// continued turn's last event (a follower from the suspension's offset), and the whole round trip.
import { performance } from "node:perf_hooks";
import { type Summary, summarize } from "../lib/stats";
import type { BenchUser } from "../lib/users";
import { userMessage } from "../lib/users";

export type ApprovalsResult = {
  samples: number;
  suspendMs: Summary;
  answerMs: Summary;
  continueMs: Summary;
  roundTripMs: Summary;
  failed: number;
};

export async function runApprovals({
  user,
  samples,
  log,
}: {
  user: BenchUser;
  samples: number;
  log: (line: string) => void;
}): Promise<ApprovalsResult> {
  const create = (json: unknown) =>
    user.client.json<{ id?: string }>("POST", "/api/workstreams", json);
  const source = await create({ mode: "direct", agentId: "chief" });
  const target = await create({ mode: "group", title: "Bench inbox" });
  if (!source.body.id || !target.body.id)
    throw new Error("approvals: could not create workstreams");
  const id = source.body.id;
  const suspend: number[] = [];
  const answer: number[] = [];
  const go: number[] = [];
  const whole: number[] = [];
  let failed = 0;
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const turn = await user.client.streamTurn(
      `/api/workstreams/${id}/messages`,
      userMessage(`tell my Bench inbox workstream: note ${i} from the approval benchmark`),
      30_000,
    );
    const approvalId = turn.approvalIds?.[0];
    if (turn.status !== 200 || !turn.turnId || !approvalId) {
      failed++;
      log(`approvals: sample ${i} did not suspend (${turn.error ?? turn.status})`);
      continue;
    }
    const suspended = performance.now();
    const answered = await user.client.json<{ continued?: boolean }>(
      "POST",
      `/api/workstreams/${id}/turns/${turn.turnId}/approvals/${approvalId}`,
      { approved: true },
    );
    const approvedAt = performance.now();
    const rest = await user.client.follow(`/api/workstreams/${id}/events?after=${turn.lastId}`);
    const ended = performance.now();
    if (answered.status !== 200 || rest.error) {
      failed++;
      log(`approvals: sample ${i} did not complete (${answered.status} ${rest.error ?? ""})`);
      continue;
    }
    suspend.push(suspended - started);
    answer.push(approvedAt - suspended);
    go.push(ended - suspended);
    whole.push(ended - started);
  }
  const result = {
    samples,
    suspendMs: summarize(suspend),
    answerMs: summarize(answer),
    continueMs: summarize(go),
    roundTripMs: summarize(whole),
    failed,
  };
  log(
    `approvals: suspend → approve → complete p50 ${result.roundTripMs.p50} ms (p95 ${result.roundTripMs.p95})${failed ? `, ${failed} failed` : ""}`,
  );
  return result;
}
