import { cx } from "@/components/ui/class-names";
import { initials } from "./names";

/** A person's initials in a circle; decorative, the name is always written next to it. */
export function Avatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        "flex size-7 shrink-0 items-center justify-center rounded-full bg-bg-muted text-[11px] font-semibold text-fg-muted ring-1 ring-border",
        className,
      )}
    >
      {initials(name)}
    </span>
  );
}
