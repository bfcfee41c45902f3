// Small pieces the context panel's sections share: a titled section, the short line an empty
// list shows, icon buttons for an item's actions, times and token bars.
import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { formatRelativeTime } from "@/components/sidebar/relative-time";
import { cx } from "@/components/ui/class-names";

export function PanelSection({
  id,
  title,
  meta,
  children,
}: {
  id: string;
  title: string;
  /** A short note beside the title (a count, a time). */
  meta?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="px-4 py-4">
      <div className="mb-2.5 flex items-baseline justify-between gap-2">
        {/* Focusable by script: where focus goes when the item that had it is deleted. */}
        <h3
          id={id}
          tabIndex={-1}
          className="text-[11px] font-semibold tracking-wider text-fg-subtle uppercase"
        >
          {title}
        </h3>
        {meta ? <span className="truncate text-xs text-fg-subtle">{meta}</span> : null}
      </div>
      {children}
    </section>
  );
}

export function EmptyLine({ children }: { children: ReactNode }) {
  return <p className="text-[13px] leading-5 text-fg-subtle">{children}</p>;
}

/**
 * A small icon button for an item's action. With `reveal`, on devices that hover it shows while
 * its row is hovered or holds focus (so Tab still finds it); on touch screens it always shows.
 */
export function ItemAction({
  label,
  reveal = false,
  children,
  className,
  ref,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  label: string;
  reveal?: boolean;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={ref}
      type="button"
      aria-label={label}
      title={label}
      className={cx(
        "flex size-7 shrink-0 items-center justify-center rounded-md text-fg-subtle transition-[color,background-color,opacity]",
        "hover:bg-bg-muted hover:text-fg",
        // Written out in full: Tailwind finds class names in the source as they are spelled.
        reveal &&
          "[@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:group-focus-within:opacity-100",
        className,
      )}
      {...rest}
    >
      {children}
    </button>
  );
}

/**
 * An item's actions. Where the pointer hovers they float over the item's top-right corner while
 * it is hovered or holds focus, so the text keeps the row's full width; on touch screens they sit
 * beside the text, always shown. The item needs `group relative`.
 */
export function ItemActions({ children }: { children: ReactNode }) {
  return (
    <div
      className={cx(
        "-my-1 -mr-1 flex shrink-0",
        "[@media(hover:hover)]:absolute [@media(hover:hover)]:top-1 [@media(hover:hover)]:right-1 [@media(hover:hover)]:m-0",
        "[@media(hover:hover)]:rounded-lg [@media(hover:hover)]:border [@media(hover:hover)]:border-border [@media(hover:hover)]:bg-bg-elevated [@media(hover:hover)]:p-0.5 [@media(hover:hover)]:shadow-sm",
        "[@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:group-focus-within:opacity-100",
      )}
    >
      {children}
    </div>
  );
}

/** "just now", "5m ago", "3h ago", "Yesterday", "Mon", "Mar 3": as the sidebar writes times. */
export function RelativeTime({ iso, now }: { iso: string; now: Date | null }) {
  const short = now ? formatRelativeTime(iso, now) : "";
  const text = short === "now" ? "just now" : /^\d+[mh]$/.test(short) ? `${short} ago` : short;
  // The full time in the browser's own zone, once mounted (the server's zone is not the reader's).
  const absolute = new Date(iso);
  const full = now && !Number.isNaN(absolute.getTime()) ? absolute.toLocaleString() : undefined;
  return (
    <time dateTime={iso} title={full}>
      {text}
    </time>
  );
}

/** A thin bar for a share of a budget; decorative, the numbers beside it say the same. */
export function ShareBar({
  value,
  max,
  className,
}: {
  value: number;
  max: number;
  className?: string;
}) {
  const share = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <div
      aria-hidden="true"
      className={cx("h-1 overflow-hidden rounded-full bg-bg-muted", className)}
    >
      <div
        className={cx("h-full rounded-full", value > max ? "bg-danger" : "bg-accent/70")}
        style={{ width: `${Math.max(share * 100, value > 0 ? 2 : 0)}%` }}
      />
    </div>
  );
}

const count = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return count.format(value);
}
