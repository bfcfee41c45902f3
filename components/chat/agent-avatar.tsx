// The agent's mark beside its answers: its initial on the accent colour.
export function AgentAvatar({ name, size = "sm" }: { name: string; size?: "sm" | "lg" }) {
  const initial = name.trim().charAt(0).toUpperCase() || "A";
  return (
    <span
      aria-hidden="true"
      className={
        size === "lg"
          ? "flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent text-base font-semibold text-accent-fg"
          : "flex size-6 shrink-0 items-center justify-center rounded-md bg-accent text-xs font-semibold text-accent-fg"
      }
    >
      {initial}
    </span>
  );
}
