"use client";
// The admin console's usage page: tokens per day and cost per member as charts, the members'
// totals beside them, and the member-by-day table below with its CSV. The charts' library loads
// with this page only (a dynamic import), never with the chat.
import { DownloadIcon } from "lucide-react";
import dynamic from "next/dynamic";
import { Button } from "@/components/ui/button";
import type { UsageRow } from "@/lib/admin/usage";
import { formatCost, formatTokens, formatWithoutUsage } from "./format";
import { memberLabel, perDay, perMember, type UsageTotal, usageCsv } from "./usage-summary";

const UsageCharts = dynamic(() => import("./usage-charts").then((module) => module.UsageCharts), {
  ssr: false,
  loading: () => <div className="h-[34rem] animate-pulse rounded-xl bg-bg-muted" />,
});

function Cost({ total }: { total: Pick<UsageTotal, "costUsd"> }) {
  return <>{total.costUsd === null ? "—" : formatCost(total.costUsd)}</>;
}

function download(rows: UsageRow[]) {
  const blob = new Blob([usageCsv(rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `usage-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

export function UsageConsole({ rows, days }: { rows: UsageRow[]; days: number }) {
  const members = perMember(rows);
  const daily = perDay(rows, days);
  const unknown = rows.reduce((sum, row) => sum + row.unknownTurns, 0);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-fg">Usage, last {days} days</h2>
          <p className="text-sm text-fg-muted">
            Tokens and cost of every turn in the organization, by day (UTC) and by member.
            {unknown > 0 ? ` ${formatWithoutUsage(unknown)}: not in the sums, not free.` : ""}
          </p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => download(rows)}
          disabled={rows.length === 0}
        >
          <DownloadIcon className="size-3.5" aria-hidden="true" />
          Export CSV
        </Button>
      </div>
      {rows.length === 0 ? (
        <p className="rounded-xl border border-border p-6 text-sm text-fg-muted">
          No turn has run in the organization in the last {days} days.
        </p>
      ) : (
        <>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
            <UsageCharts daily={daily} members={members} />
            <section aria-labelledby="usage-members" className="min-w-0">
              <h3 id="usage-members" className="mb-2 text-sm font-semibold text-fg">
                By member
              </h3>
              <table className="w-full text-left text-sm" data-testid="usage-members">
                <thead className="text-xs text-fg-subtle">
                  <tr>
                    <th className="py-1.5 pr-2 font-medium">Member</th>
                    <th className="py-1.5 pr-2 text-right font-medium">Tokens</th>
                    <th className="py-1.5 text-right font-medium">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {members.map((member) => (
                    <tr key={member.key} className="border-t border-border">
                      <td className="py-1.5 pr-2 text-fg">
                        {member.label}
                        <span className="block text-xs text-fg-subtle">
                          {member.turns} turns
                          {member.unknownTurns > 0 ? ` · ${member.unknownTurns} unknown` : ""}
                        </span>
                      </td>
                      <td className="py-1.5 pr-2 text-right tabular-nums text-fg-muted">
                        {formatTokens(member.inputTokens + member.outputTokens)}
                      </td>
                      <td className="py-1.5 text-right tabular-nums text-fg">
                        <Cost total={member} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </div>
          <section aria-labelledby="usage-days" className="min-w-0">
            <h3 id="usage-days" className="mb-2 text-sm font-semibold text-fg">
              By member and day
            </h3>
            <div className="overflow-x-auto">
              <table className="w-full min-w-[36rem] text-left text-sm">
                <thead className="text-xs text-fg-subtle">
                  <tr>
                    <th className="py-1.5 pr-3 font-medium">Day</th>
                    <th className="py-1.5 pr-3 font-medium">Member</th>
                    <th className="py-1.5 pr-3 text-right font-medium">Turns</th>
                    <th className="py-1.5 pr-3 text-right font-medium">Unknown usage</th>
                    <th className="py-1.5 pr-3 text-right font-medium">Input</th>
                    <th className="py-1.5 pr-3 text-right font-medium">Output</th>
                    <th className="py-1.5 text-right font-medium">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {[...rows].reverse().map((row) => (
                    <tr key={`${row.day}-${row.userId ?? ""}`} className="border-t border-border">
                      <td className="py-1.5 pr-3 whitespace-nowrap text-fg-muted">{row.day}</td>
                      <td className="py-1.5 pr-3 text-fg">{memberLabel(row)}</td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{row.turns}</td>
                      <td className="py-1.5 pr-3 text-right tabular-nums text-fg-muted">
                        {row.unknownTurns}
                      </td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">
                        {formatTokens(row.inputTokens)}
                      </td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">
                        {formatTokens(row.outputTokens)}
                      </td>
                      <td className="py-1.5 text-right tabular-nums">
                        <Cost total={row} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </div>
  );
}
