// Next.js start-up hook: migrate and seed before the first request, never during `next build`.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServer } = await import("@/lib/server/startup");
  try {
    await startServer();
  } catch (error) {
    console.error(
      `\n[workstreams] could not start: ${error instanceof Error ? error.message : error}\n`,
    );
    process.exit(1);
  }
}
