// The usage page's numbers: per member and per day totals from the rows (one per member and
// day), and the CSV of the rows. Unknown usage stays unknown: counted in its own column, and a
// cost nobody knows is "unknown", never 0.
import type { UsageRow } from "@/lib/admin/usage";

export type UsageTotal = {
  key: string;
  label: string;
  turns: number;
  unknownTurns: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
};

function add(total: UsageTotal, row: UsageRow): UsageTotal {
  return {
    ...total,
    turns: total.turns + row.turns,
    unknownTurns: total.unknownTurns + row.unknownTurns,
    inputTokens: total.inputTokens + row.inputTokens,
    outputTokens: total.outputTokens + row.outputTokens,
    costUsd:
      total.costUsd === null && row.costUsd === null
        ? null
        : (total.costUsd ?? 0) + (row.costUsd ?? 0),
  };
}

function totals(rows: UsageRow[], keyOf: (row: UsageRow) => [string, string]): UsageTotal[] {
  const byKey = new Map<string, UsageTotal>();
  for (const row of rows) {
    const [key, label] = keyOf(row);
    const empty: UsageTotal = {
      key,
      label,
      turns: 0,
      unknownTurns: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: null,
    };
    byKey.set(key, add(byKey.get(key) ?? empty, row));
  }
  return [...byKey.values()];
}

export function memberLabel(row: Pick<UsageRow, "member">): string {
  return row.member ?? "Former member";
}

export function perMember(rows: UsageRow[]): UsageTotal[] {
  return totals(rows, (row) => [row.userId ?? "", memberLabel(row)]).sort(
    (a, b) => (b.costUsd ?? 0) - (a.costUsd ?? 0) || b.turns - a.turns,
  );
}

/** Every day of the period, oldest first, days without turns included (as zeros: nothing ran). */
export function perDay(rows: UsageRow[], days: number, today = new Date()): UsageTotal[] {
  const known = new Map(
    totals(rows, (row) => [row.day, row.day]).map((total) => [total.key, total]),
  );
  const result: UsageTotal[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const day = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - back),
    )
      .toISOString()
      .slice(0, 10);
    result.push(
      known.get(day) ?? {
        key: day,
        label: day,
        turns: 0,
        unknownTurns: 0,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
      },
    );
  }
  return result;
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function usageCsv(rows: UsageRow[]): string {
  const header = [
    "day",
    "member",
    "turns",
    "turns_with_unknown_usage",
    "input_tokens",
    "output_tokens",
    "cost_usd",
  ];
  const lines = rows.map((row) =>
    [
      row.day,
      csvField(memberLabel(row)),
      String(row.turns),
      String(row.unknownTurns),
      String(row.inputTokens),
      String(row.outputTokens),
      row.costUsd === null ? "unknown" : row.costUsd.toFixed(6),
    ].join(","),
  );
  return `${[header.join(","), ...lines].join("\n")}\n`;
}
