"use client";
// The workstream's tool permissions, in a sheet opened from the chat's header: its security mode
// (ask for the tools that need approval, run only the listed tools without asking, or run
// everything), the allowlist, and the approvals its owner remembered, each revocable. Every
// change is saved at once. The organization's tool policy comes first whatever is set here.
import { ShieldCheckIcon } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import {
  type Grant,
  listGrants,
  revokeGrant,
  type Security,
  type SecurityMode,
  setSecurity,
} from "@/lib/chat-client/api";

const loadSheet = () => import("@/components/ui/sheet");
const Sheet = lazy(() => loadSheet().then((module) => ({ default: module.Sheet })));
const SheetTitle = lazy(() => loadSheet().then((module) => ({ default: module.SheetTitle })));

export type ToolSettings = Security & {
  /** The agent's tools, and whether each asks by default. */
  tools: Array<{ name: string; asks: "never" | "always" | "sometimes" }>;
};

const MODES: Array<{ mode: SecurityMode; label: string; hint: string }> = [
  {
    mode: "ask",
    label: "Ask me first",
    hint: "Tools that act outside this workstream wait for your approval.",
  },
  {
    mode: "allowlist",
    label: "Run only the tools I list",
    hint: "The tools you tick run without asking; every other tool asks.",
  },
  {
    mode: "auto",
    label: "Run every tool",
    hint: "Nothing asks. Use it where you trust the agent.",
  },
];

const ASKS: Record<ToolSettings["tools"][number]["asks"], string> = {
  never: "",
  always: "asks by default",
  sometimes: "asks for some calls",
};

export function ToolPermissions({
  workstreamId,
  initial,
}: {
  workstreamId: string;
  initial: ToolSettings;
}) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label="Tool permissions"
        aria-haspopup="dialog"
        aria-expanded={open}
        title="Which tools run without asking"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
        onPointerEnter={() => void loadSheet()}
        onFocus={() => void loadSheet()}
        className="flex size-9 shrink-0 items-center justify-center rounded-lg text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg"
      >
        <ShieldCheckIcon className="size-[18px]" />
      </button>
      {used ? (
        <Suspense fallback={null}>
          <Sheet
            open={open}
            onOpenChange={setOpen}
            side="right"
            returnFocus={buttonRef}
            className="w-[min(24rem,92vw)]"
          >
            <PermissionsBody
              workstreamId={workstreamId}
              initial={initial}
              open={open}
              title={
                <SheetTitle className="text-base font-semibold text-fg">
                  Tool permissions
                </SheetTitle>
              }
            />
          </Sheet>
        </Suspense>
      ) : null}
    </>
  );
}

