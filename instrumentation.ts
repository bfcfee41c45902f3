// Next.js start-up hook: migrate and seed before the first request, never during `next build`.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServerOrExit } = await import("@/lib/server/startup");
  // Domains register their per-process services (onStartup) before the start-up hooks run.
  await import("@/lib/workstreams/startup");
  await startServerOrExit();
}
