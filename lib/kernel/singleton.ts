// One instance per process. Next.js loads instrumentation and route handlers in separate module
// graphs (and dev reloads modules), so process-wide state lives on globalThis under a key.
export function processSingleton<T>(key: string, create: () => T): T {
  const store = globalThis as unknown as Record<string, T | undefined>;
  const existing = store[`__workstreams_${key}`];
  if (existing !== undefined) return existing;
  const created = create();
  store[`__workstreams_${key}`] = created;
  return created;
}
