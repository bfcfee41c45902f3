// Quiet placeholders while the context panel's code or its first answer loads.
export function ContextPanelPlaceholder() {
  return (
    <div className="space-y-5 px-4 py-4" aria-busy="true">
      {[0, 1, 2].map((index) => (
        <div key={index} className="space-y-2">
          <span className="block h-3 w-24 animate-pulse rounded bg-bg-muted" />
          <span className="block h-10 animate-pulse rounded-lg bg-bg-muted/70" />
        </div>
      ))}
      <span className="sr-only">Loading the workstream context…</span>
    </div>
  );
}
