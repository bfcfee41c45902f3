// A server's V8 inspector (the server started with --inspect=127.0.0.1:0): evaluates expressions
// inside it, for memory readings /proc cannot give (the V8 heap, PGlite's WebAssembly heap) and
// for reading the embedded database's table sizes through the app's own handle.

export type Inspector = {
  evaluate<T>(expression: string): Promise<T>;
  close(): void;
};

/** The raw protocol: one call per method, events by name. The profiler and heap tools use it. */
export type InspectorSession = {
  send(method: string, params?: Record<string, unknown>): Promise<InspectorReply>;
  onEvent(method: string, listener: (params: Record<string, unknown>) => void): void;
  close(): void;
};

/** Connects to the inspector whose URL the server printed (started with --inspect=127.0.0.1:0). */
export async function openInspector(output: () => string): Promise<InspectorSession> {
  let url: string | undefined;
  for (let i = 0; i < 50 && !url; i++) {
    url = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(output())?.[1];
    if (!url) await new Promise((r) => setTimeout(r, 100));
  }
  if (!url) throw new Error("the server printed no inspector URL");
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error("inspector connection failed")), {
      once: true,
    });
  });
  let nextId = 1;
  const pending = new Map<number, (message: InspectorReply) => void>();
  const listeners = new Map<string, (params: Record<string, unknown>) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as InspectorReply & {
      method?: string;
      params?: Record<string, unknown>;
    };
    if (message.method) listeners.get(message.method)?.(message.params ?? {});
    if (message.id !== undefined) {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  return {
    send: (method, params = {}) =>
      new Promise<InspectorReply>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    onEvent: (method, listener) => listeners.set(method, listener),
    close: () => socket.close(),
  };
}

export async function connectInspector(output: () => string): Promise<Inspector> {
  const session = await openInspector(output);
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const reply = await session.send("Runtime.evaluate", {
        expression,
        awaitPromise: true,
        returnByValue: true,
      });
      const result = reply.result as EvaluateResult | undefined;
      const details = result?.exceptionDetails;
      if (details || reply.error) {
        throw new Error(
          `inspector: ${details?.exception?.description ?? details?.text ?? reply.error?.message}`,
        );
      }
      return result?.result?.value as T;
    },
    close: () => session.close(),
  };
}

type EvaluateResult = {
  result?: { value?: unknown };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
};

export type InspectorReply = {
  id?: number;
  error?: { message: string };
  result?: unknown;
};

export type MemoryReading = {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** PGlite's WebAssembly memory (it grows and never shrinks), when the app runs on PGlite. */
  wasmHeapMb: number | null;
};

/** The app keeps its database handle on globalThis (lib/kernel/singleton.ts, key "db"). */
const HANDLE =
  "(globalThis.__workstreams_db?.handle ? await globalThis.__workstreams_db.handle : null)";

export function readMemory(inspector: Inspector): Promise<MemoryReading> {
  return inspector.evaluate<MemoryReading>(`(async () => {
    const m = process.memoryUsage();
    const h = ${HANDLE};
    const heap = h && h.kind === "pglite" ? h.client.mod?.HEAPU8?.length ?? null : null;
    const mb = (n) => Math.round(n / 1048576 * 10) / 10;
    return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal),
             externalMb: mb(m.external), wasmHeapMb: heap === null ? null : mb(heap) };
  })()`);
}

/** Runs a read-only query on the embedded database through the app's handle (PGlite only). */
export function queryEmbedded<T>(inspector: Inspector, sql: string): Promise<T[]> {
  return inspector.evaluate<T[]>(`(async () => {
    const h = ${HANDLE};
    if (!h || h.kind !== "pglite") return [];
    return (await h.client.query(${JSON.stringify(sql)})).rows;
  })()`);
}
