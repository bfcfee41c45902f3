// What the embedded runner reads from a declaration: its trigger, how many attempts it gets and
// its flow control in milliseconds, with each key evaluated from the event once, at enqueue.
import {
  type AnyJobDefinition,
  DEFAULT_RETRIES,
  durationMs,
  type EventKey,
  type JobEvent,
  keyValue,
  triggers,
} from "@/lib/jobs/define";

export type FunctionPlan = {
  id: string;
  /** Whether an event starts a run: its name, and the declaration's `when` filter. */
  isStartedBy: (event: JobEvent) => boolean;
  /** The first attempt and its retries. */
  maxAttempts: number;
  concurrency?: { key: EventKey; limit: number };
  throttle?: { key?: EventKey; limit: number; periodMs: number };
  debounce?: { key?: EventKey; periodMs: number; timeoutMs?: number };
  /** Runs wait for the event's time (a delayed event). */
  startsAtEventTime: boolean;
};

export function planOf(definition: AnyJobDefinition): FunctionPlan {
  const { retries, concurrency, throttle, debounce } = definition.flow;
  return {
    id: definition.id,
    isStartedBy: (event) => triggers(definition, event),
    maxAttempts: (retries ?? DEFAULT_RETRIES) + 1,
    startsAtEventTime: definition.startsAt === "event.ts",
    concurrency,
    throttle: throttle && {
      key: throttle.key,
      limit: throttle.limit,
      periodMs: durationMs(throttle.period),
    },
    debounce: debounce && {
      key: debounce.key,
      periodMs: durationMs(debounce.period),
      timeoutMs: debounce.timeout ? durationMs(debounce.timeout) : undefined,
    },
  };
}

/**
 * A job's flow-control keys. A key whose path holds nothing in the event is null: that job runs
 * without that flow control rather than sharing one bucket with every other keyless event.
 */
export function keysOf(plan: FunctionPlan, event: JobEvent) {
  return {
    concurrencyKey: plan.concurrency ? keyValue(plan.concurrency.key, event) : null,
    throttleKey: plan.throttle ? keyValue(plan.throttle.key, event) : null,
    debounceKey: plan.debounce ? keyValue(plan.debounce.key, event) : null,
  };
}

/**
 * How long a completed row is kept: `keepMs` (a re-sent event within it is recognised and not run
 * again), or longer if a throttle's period is longer, since its rows count the starts.
 */
export function retentionMs(plans: readonly FunctionPlan[], keepMs: number): number {
  return Math.max(keepMs, ...plans.map((plan) => plan.throttle?.periodMs ?? 0));
}
