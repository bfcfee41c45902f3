// A background function is declared once, here in shape, and run by whichever engine is
// configured: Inngest (inngest/engine.ts builds `createFunction` from the declaration) or the
// embedded runner (inngest/runner), which reads the same id, trigger, flow control and handler.
// The declaration speaks Inngest's vocabulary so that the Inngest side is a straight mapping.
import type { z } from "zod";
import { AppError } from "@/lib/kernel/errors";

/** A duration as Inngest writes it: "500ms" is not accepted there, so seconds are the finest. */
export type TimeStr = `${number}${"s" | "m" | "h" | "d"}`;

/** A flow-control key: a path into the event's data (the subset of Inngest's expressions we use). */
export type EventKey = `event.data.${string}`;

export type FlowControl = {
  /** Retries after the first attempt (Inngest's meaning); 3 when absent. */
  retries?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;
  /** At most `limit` runs at once per key value. */
  concurrency?: { key: EventKey; limit: number };
  /** At most `limit` run starts per `period` per key value; the rest wait their turn. */
  throttle?: { key?: EventKey; limit: number; period: TimeStr };
  /**
   * Runs once `period` has passed without another event for the same key, with the latest event;
   * never later than `timeout` after the first event it absorbed.
   */
  debounce?: { key?: EventKey; period: TimeStr; timeout?: TimeStr };
  /**
   * How long one attempt may run; past it the attempt fails with `job:timeout` and is retried
   * like any failure. DEFAULT_TIMEOUT when absent.
   */
  timeout?: TimeStr;
};

export type EventDefinition<Name extends string = string, Data = unknown> = {
  name: Name;
  schema: z.ZodType<Data>;
};

export function defineEvent<Name extends string, Data>(
  name: Name,
  schema: z.ZodType<Data>,
): EventDefinition<Name, Data> {
  return { name, schema };
}

/** The event as a handler receives it, in both engines. */
export type JobEvent<Data = unknown> = { id: string; name: string; data: Data; ts: number };

/**
 * A step's result is kept as JSON (Inngest's memo and the runner's `steps` column alike), so a
 * retried run sees what JSON gives back, not the original object.
 */
export type StepResult<T> = T extends undefined ? null : T;

export type JobStep = {
  /** Runs `body` once per run: a retry after it finished gets its stored result instead. */
  run<T>(id: string, body: () => Promise<T> | T): Promise<StepResult<T>>;
};

export type JobContext<Data> = {
  event: JobEvent<Data>;
  step: JobStep;
  /** The run's id: the embedded job's id or Inngest's run id. Writes are idempotent by it. */
  runId: string;
  /** 0 on the first attempt. */
  attempt: number;
};

export type JobDefinition<Data = unknown> = {
  id: string;
  /** What the admin console's failed-jobs view and Inngest's dashboard call it. */
  name: string;
  trigger: EventDefinition<string, Data>;
  /** Only events whose key holds this value start a run (Inngest's trigger `if`). */
  when?: { key: EventKey; equals: string | number | boolean };
  flow: FlowControl;
  /**
   * "event.ts": a run starts no earlier than the event's time, so an event sent with a time
   * ahead is a delayed run. Inngest schedules every event whose `ts` lies ahead this way; the
   * embedded runner does it for the functions that declare it (their events' `run_at`).
   */
  startsAt?: "event.ts";
  handler: (context: JobContext<Data>) => Promise<unknown>;
};

export function defineJob<Data>(definition: JobDefinition<Data>): JobDefinition<Data> {
  return definition;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of jobs over different event types
export type AnyJobDefinition = JobDefinition<any>;

export const DEFAULT_RETRIES = 3;

/** Long enough for a slow model's extraction or summary; a hung handler still ends. */
export const DEFAULT_TIMEOUT: TimeStr = "10m";

/** The error an attempt fails with when it outlives its function's run timeout. */
export class JobTimeoutError extends AppError {
  constructor() {
    super("job:timeout");
    this.name = "JobTimeoutError";
  }
}

/**
 * Runs one attempt of `definition`, failing it with JobTimeoutError once its run timeout has
 * passed. A handler cannot be cancelled from outside, so one that wakes later finds its steps
 * refused (`expired`), while the attempt has already been settled.
 */
export async function withinRunTimeout<T>(
  definition: AnyJobDefinition,
  attempt: (expired: () => boolean) => Promise<T>,
): Promise<T> {
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        timedOut = true;
        reject(new JobTimeoutError());
      },
      durationMs(definition.flow.timeout ?? DEFAULT_TIMEOUT),
    );
    timer.unref();
  });
  try {
    return await Promise.race([attempt(() => timedOut), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function durationMs(time: TimeStr): number {
  const match = /^(\d+(?:\.\d+)?)([smhd])$/.exec(time);
  if (!match) throw new Error(`Not a duration: ${time}`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** The value of a flow-control key for an event; null when the path holds nothing. */
export function keyValue(key: EventKey | undefined, event: JobEvent): string | null {
  if (!key) return "";
  // The key is written from the expression's root: "event.data.…".
  let value: unknown = { event };
  for (const segment of key.split(".")) {
    if (value === null || typeof value !== "object") return null;
    value = (value as Record<string, unknown>)[segment];
  }
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Whether the event starts a run of the function (its `when` filter, if any, holds). */
export function triggers(definition: AnyJobDefinition, event: JobEvent): boolean {
  if (event.name !== definition.trigger.name) return false;
  if (!definition.when) return true;
  const { key, equals } = definition.when;
  return keyValue(key, event) === (typeof equals === "string" ? equals : JSON.stringify(equals));
}

/** The `when` filter as Inngest's expression language writes it. */
export function whenExpression(definition: AnyJobDefinition): string | undefined {
  const { when } = definition;
  return when ? `${when.key} == ${JSON.stringify(when.equals)}` : undefined;
}
