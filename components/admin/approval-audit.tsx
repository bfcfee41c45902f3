// The audit of tool-call decisions, one section per workstream, newest first: the tool, the
// decision and who or what made it, when, and a short form of the arguments' hash (the
// arguments themselves are never stored). A member's reason is theirs: only whether one was given.

import { cx } from "@/components/ui/class-names";
import type { DecisionView, WorkstreamAudit } from "@/lib/approvals/store";

const SOURCE_LABELS: Record<DecisionView["source"], string> = {
  user: "Owner",
  timeout: "Expired",
  policy: "Organization policy",
  grant: "Remembered grant",
  mode: "Security mode",
  guard: "Guard hook",
};

function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toUTCString()}>
      {date.toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC
    </time>
  );
}

function Decision({ decision }: { decision: DecisionView["decision"] }) {
  return (
    <span
      className={cx(
        "inline-flex h-5 items-center rounded-md px-1.5 text-[11px] font-medium",
        decision === "approved"
          ? "bg-accent-subtle text-accent-text"
          : "bg-danger-subtle text-danger",
      )}
    >
      {decision === "approved" ? "Approved" : "Denied"}
    </span>
  );
}

function who(row: DecisionView): string {
  if (row.source === "user") return row.decidedByName ?? "Deleted account";
  return SOURCE_LABELS[row.source];
}

export function ApprovalAudit({ audits }: { audits: WorkstreamAudit[] }) {
  return (
    <section aria-labelledby="approvals-heading" className="space-y-3">
      <h2 id="approvals-heading" className="text-base font-semibold text-fg">
        Tool approvals
      </h2>
      <p className="text-sm text-fg-muted">
        Every decision about a tool call that needed approval, per workstream, newest first. The
        arguments are not kept: the hash tells two calls apart without revealing them.
      </p>
      {audits.length === 0 ? (
        <p className="text-sm text-fg-muted">No tool call has needed approval yet.</p>
      ) : null}
      {audits.map((audit) => (
        <section
          key={audit.workstreamId}
          aria-label={`Approvals in ${audit.title}`}
          data-testid="approval-audit"
          data-workstream-id={audit.workstreamId}
          className="rounded-xl border border-border"
        >
          <header className="flex flex-wrap items-baseline gap-x-2 border-b border-border px-4 py-2.5">
            <h3 className="text-sm font-semibold text-fg">{audit.title}</h3>
            <span className="text-[12px] text-fg-subtle">
              {audit.ownerName ?? "Deleted account"}
            </span>
          </header>
          <table className="w-full border-collapse text-sm">
            <thead className="sr-only sm:not-sr-only">
              <tr className="border-b border-border text-left text-[12px] font-medium text-fg-muted">
                <th scope="col" className="py-2 pr-4 pl-4 font-medium">
                  Tool
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Decision
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  By
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Arguments
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  When
                </th>
              </tr>
            </thead>
            <tbody>
              {audit.decisions.map((row) => (
                <tr
                  key={row.id}
                  data-testid="approval-decision"
                  data-source={row.source}
                  data-decision={row.decision}
                  className="flex flex-col gap-1 border-b border-border px-4 py-3 last:border-b-0 sm:table-row sm:p-0"
                >
                  <td className="font-mono text-[13px] text-fg sm:py-2.5 sm:pr-4 sm:pl-4">
                    {row.toolName}
                  </td>
                  <td className="sm:py-2.5 sm:pr-4">
                    <Decision decision={row.decision} />
                    {row.reasonGiven ? (
                      <span className="ml-2 text-[12px] text-fg-subtle">with a reason</span>
                    ) : null}
                  </td>
                  <td className="text-fg-muted sm:py-2.5 sm:pr-4">{who(row)}</td>
                  <td className="sm:py-2.5 sm:pr-4">
                    <span
                      className="font-mono text-[12px] text-fg-muted"
                      title={`SHA-256 ${row.argsHash}`}
                    >
                      {row.argsHash.slice(0, 12)}…
                    </span>
                  </td>
                  <td className="text-fg-muted sm:py-2.5 sm:pr-4">
                    <When iso={row.decidedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}
