// The failed background jobs of the organization, newest first: a table from 640px up, stacked
// rows below, each with Retry and Discard. Titles, counts and error codes only; a job's record
// holds no content.
import type { FailedJob } from "@/lib/admin/failed-jobs";
import { FailedJobActions } from "./failed-job-actions";

const COLUMNS = [
  { label: "Job", className: "py-2 pr-4 font-medium" },
  { label: "Workstream", className: "py-2 pr-4 font-medium" },
  { label: "Error", className: "py-2 pr-4 font-medium" },
  { label: "Attempts", className: "py-2 pr-4 text-right font-medium" },
  { label: "Failed", className: "py-2 pr-4 font-medium" },
  { label: "Actions", className: "py-2 font-medium" },
] as const;

function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toUTCString()}>
      {date.toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC
    </time>
  );
}

function Workstream({ job }: { job: FailedJob }) {
  if (job.workstreamTitle) return <span className="text-fg">{job.workstreamTitle}</span>;
  return <span className="text-fg-subtle">{job.workstreamId ? "Deleted workstream" : "—"}</span>;
}

export function FailedJobsTable({ jobs }: { jobs: FailedJob[] }) {
  if (jobs.length === 0) {
    return (
      <section aria-labelledby="failed-jobs-heading" className="space-y-2">
        <h2 id="failed-jobs-heading" className="text-base font-semibold text-fg">
          Failed background jobs
        </h2>
        <p className="text-sm text-fg-muted">
          No background job has failed. Titles and recent activity are written after each turn; a
          job that keeps failing after its retries is listed here.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="failed-jobs-heading" className="space-y-3">
      <h2 id="failed-jobs-heading" className="text-base font-semibold text-fg">
        Failed background jobs
      </h2>
      <p className="text-sm text-fg-muted">
        Jobs that gave up after their retries, newest first. The turns themselves were not affected.
        Retry runs a job once more; Discard removes it.
      </p>
      <table className="w-full border-collapse text-sm">
        <thead className="sr-only sm:not-sr-only">
          <tr className="border-b border-border text-left text-[12px] font-medium text-fg-muted">
            {COLUMNS.map((column) => (
              <th key={column.label} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr
              key={job.id}
              className="flex flex-col gap-1 border-b border-border py-3 sm:table-row sm:py-0"
            >
              <td className="font-medium text-fg sm:py-2.5 sm:pr-4">{job.functionName}</td>
              <td className="sm:py-2.5 sm:pr-4">
                <Workstream job={job} />
              </td>
              <td className="text-fg-muted sm:py-2.5 sm:pr-4">
                <span className="font-mono text-[12px]">{job.errorCode}</span>
                <span className="block text-[12px]">{job.errorMessage}</span>
              </td>
              <td className="text-fg-muted sm:py-2.5 sm:pr-4 sm:text-right">
                <span className="sm:hidden">Attempts: </span>
                {job.attempts}
              </td>
              <td className="text-fg-muted sm:py-2.5 sm:pr-4">
                <When iso={job.failedAt} />
              </td>
              <td className="sm:py-2.5">
                <FailedJobActions id={job.id} name={job.functionName} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
