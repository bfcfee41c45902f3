// The Inngest side of a declaration: `createFunction` with the same id, trigger, flow control and
// handler the embedded runner reads. Only inngest/engine.ts and the /api/inngest route use this.
import { NonRetriableError } from "inngest";
import { recordJobFailure } from "@/inngest/failures/record";
import {
  type AnyJobDefinition,
  DEFAULT_RETRIES,
  type JobEvent,
  JobTimeoutError,
  whenExpression,
  withinRunTimeout,
} from "@/lib/jobs/define";
import { getInngest } from "./client";

function refusal(definition: AnyJobDefinition, event: { id?: string }): NonRetriableError {
  console.warn(
    `[jobs] ${definition.id} refused event ${event.id ?? "(no id)"}: it does not match its schema`,
  );
  return new NonRetriableError("The event does not match its schema.");
}

export function toInngestFunction(definition: AnyJobDefinition) {
  const { flow } = definition;
  return getInngest().createFunction(
    {
      id: definition.id,
      name: definition.name,
      triggers: [{ event: definition.trigger.name, if: whenExpression(definition) }],
      retries: flow.retries ?? DEFAULT_RETRIES,
      ...(flow.concurrency ? { concurrency: flow.concurrency } : {}),
      ...(flow.throttle ? { throttle: flow.throttle } : {}),
      ...(flow.debounce
        ? {
            debounce: {
              key: flow.debounce.key,
              period: flow.debounce.period,
              timeout: flow.debounce.timeout,
            },
          }
        : {}),
      onFailure: async ({ event, error, runId }) => {
        const original = event.data.event;
        await recordJobFailure({
          functionId: definition.id,
          event: {
            id: original.id ?? runId,
            name: original.name,
            data: original.data,
            ts: original.ts ?? Date.now(),
          },
          runId,
          attempts: (flow.retries ?? DEFAULT_RETRIES) + 1,
          error,
        });
      },
    },
    async ({ event, step, runId, attempt }) => {
      const parsed = definition.trigger.schema.safeParse(event.data);
      if (!parsed.success) throw refusal(definition, event);
      const jobEvent: JobEvent = {
        id: event.id ?? runId,
        name: event.name,
        data: parsed.data,
        ts: event.ts ?? Date.now(),
      };
      // Inngest's own `timeouts.finish` bounds the whole run and cancels it, retries and their
      // backoff included; the declared timeout is one attempt's, which fails and is retried as in
      // the embedded runner. Each call Inngest makes to the handler is bounded by it.
      return withinRunTimeout(definition, (expired) =>
        definition.handler({
          event: jobEvent,
          runId,
          attempt,
          step: {
            // Inngest keeps each step's result as JSON, exactly as the embedded runner does.
            run: (id, body) =>
              step.run(id, async () => {
                if (expired()) throw new JobTimeoutError();
                return (await body()) ?? null;
              }) as never,
          },
        }),
      );
    },
  );
}
