// The Workstreams logo mark: three stream lines on a rounded square, inverted in dark mode.
import { cx } from "@/components/ui/class-names";

export function ProductMark({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={cx("size-6 shrink-0", className)}>
      <rect width="24" height="24" rx="6" className="fill-fg" />
      <path
        d="M6.5 8.5h8M6.5 12h11M6.5 15.5h6"
        className="stroke-bg"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}
