// What is kept of a job that gave up after its retries, in either engine (Inngest calls the
// function's onFailure; the embedded runner calls this directly): metadata only, once per
// function and event, so the admin console can list it. Never the event's content or the raw
// error, which may hold a member's text or SQL.
import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { errorSentence, isAppError } from "@/lib/http/errors";
import type { JobEvent } from "./define";

export type JobFailure = {
  functionId: string;
  event: JobEvent;
  /** The embedded job's id or Inngest's run id. */
  runId: string | null;
  attempts: number;
  error: unknown;
};

/** A stable code for what went wrong: the app's own code when it has one, else a generic one. */
export function failureCode(error: unknown): { code: string; message: string } {
  if (isAppError(error)) return { code: error.code, message: errorSentence(error.code) };
  return { code: "job:failed", message: "The job failed after its retries." };
}

function stringField(data: unknown, field: string): string | null {
  if (data === null || typeof data !== "object") return null;
  const value = (data as Record<string, unknown>)[field];
  return typeof value === "string" ? value : null;
}

export async function recordJobFailure(failure: JobFailure): Promise<void> {
  const { code, message } = failureCode(failure.error);
  const organizationId = stringField(failure.event.data, "organizationId");
  const db = await getDb();
  // The organization may be gone by now; the record then has nobody to be shown to.
  await db.execute(sql`
    insert into "failed_jobs" ("id", "function_id", "event_id", "run_id", "organization_id",
      "workstream_id", "attempts", "error_code", "error_message")
    select ${crypto.randomUUID()}, ${failure.functionId}, ${failure.event.id}, ${failure.runId},
      ${organizationId}, ${stringField(failure.event.data, "workstreamId")}, ${failure.attempts},
      ${code}, ${message}
    where ${organizationId}::text is null
      or exists (select 1 from "organization" where "id" = ${organizationId})
    on conflict ("function_id", "event_id") do nothing`);
  console.warn(
    `[jobs] ${failure.functionId} gave up on event ${failure.event.id} after ${failure.attempts} attempt(s): ${code}`,
  );
}
