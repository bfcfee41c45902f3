// One turn's run, stage by stage: COMPOSE_REQUEST, SEND_REQUEST, STREAM_RESPONSE (with a
// TOOL_CALL stage for each tool call inside the bounded tool loop), RENDER, then cleanup that
// always runs. Each stage writes the turn's status as it starts; hooks may transform, guard or
// observe at its pre and post points.

import { setImmediate as nextEventLoopTurn } from "node:timers/promises";
import { type LanguageModelUsage, readUIMessageStream, type UIMessageChunk } from "ai";
import { getDatabase } from "@/db/client";
import { defaultResolveAgent, type ResolvedAgent } from "@/lib/agents/resolve-agent";
import {
  CONSULT_TOOL,
  type ConsultationTally,
  consultationsSettled,
  consultSpecialistTool,
  emptyTally,
  specialistsFor,
} from "@/lib/agents/specialists";
import { recordApprovals } from "@/lib/approvals/store";
import type { Viewer } from "@/lib/auth/viewer";
import { compactionDue, historyBudget } from "@/lib/compaction/threshold";
import { config } from "@/lib/config";
import { resolveAttachments } from "@/lib/files/resolve";
import { turnCompleted } from "@/lib/jobs/events";
import { wakeJobsSoon } from "@/lib/jobs/port";
import { errorClass } from "@/lib/kernel/error-class";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { type RetrievedMemory, retrieveMemories } from "@/lib/memory/retrieve";
import { streamModelText } from "@/lib/models/calls";
import { costUsd } from "@/lib/models/pricing";
import type { Attempt } from "@/lib/models/resilient-model";
import { sumUsage, type TokenUsage, tokenUsage } from "@/lib/models/usage";
import { mayHoldSkills } from "@/lib/skills/procedure";
import type { ContextRecord } from "@/lib/state/schema";
import type { TurnLog } from "@/lib/stream/event-log";
import { TextRechunker } from "@/lib/stream/rechunk";
import { statusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { bus, type StageScope, stage } from "./bus";
import { composeRequest } from "./context";
import {
  type HistoryMessage,
  type KeptContext,
  messageBudgetTokens,
  windowOf,
} from "./context-window";
import {
  afterStage,
  beforeStage,
  GuardRefusal,
  type HookContext,
  hasStageHooks,
  hooksOf,
  runStageHooks,
} from "./hooks";
import { countTokens, type MessageMetadata, type WorkstreamMessage } from "./messages";
import {
  cancelled,
  describeModelError,
  failed,
  logTurnError,
  type Outcome,
  stopCode,
} from "./outcome";
import { isFirstTurn, preparingPreamble, ToolBatchAnnouncer } from "./preambles";
import { runRegistry, StopRequested } from "./run-registry";
import { type ResumedTurn, resumedRecord, stepsSoFar, suspended } from "./suspend";
import { refuseForbidden, toolApprovalFor } from "./tool-authority";
import { gateTools } from "./tool-gate";
import { TurnTrace } from "./trace";
import { closeTurn, type OpeningRead, type TurnRow } from "./turn-store";

export type RunInput = {
  turn: TurnRow;
  workstream: WorkstreamRow;
  /** The messages since the last compaction, the new one last (read when the turn was opened). */
  history: HistoryMessage[];
  historyLeftOut: number;
  /** The workstream's state, plan and memory block, read with the history. */
  kept: KeptContext;
  /** The pre-seeded memories and the full-text matches of the new message, read with it. */
  memories: OpeningRead["memories"];
  /** The skills the member's agents are offered, read with it. */
  skills: OpeningRead["skills"];
  /** The workstream's files read with it; a continued turn reads what its history names. */
  files?: OpeningRead["files"];
  viewer: Viewer;
  controller: AbortController;
  log: TurnLog;
  /** The turn goes on after its approvals were answered, from the answer it kept then. */
  resumed?: ResumedTurn;
  /** The run's stage timings so far (RECEIVE_INPUT's, for a new turn). */
  trace?: TurnTrace;
};

export async function runTurn(given: RunInput): Promise<void> {
  const trace =
    given.trace ??
    new TurnTrace({
      turnId: given.turn.id,
      workstreamId: given.workstream.id,
      organizationId: given.workstream.organizationId,
      run: given.resumed ? "continue" : "start",
    });
  const input = { ...given, trace };
  const { turn, controller } = input;
  let outcome: Outcome;
  // What the model was sent, by section: kept with the turn's end whatever the outcome.
  let context: ContextRecord | null = null;
  try {
    outcome = await execute(input, (record) => {
      context = record;
    });
  } catch (error) {
    if (controller.signal.aborted) outcome = cancelled(turn.id, stopCode(controller.signal), null);
    else {
      if (!(error instanceof GuardRefusal)) logTurnError(turn.id, "failed", error);
      outcome = failed(turn.id, describeModelError(error), null);
    }
  }
  await finish(input, outcome, context);
}

function hookContext({ turn, workstream, viewer }: RunInput): HookContext {
  return {
    turnId: turn.id,
    workstreamId: workstream.id,
    organizationId: workstream.organizationId,
    userId: viewer.userId,
  };
}

function stageScope({ turn, log, trace }: RunInput): StageScope {
  return { turnId: turn.id, status: (status) => log.append(statusChunk(turn.id, status)), trace };
}

async function execute(
  input: RunInput & { trace: TurnTrace },
  onComposed: (context: ContextRecord) => void,
): Promise<Outcome> {
  const { turn, workstream, history, historyLeftOut, kept, viewer, controller, log, resumed } =
    input;
  const ctx = hookContext(input);
  const scope = stageScope(input);
  const startedAt = new Date().toISOString();
  const resolved = await resolveAgent(input, input.workstream.agentId);
  // Stopped while pending: the turn ends cancelled without the model ever being called.
  controller.signal.throwIfAborted();
  // The turn becomes active with its next logged events, in the same statement.
  log.activate(resolved.model.modelId);

  const composed = await stage(scope, "COMPOSE_REQUEST", async () => {
    // Something to read while the context is gathered: the greeting on the first turn.
    if (!resumed) {
      const first = isFirstTurn(history, historyLeftOut > 0 || !!workstream.lastCompactedMessageId);
      log.append(preparingPreamble(turn.id, resolved.agent, first));
    }
    const memories = await knowledge(input, scope);
    // Attachment URLs are made fresh for every turn; stored messages name files by id only.
    const resolveStartedAt = performance.now();
    const attachments = await resolveAttachments({
      workstreamId: workstream.id,
      messages: history.map(({ message }) => message),
      modelId: resolved.model.modelId,
      known: input.files,
    });
    const attachmentsMs = performance.now() - resolveStartedAt;
    const request = await composeRequest({
      attachments,
      attachmentsMs,
      workstream,
      agent: resolved.agent,
      modelId: resolved.model.modelId,
      viewer,
      history,
      historyLeftOut,
      kept,
      tools: resolved.tools,
      memories,
      skills: input.skills,
    });
    onComposed(request.record);
    const payload = await beforeStage(
      "COMPOSE_REQUEST",
      { instructions: request.instructions, messages: request.messages },
      ctx,
    );
    await afterStage("COMPOSE_REQUEST", payload, ctx);
    return payload;
  });
  const metadata: MessageMetadata = {
    agentId: resolved.agent.id,
    turnId: turn.id,
    model: resolved.model.modelId,
    reasoningProfile: resolved.reasoningProfile,
    startedAt: resumed?.message.metadata?.startedAt ?? startedAt,
  };
  log.append({ type: "start", messageId: turn.assistantMessageId, messageMetadata: metadata });

  let final: WorkstreamMessage | null = null;
  let streamError: unknown = null;
  /** Each finished model call's usage and how it ended, in order. */
  const stepsEnded: Array<{ usage: TokenUsage | null; finishReason: string }> = [];
  // After an approval the turn goes on with the steps it has left.
  const stepsBefore = resumed ? stepsSoFar(resumed.message) : 0;

  let sentFirstText = false;
  // On Postgres, with no other turn in this process, the model's stream holds the rest of the
  // answer until the first text is committed and on its way to the client: otherwise the SDK
  // streams the rest through its stages while that commit's reply waits to be read, and again
  // before Node sends the response's write (it sends a tick's writes once the tick's promise
  // callbacks have all run; hence one turn of the event loop after). PGlite runs the commit on
  // this thread, so there is no reply to wait for. With other turns in flight the thread is
  // shared anyway, and holding would only put the rest behind their statements.
  let releaseRest: (written?: Promise<void>) => void = () => {};
  const { kind } = await getDatabase();
  const holdsRest = kind === "postgres" && !runRegistry.busyWithOthers(turn.id);
  if (holdsRest) {
    resolved.model.pacing.afterFirstText = new Promise<void>((resolve) => {
      releaseRest = resolve;
    });
  }
  let firstTextWritten: Promise<void> | undefined;
  const rechunker = new TextRechunker({
    min: config.turns.chunkMinChars,
    max: config.turns.chunkMaxChars,
    emit: (chunk) => {
      if (chunk.type === "text-delta") {
        bus.emit({ type: "ProviderTokensStreamed", turnId: turn.id, chars: chunk.delta.length });
      }
      // The first text of a turn is committed and sent at once, not on the batch timer.
      const first = chunk.type === "text-delta" && !sentFirstText;
      if (first) sentFirstText = true;
      const written = log.append(chunk, { immediate: first });
      if (first && holdsRest) firstTextWritten = written.then(() => nextEventLoopTurn());
    },
  });
  const transformChunks = hasStageHooks("STREAM_RESPONSE");
  // The lead of a group workstream may consult its specialists within the turn.
  const specialists = specialistsFor(workstream, resolved.agent.id);
  const consultations: ConsultationTally = emptyTally();
  // With chunk transforms or consultations (whose nested parts are written beside the model's
  // stream), the answer kept is the one the client was sent: rebuilt from the chunks logged.
  const rewritten =
    transformChunks || specialists.length > 0
      ? new RewrittenMessage(
          turn.assistantMessageId,
          resumed ? structuredClone(resumed.message) : undefined,
        )
      : null;
  const tools =
    specialists.length > 0
      ? {
          ...resolved.tools,
          [CONSULT_TOOL]: consultSpecialistTool({
            lead: resolved.agent,
            specialists,
            workstream,
            kept,
            history,
            ctx,
            scope,
            signal: controller.signal,
            // The lead's finished steps, the one calling the tool, and every consultation's.
            stepsUsed: () => stepsBefore + stepsEnded.length + 1 + consultations.steps,
            resolve: (agentId) => resolveAgent(input, agentId),
            emit: (chunk) => {
              rewritten?.push(chunk);
              rechunker.push(chunk);
            },
            tally: consultations,
          }),
        }
      : resolved.tools;
  const stepsUsed = (steps: number) => stepsBefore + steps + consultations.steps;
  const result = await stage(scope, "SEND_REQUEST", async () => {
    const request = await beforeStage(
      "SEND_REQUEST",
      {
        modelId: resolved.model.modelId,
        provider: resolved.model.provider,
        instructions: composed.instructions,
        messages: composed.messages,
      },
      ctx,
    );
    // Not experimental_streamTextLowMemory, although the stream has one reader and the turn
    // reads no final content from the SDK: it saved ~0.2 ms of CPU per turn, but its stream,
    // pulled one part at a time, put the embedded database's first text ~2 ms later (three pairs).
    const streaming = input.trace.within(() =>
      streamModelText({
        call: "turn",
        model: resolved.model.model,
        // The model is the resolved agent's (resolveAgent hooks choose it); a transform here
        // rewrites what it is asked.
        instructions: request.instructions,
        messages: request.messages,
        allowSystemInMessages: true,
        tools: refuseForbidden(gateTools(tools, ctx, scope), kept.toolPolicy, ctx),
        // The authority stack decides each call: policy, grants and mode may decide it at once;
        // a call that asks the owner ends the stream with its approval request instead of
        // running, and the continuation after the answers runs (only) the approved ones.
        toolApproval: toolApprovalFor({ workstream, kept, ctx, resumed: resumed?.message }),
        // Consultations' model calls count toward the bound as well.
        stopWhen: ({ steps }) => stepsUsed(steps.length) >= config.turns.maxSteps,
        abortSignal: controller.signal,
        maxRetries: 0, // attempts, backoff and fallback are the resilient model's
        onError: () => {}, // failures reach the turn through the UI stream's error chunk
        // A stop rejects the SDK's totals, so each finished model call's usage is kept here.
        onStepEnd: (step) => {
          const usage = tokenUsage(step.usage);
          stepsEnded.push({ usage, finishReason: step.finishReason });
          // The resilient model answers under the primary's id: the last attempt that streamed
          // names the model that really answered (a fallback, after failures).
          const modelId =
            resolved.model.attempts.findLast((attempt) => attempt.outcome === "ok")?.modelId ??
            resolved.model.modelId;
          input.trace?.step({
            modelId,
            finishReason: step.finishReason,
            usage,
            costUsd: costUsd(modelId, usage),
          });
        },
      }),
    );
    await afterStage("SEND_REQUEST", request, ctx);
    return streaming;
  });
  const ui = result.toUIMessageStream<WorkstreamMessage>({
    sendStart: false,
    // Going on after an approval: the answer continues the message kept at the suspension.
    originalMessages: resumed ? [resumed.message] : undefined,
    onEnd: ({ responseMessage }) => {
      final = responseMessage;
    },
    // Tool failures are results the model sees, not turn failures: don't route them here.
    redactToolErrors: false,
    onError: (error) => {
      streamError ??= error;
      return ERROR_SENTENCES[describeModelError(error).code];
    },
  });

  // Text held back to fill a 36–72 character piece waits at most 250 ms.
  const idleFlush = setInterval(() => rechunker.flushStale(250), 50);
  const announcer = new ToolBatchAnnouncer(turn.id, resolved.agent);
  let sawContent = false;
  try {
    await stage(scope, "STREAM_RESPONSE", async () => {
      for await (const raw of ui as AsyncIterable<UIMessageChunk>) {
        if (log.failure) throw log.failure;
        // Finish, abort and error chunks are written by the closing transaction.
        if (raw.type === "finish" || raw.type === "abort" || raw.type === "error") continue;
        const chunk = transformChunks
          ? (await runStageHooks("STREAM_RESPONSE", { chunk: raw }, ctx)).chunk
          : raw;
        if (chunk.type === "text-delta" || chunk.type === "tool-input-start") sawContent = true;
        if (chunk.type === "tool-input-available") {
          bus.emit({
            type: "ToolInvocationProposed",
            turnId: turn.id,
            toolName: chunk.toolName,
            toolCallId: chunk.toolCallId,
          });
        }
        // After a batch of tool calls, the agent's announcement before its next model call.
        const announcement = announcer.before(chunk);
        if (announcement) rechunker.push(announcement as unknown as UIMessageChunk);
        rewritten?.push(chunk);
        rechunker.push(chunk);
        // The model's first text has been handled (a transform may have changed or dropped it).
        if (raw.type === "text-delta") releaseRest(firstTextWritten);
      }
      rechunker.flushAll();
    });
    // A stop ends the stream above before a consultation has sent its last part and counted its
    // usage; both belong to the answer kept.
    await consultationsSettled(consultations);
    rechunker.flushAll();
    if (rewritten) {
      // Set by the stream's onEnd callback, which TypeScript cannot see.
      const kept = final as WorkstreamMessage | null;
      const message = await rewritten.message();
      if (message) final = { ...message, metadata: kept?.metadata ?? message.metadata };
    }
  } finally {
    clearInterval(idleFlush);
    releaseRest();
  }

  const counted = await turnUsage(turn.id, result, {
    signal: controller.signal,
    stepUsages: stepsEnded.map((step) => step.usage),
    failed: streamError !== null,
  });
  const servedBy =
    resolved.model.attempts.findLast((attempt) => attempt.outcome === "ok")?.modelId ??
    resolved.model.modelId;
  // A turn that went on after an approval counts what it used before as well.
  // The consultations' tokens and cost are the turn's too.
  const lead = { usage: counted.usage, costUsd: costUsd(servedBy, counted.usage) };
  const all = [lead, ...consultations.records];
  const {
    usage,
    costUsd: cost,
    attempts,
  } = resumedRecord(resumed, {
    usage: sumUsage(all.map((record) => record.usage)),
    costUsd: all.some((record) => record.costUsd === null)
      ? null
      : all.reduce((sum, record) => sum + (record.costUsd ?? 0), 0),
    attempts: resolved.model.attempts,
  });
  // Unknown counts are null, not left out and not zero: the chat shows "—" for them.
  const message = buildMessage(final, turn.assistantMessageId, {
    ...metadata,
    model: servedBy,
    finishedAt: new Date().toISOString(),
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    reasoningTokens: usage?.reasoningTokens,
    costUsd: cost,
  });
  // Attempts are written with the turn's end, not one row update per model call.
  const record = { usage, costUsd: cost, attempts };
  if (controller.signal.aborted)
    return cancelled(turn.id, stopCode(controller.signal), message, record);
  if (streamError) {
    logTurnError(turn.id, "model failed", streamError);
    return failed(turn.id, describeModelError(streamError), sawContent ? message : null, record);
  }
  // The stream ended on tool calls that wait for the owner: the turn is suspended.
  const waiting = suspended(turn.id, message, record);
  if (waiting) return waiting;
  const lastStep = stepsEnded.at(-1);
  if (
    stepsUsed(stepsEnded.length) >= config.turns.maxSteps &&
    lastStep?.finishReason === "tool-calls"
  ) {
    return failed(turn.id, { code: "turn:step_limit", retryable: false }, message, record);
  }
  return {
    end: { state: "completed", ...record },
    message,
    closing: [
      { type: "finish", finishReason: "stop", messageMetadata: message?.metadata },
      statusChunk(turn.id, { state: "ready" }),
    ],
  };
}

/**
 * The memories the turn's context holds: the pre-seeded ones and the knowledge retrieved by the
 * latest user message (the opening statement's full-text matches, fused with the nearest vectors
 * when an embedding model is configured), none of them twice. A failing retrieval is a warning:
 * it is logged, the chat is told with a status it shows for the rest of the turn, and the turn
 * goes on without retrieved knowledge.
 */
async function knowledge(
  { turn, workstream, viewer, history, memories, controller }: RunInput,
  scope: StageScope,
): Promise<{ top: RetrievedMemory[]; retrieved: RetrievedMemory[] }> {
  const latest = history.findLast(({ message }) => message.role === "user")?.message;
  const text = latest?.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  const { memories: found, failure } = await retrieveMemories({
    reader: {
      organizationId: workstream.organizationId,
      userId: viewer.userId,
      agentId: workstream.agentId,
    },
    text: text ?? "",
    fullText: memories.fullText ?? undefined,
    // No visible memory has a vector yet: the message is not even embedded.
    vectors: memories.anyVectors,
    abortSignal: controller.signal,
  });
  controller.signal.throwIfAborted();
  let retrieved = found;
  if (failure) {
    console.warn(`[turns] ${turn.id}: knowledge retrieval failed (${errorClass(failure)})`);
    scope.status?.({
      state: "warning",
      code: "retrieval:failed",
      message: ERROR_SENTENCES["retrieval:failed"],
    });
    retrieved = [];
  }
  const seeded = new Set(memories.top.map((memory) => memory.id));
  return { top: memories.top, retrieved: retrieved.filter((memory) => !seeded.has(memory.id)) };
}

/** An agent of the turn (its own, or a specialist it consults), as the resolveAgent hooks make it. */
async function resolveAgent(
  { turn, workstream, skills }: RunInput,
  agentId: string,
): Promise<ResolvedAgent> {
  const base = { turnId: turn.id };
  let resolved = await defaultResolveAgent({
    agentId,
    // The provider events of each model call the turn makes, retries and fallback included.
    onAttemptStart: ({ modelId, attempt }) => {
      bus.emit({ type: "ProviderRequestStarted", ...base, modelId, attempt });
    },
    onAttempt: (attempt: Attempt) => {
      const call = { ...base, modelId: attempt.modelId, attempt: attempt.attempt };
      if (attempt.outcome === "ok") {
        bus.emit({ type: "ProviderRequestCompleted", ...call, ms: attempt.ms });
      } else {
        bus.emit({ type: "ProviderRequestFailed", ...call, error: attempt.error ?? "" });
      }
    },
  });
  const about = {
    id: turn.id,
    userMessageId: turn.userMessageId,
    offeredSkills: skills.length,
  };
  for (const hook of hooksOf("resolveAgent")) {
    resolved = await hook.run({ workstream, turn: about, resolved });
  }
  return resolved;
}

/** The message a stream of (transformed) chunks makes, as the client assembles it. */
class RewrittenMessage {
  private controller!: ReadableStreamDefaultController<UIMessageChunk>;
  private readonly last: Promise<WorkstreamMessage | null>;
  constructor(messageId: string, continues?: WorkstreamMessage) {
    const stream = new ReadableStream<UIMessageChunk>({
      start: (controller) => {
        this.controller = controller;
        controller.enqueue({ type: "start", messageId });
      },
    });
    this.last = (async () => {
      let message: WorkstreamMessage | null = null;
      const read = readUIMessageStream<WorkstreamMessage>({ stream, message: continues });
      for await (const next of read) message = next;
      return message;
    })();
  }
  push(chunk: UIMessageChunk): void {
    // The SDK keeps a data chunk as the message's part and updates it in place when a later
    // chunk has its id: the chunk the log is sending must not change under it.
    this.controller.enqueue(chunk.type.startsWith("data-") ? structuredClone(chunk) : chunk);
  }
  async message(): Promise<WorkstreamMessage | null> {
    this.controller.close();
    return this.last;
  }
}

/**
 * The turn's token usage. A finished turn has the SDK's total; a stopped one has no total (the
 * cut stream never reported one), so it counts the model calls that finished. A rejection of
 * the SDK's promises is logged, unless it is the stop itself or the failure the turn reports.
 */
async function turnUsage(
  turnId: string,
  result: { totalUsage: PromiseLike<LanguageModelUsage> },
  {
    signal,
    stepUsages,
    failed,
  }: { signal: AbortSignal; stepUsages: Array<TokenUsage | null>; failed: boolean },
): Promise<{ usage: TokenUsage | null }> {
  const unknown = (what: string) => (error: unknown) => {
    const expected = failed || (signal.aborted && error === signal.reason);
    if (!expected) logTurnError(turnId, `${what} unknown`, error);
    return undefined;
  };
  if (signal.aborted) return { usage: sumUsage(stepUsages) };
  const total = await Promise.resolve(result.totalUsage).then(undefined, unknown("usage"));
  return { usage: total ? tokenUsage(total) : sumUsage(stepUsages) };
}

/** The text of a message's text parts, as the skill job reads it from the rows. */
function textOf(message: WorkstreamMessage | undefined): string {
  if (!message) return "";
  return message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/** The turn's member message (from the history it read) and its answer, as text. */
function turnText(
  history: RunInput["history"],
  turn: Pick<TurnRow, "userMessageId">,
  answer: WorkstreamMessage,
): { member: string; agent: string } {
  const member = history.findLast((entry) => entry.message.id === turn.userMessageId)?.message;
  return { member: textOf(member), agent: textOf(answer) };
}

function buildMessage(message: WorkstreamMessage | null, id: string, metadata: MessageMetadata) {
  if (!message || message.parts.length === 0) return null;
  return {
    ...message,
    id,
    role: "assistant" as const,
    metadata: { ...message.metadata, ...metadata },
  };
}

/**
 * RENDER and cleanup: the answer, the turn's end, its last events and the freed workstream in
 * one statement; then the run is always unregistered.
 */
async function finish(input: RunInput, ended: Outcome, context: ContextRecord | null) {
  const { turn, workstream, log, controller } = input;
  let outcome = ended;
  input.trace?.startRender();
  try {
    const scope = stageScope(input);
    const ctx = hookContext(input);
    await stage(scope, "RENDER", async () => {
      const { message } = await beforeStage("RENDER", { message: outcome.message }, ctx);
      const events = await log.closingEvents((refused) => {
        // A turn whose events the log refused ends failed, whatever it was about to be.
        if (refused) logTurnError(turn.id, "event log write failed", log.failure);
        if (refused && outcome.end.state !== "failed") {
          const { usage, costUsd, attempts } = outcome.end;
          outcome = failed(turn.id, { code: "turn:failed" }, message, {
            usage,
            costUsd,
            attempts,
          });
        }
        return outcome.closing;
      });
      // Background work follows a turn that kept an answer; it is queued with the turn's end,
      // not after. Whether the history is due for compaction is decided here, from the history
      // the turn read and its answer, so the check costs no statement.
      const answerTokens = message ? countTokens(message.parts) : 0;
      const completed = outcome.end.state === "completed";
      const compact =
        message !== null &&
        compactionDue({
          historyTokens: historyBudget(input.history) + messageBudgetTokens(answerTokens),
          leftOut: input.historyLeftOut,
          window: context?.window ?? windowOf(""),
        });
      // Skills come only from a completed turn whose messages lay out a procedure: decided here,
      // from the messages the engine holds, so most turns queue no skill job at all.
      const skills =
        completed && message !== null && mayHoldSkills(turnText(input.history, turn, message));
      const postTurnEvent =
        completed || compact
          ? { id: crypto.randomUUID(), name: turnCompleted.name, completed, compact, skills }
          : null;
      // What a suspended turn waits for is recorded first (see recordApprovals).
      const waitsFor = outcome.end.state === "suspended" ? (outcome.approvals ?? []) : [];
      await recordApprovals({
        turn: { ...turn, organizationId: workstream.organizationId },
        requested: waitsFor,
        expiresAt: new Date(Date.now() + config.approvals.timeoutMs),
      });
      const closed = await closeTurn({
        turn,
        end: outcome.end,
        events,
        message,
        startedWith: log.activatesOnClose,
        context,
        postTurnEvent,
        answerTokens: message ? answerTokens : undefined,
        run: input.trace?.record(outcome.end.state),
      });
      await afterStage("RENDER", { message }, ctx);
      // The expiry of what it waits for is in the outbox now.
      if (closed.closed && waitsFor.length > 0) wakeJobsSoon();
      // A turn the reaper (or a stop) closed first was announced by whoever closed it.
      if (!closed.closed) return;
      const after = closed.workstream ? { ...closed.workstream, isRunning: false } : undefined;
      bus.emit({
        type: "SessionTurnEnd",
        turnId: turn.id,
        workstreamId: workstream.id,
        state: outcome.end.state,
        workstream: after,
        queuedEvent: closed.queuedEvent ?? undefined,
      });
      if (outcome.end.state === "completed") {
        bus.emit({
          type: "TurnCompleted",
          turnId: turn.id,
          workstreamId: workstream.id,
          organizationId: workstream.organizationId,
          workstream: after,
        });
      }
    });
  } catch (error) {
    // The lease lapses and the reaper ends the turn; the busy flag cannot stay set forever.
    logTurnError(turn.id, "could not be closed", error);
  } finally {
    const { state, errorCode, usage, costUsd: cost } = outcome.end;
    input.trace?.end({
      state,
      errorCode,
      model: outcome.message?.metadata?.model,
      usage,
      costUsd: cost,
    });
    runRegistry.unregister(turn.id);
    if (!controller.signal.aborted) controller.abort(new StopRequested("disposed"));
  }
}
