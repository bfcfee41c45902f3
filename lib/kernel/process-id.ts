// This server process's identity, stored as the owner of the turns it runs (their lease).
import { hostname } from "node:os";
import { processSingleton } from "@/lib/kernel/singleton";

const holder = processSingleton("process", () => ({
  id: `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`,
}));

export const PROCESS_ID = holder.id;

export function parseProcessId(id: string): { host: string; pid: number } | null {
  const [host, pid] = id.split(":");
  const parsed = Number(pid);
  return host && Number.isInteger(parsed) ? { host, pid: parsed } : null;
}
