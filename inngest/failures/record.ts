// What is kept of a job that gave up after its retries, in either engine (Inngest calls the
// function's onFailure; the embedded runner calls this directly): metadata only, once per
// function and event, so the admin console can list it: the last error's code from the closed
// vocabulary and its sentence, and for a learning job the members whose turns it covered. Never
// the event's content or the raw error, which may hold a member's text or SQL; the one exception
// is the model provider's own words about a refusal, kept apart for the turn's owner.
import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import type { JobEvent } from "@/lib/jobs/define";
import { type AppError, errorSentence, isAppError } from "@/lib/kernel/errors";
import { classifyProviderError, providerMessage } from "@/lib/models/provider-errors";
import { toStorableText } from "@/lib/text/storable";

export type JobFailure = {
  functionId: string;
  event: JobEvent;
  /** The embedded job's id or Inngest's run id. */
  runId: string | null;
  attempts: number;
  error: unknown;
};

/**
 * A learning job's failure (memory extraction, the digest, skills): the error, with the members
 * whose turns the job was learning from, so each of them can be told their agents are not
 * learning.
 */
export class LearningFailure extends Error {
  constructor(
    readonly memberIds: readonly string[],
    cause: unknown,
  ) {
    super("Learning from the members' turns failed", { cause });
    this.name = "LearningFailure";
  }
}

/** Runs a learning job's step; its failure names the members whose turns it was learning from. */
export async function learningFrom<T>(
  memberIds: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new LearningFailure([...new Set(memberIds)], error);
  }
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let item = error; item != null && chain.length < 8; ) {
    chain.push(item);
    item = (item as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * A stable code for what went wrong: the app's own code when it has one, the model provider's
 * failure (`model:bad_request` for a request it refused) when it came from there, else a generic
 * one.
 */
export function failureCode(error: unknown): { code: string; message: string } {
  const own = causeChain(error).find((item): item is AppError => isAppError(item));
  if (own) return { code: own.code, message: errorSentence(own.code) };
  const provider = classifyProviderError(error);
  if (provider) return { code: provider.code, message: errorSentence(provider.code) };
  return { code: "job:failed", message: "The job failed after its retries." };
}

function coveredMembers(error: unknown): string[] {
  const learning = causeChain(error).find((item) => item instanceof LearningFailure);
  return learning instanceof LearningFailure ? [...learning.memberIds] : [];
}

function stringField(data: unknown, field: string): string | null {
  if (data === null || typeof data !== "object") return null;
  const value = (data as Record<string, unknown>)[field];
  return typeof value === "string" ? value : null;
}

export async function recordJobFailure(failure: JobFailure): Promise<void> {
  const { code, message } = failureCode(failure.error);
  const said = providerMessage(failure.error);
  const detail = said === null ? null : toStorableText(said);
  const memberIds = coveredMembers(failure.error);
  const organizationId = stringField(failure.event.data, "organizationId");
  const db = await getDb();
  // The organization may be gone by now; the record then has nobody to be shown to.
  await db.execute(sql`
    insert into "failed_jobs" ("id", "function_id", "event_id", "run_id", "organization_id",
      "workstream_id", "attempts", "error_code", "error_message", "provider_detail", "member_ids")
    select ${crypto.randomUUID()}, ${failure.functionId}, ${failure.event.id}, ${failure.runId},
      ${organizationId}, ${stringField(failure.event.data, "workstreamId")}, ${failure.attempts},
      ${code}, ${message}, ${detail},
      array[${sql.join(
        memberIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]
    where ${organizationId}::text is null
      or exists (select 1 from "organization" where "id" = ${organizationId})
    on conflict ("function_id", "event_id") do nothing`);
  console.warn(
    `[jobs] ${failure.functionId} gave up on event ${failure.event.id} after ${failure.attempts} attempt(s): ${code}`,
  );
}
