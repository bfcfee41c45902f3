"use client";
// The turn inspector's body: what one turn did, read from its record (GET `url`): how it ended
// and why, each run's stages as a timeline with durations, the model calls (retries, fallback,
// time to first token), the tool calls with their approval, specialists, tokens and cost per
// step and in all, and the background jobs it caused. Content appears only when the payload has
// it (the owner's); an admin's payload has none to show.
import { useEffect, useState } from "react";
import { cx } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import { formatCost } from "@/lib/format/cost";
import { formatDuration, UNKNOWN } from "@/lib/format/duration";
import type {
  InspectedUsage,
  StageRecord,
  StepRecord,
  TurnInspection,
} from "@/lib/inspector/types";

const count = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

type Loaded =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "ready"; record: TurnInspection };

export function TurnInspector({ url }: { url: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ state: "loading" });
    fetch(url, { signal: controller.signal, headers: { accept: "application/json" } })
      .then(async (response) => {
        const body = (await response.json()) as TurnInspection & { error?: { message: string } };
        if (!response.ok) {
          setLoaded({ state: "error", message: body.error?.message ?? "The turn did not load." });
        } else setLoaded({ state: "ready", record: body });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn("[inspector] loading the turn failed", error);
        setLoaded({ state: "error", message: "The turn did not load. Try again." });
      });
    return () => controller.abort();
  }, [url]);

  if (loaded.state === "loading") {
    return (
      <div className="flex items-center gap-2 p-4 text-sm text-fg-muted" role="status">
        <Spinner /> Loading the turn…
      </div>
    );
  }
  if (loaded.state === "error") {
    return (
      <p role="alert" className="p-4 text-sm text-danger">
        {loaded.message}
      </p>
    );
  }
  return <Inspection record={loaded.record} />;
}

