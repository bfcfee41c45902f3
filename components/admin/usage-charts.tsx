"use client";
// The usage page's charts (recharts): tokens per day, input and output stacked, and cost per
// member. Colours come from the theme's variables, so the charts follow light and dark. No
// animation: the numbers do not change while the page is open, and a resize should not move them.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatCost, formatTokens } from "./format";
import type { UsageTotal } from "./usage-summary";

const AXIS = { fill: "var(--color-fg-muted)", fontSize: 11 };
const TOOLTIP = {
  contentStyle: {
    background: "var(--color-bg-elevated)",
    border: "1px solid var(--color-border)",
    borderRadius: 8,
    color: "var(--color-fg)",
    fontSize: 12,
  },
  cursor: { fill: "var(--color-bg-muted)" },
};

export function UsageCharts({ daily, members }: { daily: UsageTotal[]; members: UsageTotal[] }) {
  const days = daily.map((day) => ({
    day: day.label.slice(5),
    input: day.inputTokens,
    output: day.outputTokens,
  }));
  const costs = members.map((member) => ({ member: member.label, cost: member.costUsd ?? 0 }));
  return (
    <div className="flex min-w-0 flex-col gap-6" data-testid="usage-charts">
      <figure className="min-w-0">
        <figcaption className="mb-2 text-sm font-semibold text-fg">Tokens per day</figcaption>
        <div className="h-60" role="img" aria-label="Bar chart of input and output tokens per day">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={days} margin={{ top: 4, right: 4, bottom: 0, left: -12 }}>
              <CartesianGrid vertical={false} stroke="var(--color-border)" />
              <XAxis dataKey="day" tick={AXIS} tickLine={false} axisLine={false} minTickGap={12} />
              <YAxis tick={AXIS} tickLine={false} axisLine={false} tickFormatter={formatTokens} />
              <Tooltip {...TOOLTIP} formatter={(value) => formatTokens(Number(value))} />
              <Legend wrapperStyle={{ fontSize: 12, color: "var(--color-fg-muted)" }} />
              <Bar
                dataKey="input"
                name="Input"
                stackId="tokens"
                fill="var(--color-accent)"
                isAnimationActive={false}
              />
              <Bar
                dataKey="output"
                name="Output"
                stackId="tokens"
                fill="var(--color-fg-subtle)"
                radius={[3, 3, 0, 0]}
                isAnimationActive={false}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="min-w-0">
        <figcaption className="mb-2 text-sm font-semibold text-fg">Cost per member</figcaption>
        <div
          className="h-[max(8rem,calc(var(--bars)*2.25rem))]"
          style={{ ["--bars" as string]: String(costs.length) }}
          role="img"
          aria-label="Bar chart of the cost of each member's turns"
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={costs}
              layout="vertical"
              margin={{ top: 0, right: 12, bottom: 0, left: 0 }}
            >
              <CartesianGrid horizontal={false} stroke="var(--color-border)" />
              <XAxis
                type="number"
                tick={AXIS}
                tickLine={false}
                axisLine={false}
                tickFormatter={(value) => formatCost(Number(value))}
              />
              <YAxis
                type="category"
                dataKey="member"
                tick={AXIS}
                tickLine={false}
                axisLine={false}
                width={110}
              />
              <Tooltip {...TOOLTIP} formatter={(value) => formatCost(Number(value))} />
              <Bar
                dataKey="cost"
                name="Cost"
                fill="var(--color-accent)"
                radius={[0, 3, 3, 0]}
                isAnimationActive={false}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}
