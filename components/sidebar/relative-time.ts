// "Last active" times as the sidebar shows them: now, 5m, 3h, yesterday, Mon, Mar 3, Mar 3, 2025.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function formatRelativeTime(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  const elapsed = now.getTime() - then.getTime();
  if (!Number.isFinite(elapsed)) return "";
  if (elapsed < MINUTE) return "now";
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m`;
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  if (then.getTime() >= startOfToday) return `${Math.floor(elapsed / HOUR)}h`;
  if (then.getTime() >= startOfToday - DAY) return "Yesterday";
  if (then.getTime() >= startOfToday - 6 * DAY) {
    return then.toLocaleDateString("en-US", { weekday: "short" });
  }
  const sameYear = then.getFullYear() === now.getFullYear();
  return then.toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    ...(sameYear ? {} : { year: "numeric" }),
  });
}
