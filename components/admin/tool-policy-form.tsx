"use client";
// The organization's tool policy as a form: one rule per tool (allowed, requires approval,
// forbidden), saved together. "Allowed" leaves a tool to each workstream's own settings.
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import type { ToolPolicyEntry } from "@/lib/admin/tool-policy";

type Rule = ToolPolicyEntry["rule"];

const RULES: Array<{ rule: Rule; label: string }> = [
  { rule: "allowed", label: "Allowed" },
  { rule: "requires_approval", label: "Requires approval" },
  { rule: "forbidden", label: "Forbidden" },
];

const ASKS: Record<ToolPolicyEntry["asks"], string> = {
  never: "Runs without asking",
  always: "Asks its owner",
  sometimes: "Asks for some calls",
};

export function ToolPolicyForm({ initial }: { initial: ToolPolicyEntry[] }) {
  const [tools, setTools] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const headingId = useId();
  const changed = tools.some((tool, index) => tool.rule !== saved[index]?.rule);

  const save = async () => {
    setSaving(true);
    setStatus(null);
    try {
      const response = await fetch("/api/admin/tool-policy", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          rules: Object.fromEntries(tools.map((tool) => [tool.toolName, tool.rule])),
        }),
      });
      const body = (await response.json()) as {
        tools?: ToolPolicyEntry[];
        error?: { message?: string };
      };
      if (!response.ok || !body.tools) {
        throw new Error(body.error?.message ?? "The policy could not be saved.");
      }
      setTools(body.tools);
      setSaved(body.tools);
      setStatus({ text: "Saved. New tool calls follow it at once.", error: false });
    } catch (error) {
      setStatus({
        text: error instanceof Error ? error.message : "The policy could not be saved.",
        error: true,
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="text-base font-semibold text-fg">
        Tool policy
      </h2>
      <p className="text-sm text-fg-muted">
        What agents may do in every workstream of the organization, checked before a workstream’s
        own settings: a forbidden tool is refused without asking anyone, a tool that requires
        approval always asks the workstream’s owner, an allowed one follows the workstream’s
        settings.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        className="space-y-3"
      >
        <table className="w-full border-collapse text-sm">
          <thead className="sr-only sm:not-sr-only">
            <tr className="border-b border-border text-left text-[12px] font-medium text-fg-muted">
              <th scope="col" className="py-2 pr-4 font-medium">
                Tool
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                By default
              </th>
              <th scope="col" className="py-2 font-medium">
                Organization rule
              </th>
            </tr>
          </thead>
          <tbody>
            {tools.map((tool, index) => (
              <tr
                key={tool.toolName}
                data-tool-policy={tool.toolName}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-border py-2.5 sm:table-row sm:py-0"
              >
                <td className="w-full font-mono text-[13px] text-fg sm:w-auto sm:py-2 sm:pr-4">
                  {tool.toolName}
                </td>
                <td className="text-[13px] text-fg-muted sm:py-2 sm:pr-4">{ASKS[tool.asks]}</td>
                <td className="sm:py-2">
                  <select
                    aria-label={`Rule for ${tool.toolName}`}
                    value={tool.rule}
                    onChange={(event) => {
                      const rule = event.target.value as Rule;
                      setTools((list) =>
                        list.map((item, at) => (at === index ? { ...item, rule } : item)),
                      );
                    }}
                    className={cx(
                      "h-8 rounded-lg border border-border-strong bg-bg px-2 text-[13px] text-fg",
                      tool.rule === "forbidden" && "text-danger",
                    )}
                  >
                    {RULES.map((option) => (
                      <option key={option.rule} value={option.rule}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex items-center gap-3">
          <Button type="submit" pending={saving} pendingLabel="Saving…" disabled={!changed}>
            Save policy
          </Button>
          <p
            role="status"
            className={cx("text-[13px]", status?.error ? "text-danger" : "text-fg-muted")}
          >
            {status?.text ?? ""}
          </p>
        </div>
      </form>
    </section>
  );
}