function Inspection({ record }: { record: TurnInspection }) {
  const { turn } = record;
  return (
    <div className="flex flex-col gap-5 p-4 text-sm" data-testid="turn-inspector">
      <section aria-labelledby="inspector-end" className="flex flex-col gap-1">
        <h3 id="inspector-end" className="sr-only">
          How it ended
        </h3>
        <div className="flex flex-wrap items-center gap-2">
          <StateBadge state={turn.state} />
          {turn.durationMs !== null ? (
            <span className="text-fg-muted">{formatDuration(turn.durationMs)}</span>
          ) : null}
          {turn.model ? <span className="text-fg-muted">{turn.model}</span> : null}
          {turn.events !== null ? (
            <span className="text-fg-subtle">{count.format(turn.events)} events</span>
          ) : null}
        </div>
        {turn.reason ? <p className="text-fg-muted">{turn.reason}</p> : null}
        {turn.modelNotice ? (
          <p role="note" className="text-fg-muted" data-testid="unknown-model-notice">
            {turn.modelNotice}
          </p>
        ) : null}
        <Totals usage={record.usage} costUsd={record.costUsd} />
      </section>

      <Section title="Timeline">
        {record.runs.length === 0 ? (
          <Empty>This turn has no timeline: it ended before timings were kept.</Empty>
        ) : (
          record.runs.map((run, index) => (
            <div key={run.startedAt} className="flex flex-col gap-1.5">
              {record.runs.length > 1 ? (
                <p className="text-xs font-medium text-fg-subtle">
                  {index === 0 ? "First run" : "After the approval"} · {run.state} ·{" "}
                  {formatDuration(run.ms)}
                </p>
              ) : null}
              <ol className="flex flex-col gap-1" aria-label={`Stages of run ${index + 1}`}>
                {run.stages.map((stage) => (
                  <StageBar
                    key={`${stage.stage}-${stage.at}-${stage.toolCallId ?? ""}`}
                    stage={stage}
                    total={run.ms}
                  />
                ))}
              </ol>
              {run.steps.length > 0 ? <Steps steps={run.steps} /> : null}
            </div>
          ))
        )}
      </Section>

      <Section title="Model calls">
        {record.attempts.length === 0 ? (
          <Empty>No model call was made.</Empty>
        ) : (
          <table className="w-full text-left text-xs">
            <thead className="text-fg-subtle">
              <tr>
                <th className="py-1 font-medium">Model</th>
                <th className="py-1 font-medium">Outcome</th>
                <th className="py-1 text-right font-medium">First token</th>
                <th className="py-1 text-right font-medium">Duration</th>
              </tr>
            </thead>
            <tbody>
              {record.attempts.map((attempt) => (
                <tr
                  key={`${attempt.startedAt}-${attempt.attempt}`}
                  className="border-t border-border"
                >
                  <td className="py-1.5">
                    {attempt.modelId}
                    {attempt.retry ? <Tag>retry</Tag> : null}
                    {attempt.fallback ? <Tag>fallback</Tag> : null}
                  </td>
                  <td className={cx("py-1.5", attempt.outcome === "failed" && "text-danger")}>
                    {attempt.outcome === "ok"
                      ? "streamed"
                      : `failed${attempt.providerStatus ? ` (${attempt.providerStatus})` : ""}`}
                  </td>
                  <td className="py-1.5 text-right tabular-nums">
                    {attempt.firstTokenMs !== null ? formatDuration(attempt.firstTokenMs) : UNKNOWN}
                  </td>
                  <td className="py-1.5 text-right tabular-nums">
                    {formatDuration(attempt.durationMs ?? attempt.ms)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <Section title="Tool calls">
        {record.tools.length === 0 ? (
          <Empty>No tool was called.</Empty>
        ) : (
          <ul className="flex flex-col gap-2">
            {record.tools.map((tool) => (
              <li key={tool.toolCallId} className="rounded-lg border border-border p-2.5">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-mono text-[13px] text-fg">{tool.toolName}</span>
                  <span
                    className={cx(
                      "text-xs",
                      tool.status === "error" ? "text-danger" : "text-fg-muted",
                    )}
                  >
                    {tool.status}
                  </span>
                  {tool.ms !== null ? (
                    <span className="text-xs text-fg-subtle">{formatDuration(tool.ms)}</span>
                  ) : null}
                </div>
                {tool.approval ? (
                  <p className="mt-1 text-xs text-fg-muted">
                    Approval: {tool.approval.decision}
                    {tool.approval.source ? ` by ${tool.approval.source}` : ""}
                    {tool.approval.reason ? ` · “${tool.approval.reason}”` : ""}
                  </p>
                ) : null}
                {record.content && tool.input !== undefined ? (
                  <details className="mt-1 text-xs">
                    <summary className="cursor-pointer text-fg-subtle">
                      Arguments and result
                    </summary>
                    <pre className="mt-1 max-h-48 overflow-auto rounded bg-bg-muted p-2 whitespace-pre-wrap [overflow-wrap:anywhere]">
                      {JSON.stringify({ input: tool.input, output: tool.output }, null, 2)}
                    </pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      {record.specialists.length > 0 ? (
        <Section title="Specialists consulted">
          <ul className="flex flex-col gap-1">
            {record.specialists.map((consulted, index) => (
              <li key={consulted.toolCallId ?? index} className="text-xs text-fg-muted">
                <span className="font-medium text-fg">
                  {consulted.specialist ?? "A specialist"}
                </span>
                {consulted.status ? ` · ${consulted.status}` : ""}
                {consulted.steps !== null
                  ? ` · ${consulted.steps} model call${consulted.steps === 1 ? "" : "s"}`
                  : ""}
                {consulted.ms !== null ? ` · ${formatDuration(consulted.ms)}` : ""}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <Section title="Background jobs">
        {record.jobs.length === 0 ? (
          <Empty>This turn queued no background work.</Empty>
        ) : (
          <ul className="flex flex-col gap-1.5">
            {record.jobs.map((job) => (
              <li key={job.eventId} className="text-xs">
                <span className="font-mono text-fg">{job.name}</span>
                <span className="text-fg-muted">
                  {job.dispatched ? " · handed to the job engine" : " · waiting to be handed over"}
                </span>
                {job.runs.length > 0 ? (
                  <ul className="mt-0.5 pl-3 text-fg-muted">
                    {job.runs.map((run) => (
                      <li key={run.functionId}>
                        {run.functionId}: {run.state}
                        {run.attempts > 1 ? ` after ${run.attempts} attempts` : ""}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {job.failures.map((failure) => (
                  <p key={failure.functionId} className="pl-3 text-danger">
                    {failure.functionId} gave up: {failure.errorCode} {failure.errorMessage}
                    {failure.providerDetail ? (
                      <span className="block text-fg-muted">
                        The provider said: {failure.providerDetail}
                      </span>
                    ) : null}
                  </p>
                ))}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h3 className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return <p className="text-xs text-fg-subtle">{children}</p>;
}

function Tag({ children }: { children: React.ReactNode }) {
  return (
    <span className="ml-1.5 rounded bg-bg-muted px-1 py-px text-[11px] text-fg-muted">
      {children}
    </span>
  );
}

function StateBadge({ state }: { state: string }) {
  const tone =
    state === "completed"
      ? "bg-accent-subtle text-accent-text"
      : state === "failed"
        ? "bg-danger-subtle text-danger"
        : "bg-bg-muted text-fg-muted";
  return (
    <span
      className={cx("rounded-full px-2 py-0.5 text-xs font-medium", tone)}
      data-testid="turn-state"
    >
      {state}
    </span>
  );
}

function Totals({ usage, costUsd }: { usage: InspectedUsage | null; costUsd: number | null }) {
  return (
    <p className="text-xs text-fg-muted">
      {usage
        ? `${count.format(usage.inputTokens)} in · ${count.format(usage.outputTokens)} out`
        : `${UNKNOWN} tokens (not reported)`}
      {" · "}
      {costUsd === null ? `${UNKNOWN} cost` : formatCost(costUsd)}
    </p>
  );
}

/** A stage as a bar placed on its run's time axis, with its name and duration. */
function StageBar({ stage, total }: { stage: StageRecord; total: number }) {
  const span = Math.max(total, 1);
  const left = Math.min(100, (stage.at / span) * 100);
  const width = Math.max(0.8, Math.min(100 - left, (stage.ms / span) * 100));
  const label = stage.toolName ? `${stage.stage} · ${stage.toolName}` : stage.stage;
  return (
    <li className="grid grid-cols-[minmax(0,11rem)_1fr_3.75rem] items-center gap-2 text-xs">
      <span className="truncate font-mono text-[11px] text-fg-muted" title={label}>
        {label}
      </span>
      <span className="relative h-2 rounded bg-bg-muted" aria-hidden="true">
        <span
          className={cx(
            "absolute inset-y-0 rounded",
            stage.outcome === "error" ? "bg-danger" : "bg-accent",
          )}
          style={{ left: `${left}%`, width: `${width}%` }}
        />
      </span>
      <span className="text-right tabular-nums text-fg-subtle">{formatDuration(stage.ms)}</span>
    </li>
  );
}

function Steps({ steps }: { steps: StepRecord[] }) {
  return (
    // Set apart from the stage bars above: a table of its own, not a seventh bar.
    <table className="mt-2 w-full text-left text-xs">
      <caption className="sr-only">Tokens and cost per model step</caption>
      <thead className="text-fg-subtle">
        <tr>
          <th className="py-1 font-medium">Step</th>
          <th className="py-1 text-right font-medium">In</th>
          <th className="py-1 text-right font-medium">Out</th>
          <th className="py-1 text-right font-medium">Cost</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((step, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id; their order is fixed
          <tr key={index} className="border-t border-border">
            <td className="py-1">
              {index + 1}. {step.finishReason}
            </td>
            <td className="py-1 text-right tabular-nums">
              {step.usage ? count.format(step.usage.inputTokens) : UNKNOWN}
            </td>
            <td className="py-1 text-right tabular-nums">
              {step.usage ? count.format(step.usage.outputTokens) : UNKNOWN}
            </td>
            <td className="py-1 text-right tabular-nums">
              {step.costUsd === null ? UNKNOWN : formatCost(step.costUsd)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