function PermissionsBody({
  workstreamId,
  initial,
  open,
  title,
}: {
  workstreamId: string;
  initial: ToolSettings;
  open: boolean;
  title: ReactNode;
}) {
  const [security, setSecurityState] = useState<Security>({
    mode: initial.mode,
    allowlist: initial.allowlist,
  });
  const [grants, setGrants] = useState<Grant[] | null>(null);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  const modeName = useId();

  useEffect(() => {
    if (!open) return;
    let live = true;
    listGrants(workstreamId)
      .then((list) => {
        if (live) setGrants(list);
      })
      .catch((error: unknown) => {
        if (live) setStatus({ text: messageOf(error), error: true });
      });
    return () => {
      live = false;
    };
  }, [open, workstreamId]);

  const save = async (next: Security) => {
    const before = security;
    setSecurityState(next);
    setSaving(true);
    try {
      const saved = await setSecurity(workstreamId, {
        securityMode: next.mode,
        ...(next.mode === "allowlist" ? { allowlist: next.allowlist } : {}),
      });
      setSecurityState(saved);
      setStatus({ text: "Saved.", error: false });
    } catch (error) {
      setSecurityState(before);
      setStatus({ text: messageOf(error), error: true });
    } finally {
      setSaving(false);
    }
  };

  const revoke = async (grant: Grant) => {
    try {
      await revokeGrant(workstreamId, grant.id);
      setGrants((list) => list?.filter((item) => item.id !== grant.id) ?? null);
      setStatus({ text: "Forgotten: it asks again.", error: false });
    } catch (error) {
      setStatus({ text: messageOf(error), error: true });
    }
  };

  return (
    <div
      className="flex min-h-0 flex-1 flex-col gap-5 overflow-y-auto p-5"
      data-testid="tool-permissions"
    >
      <div className="space-y-1">
        {title}
        <p className="text-[13px] text-fg-muted">
          Which tool calls run in this workstream without asking you. Your organization’s tool
          policy comes first: a forbidden tool never runs, one that requires approval always asks.
        </p>
      </div>
      <fieldset className="space-y-2" disabled={saving}>
        <legend className="mb-2 text-sm font-medium text-fg">When the agent uses a tool</legend>
        {MODES.map((option) => (
          <label
            key={option.mode}
            className={cx(
              "flex cursor-pointer gap-2.5 rounded-lg border px-3 py-2.5 has-focus-visible:outline-2 has-focus-visible:outline-ring",
              security.mode === option.mode
                ? "border-accent/60 bg-accent-subtle/40"
                : "border-border hover:bg-bg-muted/60",
            )}
          >
            <input
              type="radio"
              name={modeName}
              value={option.mode}
              checked={security.mode === option.mode}
              onChange={() => void save({ ...security, mode: option.mode })}
              className="mt-0.5 size-4 shrink-0 accent-[var(--accent)]"
            />
            <span className="min-w-0">
              <span className="block text-sm text-fg">{option.label}</span>
              <span className="block text-[12px] text-fg-muted">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {security.mode === "allowlist" ? (
        <fieldset className="space-y-1.5" disabled={saving}>
          <legend className="mb-2 text-sm font-medium text-fg">Run without asking</legend>
          {initial.tools.map((tool) => (
            <label key={tool.name} className="flex items-center gap-2.5 py-1 text-sm">
              <input
                type="checkbox"
                checked={security.allowlist.includes(tool.name)}
                onChange={(event) =>
                  void save({
                    mode: "allowlist",
                    allowlist: event.target.checked
                      ? [...security.allowlist, tool.name]
                      : security.allowlist.filter((name) => name !== tool.name),
                  })
                }
                className="size-4 shrink-0 accent-[var(--accent)]"
              />
              <span className="font-mono text-[13px] text-fg">{tool.name}</span>
              {ASKS[tool.asks] ? (
                <span className="text-[12px] text-fg-subtle">{ASKS[tool.asks]}</span>
              ) : null}
            </label>
          ))}
        </fieldset>
      ) : null}
      <section aria-labelledby={`${modeName}-grants`} className="space-y-2">
        <h3 id={`${modeName}-grants`} className="text-sm font-medium text-fg">
          Remembered approvals
        </h3>
        {grants === null ? (
          <p className="text-[13px] text-fg-subtle">Loading…</p>
        ) : grants.length === 0 ? (
          <p className="text-[13px] text-fg-muted">
            None. Tick “Also allow …” when you approve a call to remember it for a while.
          </p>
        ) : (
          <ul className="space-y-1.5">
            {grants.map((grant) => (
              <li
                key={grant.id}
                data-grant-id={grant.id}
                className="flex items-center gap-2 rounded-lg border border-border px-3 py-2"
              >
                <span className="min-w-0 flex-1 text-[13px]">
                  <span className="font-mono text-fg">{grant.toolName}</span>
                  <span className="text-fg-muted">
                    {grant.approvalKey === "*" ? " (any call)" : ` to “${grant.approvalKey}”`}
                  </span>
                  <span className="block text-[12px] text-fg-subtle">
                    until{" "}
                    {new Date(grant.expiresAt).toLocaleDateString([], { dateStyle: "medium" })}
                  </span>
                </span>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Forget ${grant.toolName} ${grant.approvalKey === "*" ? "" : `to ${grant.approvalKey}`}`.trim()}
                  onClick={() => void revoke(grant)}
                >
                  Forget
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <p
        role="status"
        className={cx("text-[13px]", status?.error ? "text-danger" : "text-fg-muted")}
      >
        {status?.text ?? ""}
      </p>
    </div>
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong.";
}
