"use client";
// The Models tab: runs the model check on demand and shows its table (what worked, each
// failure's status and message, what the catalogue assumes). Nothing is kept: leaving the page
// forgets the result.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import type { ModelCheckReport } from "@/lib/admin/model-check";

export function ModelCheck() {
  const [report, setReport] = useState<ModelCheckReport | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setRunning(true);
    setError(null);
    try {
      const response = await fetch("/api/admin/models/check", { method: "POST" });
      const body = (await response.json()) as ModelCheckReport & { error?: { message?: string } };
      if (!response.ok) throw new Error(body.error?.message ?? "The check could not run.");
      setReport(body);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The check could not run.");
    } finally {
      setRunning(false);
    }
  };

  return (
    <section aria-labelledby="model-check-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="model-check-heading" className="text-base font-semibold">
            Models
          </h2>
          <p className="text-sm text-fg-muted">
            A few tiny calls to each configured model, made as a turn would make them: stream a
            sentence, one tool call, one structured output (strict where the model supports it), one
            embedding. The same check as <code>npm run models:check</code>.
          </p>
        </div>
        <Button onClick={run} disabled={running}>
          {running ? "Checking…" : "Run the check"}
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      {report ? (
        <div className="overflow-x-auto">
          <p className="mb-2 text-sm text-fg-muted">Provider: {report.provider}</p>
          <table className="w-full text-left text-sm" data-testid="model-check-table">
            <thead className="text-fg-muted">
              <tr>
                <th className="py-1 pr-3 font-medium">Model</th>
                <th className="py-1 pr-3 font-medium">Check</th>
                <th className="py-1 pr-3 font-medium">Result</th>
                <th className="py-1 pr-3 font-medium">Detail</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.flatMap((row) =>
                row.results.map((result, index) => (
                  <tr key={`${row.modelId}-${result.check}`} className="border-t border-border">
                    <td className="py-1 pr-3 align-top">
                      {index === 0 ? (
                        <>
                          <span className="font-medium">{row.modelId}</span>{" "}
                          <span className="text-fg-muted">({row.roles.join(", ")})</span>
                          <div className="text-xs text-fg-muted">{row.assumes}</div>
                        </>
                      ) : null}
                    </td>
                    <td className="py-1 pr-3 align-top">{result.check}</td>
                    <td
                      className={cx(
                        "py-1 pr-3 align-top font-medium",
                        result.ok ? "text-fg" : "text-danger",
                      )}
                    >
                      {result.ok ? "worked" : `failed${result.status ? ` (${result.status})` : ""}`}
                    </td>
                    <td className="py-1 pr-3 align-top break-words">
                      {result.detail} <span className="text-fg-muted">· {result.ms} ms</span>
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
