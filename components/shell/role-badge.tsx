import { cx } from "@/components/ui/class-names";
import type { Role } from "@/lib/auth/organizations";
import { ROLE_LABELS } from "./names";

export function RoleBadge({ role, className }: { role: Role; className?: string }) {
  return (
    <span
      className={cx(
        "inline-flex h-5 items-center rounded-md border px-1.5 text-[11px] font-medium",
        role === "member"
          ? "border-border bg-bg-muted text-fg-muted"
          : "border-transparent bg-accent-subtle text-accent-text",
        className,
      )}
    >
      {ROLE_LABELS[role]}
    </span>
  );
}
