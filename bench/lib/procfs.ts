// Reading a server's CPU time and memory from /proc (Linux). /proc/<pid>/stat of a process
// sums all its threads (the main thread, libuv workers, V8 GC/compiler threads, PGlite's WASM).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** utime + stime of the process (all threads), in ms. NaN when the process is gone. */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return Number.NaN;
  // After the name: state(3) ppid(4) … utime(14) stime(15), i.e. indexes 11 and 12 here.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / clockTicks();
}

function statusKb(pid: number, key: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status);
    return match?.[1] ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export const rssKb = (pid: number) => statusKb(pid, "VmRSS");
export const hwmKb = (pid: number) => statusKb(pid, "VmHWM");

function parentOf(pid: number): number {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : -1;
}

function allPids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const parent = parentOf(pid);
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop() as number;
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      stack.push(child);
    }
  }
  return out;
}

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is "IP:PORT"; state 0A is LISTEN; inode is column 10.
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === "0A" && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

/** The process in `root`'s tree (root included) that holds the listening socket on `port`. */
export function listeningPid(root: number, port: number): number | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  for (const pid of [root, ...descendants(root)]) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match?.[1] && inodes.has(match[1])) return pid;
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return null;
}

export function processTree(root: number): Array<{ pid: number; name: string }> {
  return [root, ...descendants(root)].map((pid) => {
    let name = "?";
    try {
      name = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      // gone
    }
    return { pid, name: name.slice(0, 120) };
  });
}

/** CPU ms of the Postgres backends serving database `dbName` (their titles name the database). */
export function postgresBackendCpuMs(dbName: string): number {
  let total = 0;
  for (const pid of allPids()) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.startsWith("postgres: ") && cmdline.split(" ")[2] === dbName) {
        const cpu = cpuMs(pid);
        if (Number.isFinite(cpu)) total += cpu;
      }
    } catch {
      // gone
    }
  }
  return total;
}

/** Samples a process's RSS on an interval; reports the peak. */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  peakKb = 0;
  samples = 0;
  constructor(private readonly pid: number) {}
  start(intervalMs = 50): this {
    const sample = () => {
      const kb = rssKb(this.pid);
      if (Number.isFinite(kb)) {
        this.peakKb = Math.max(this.peakKb, kb);
        this.samples++;
      }
    };
    sample();
    this.timer = setInterval(sample, intervalMs);
    return this;
  }
  stop(): { peakMb: number; samples: number } {
    clearInterval(this.timer);
    const kb = rssKb(this.pid);
    if (Number.isFinite(kb)) this.peakKb = Math.max(this.peakKb, kb);
    return { peakMb: Math.round(this.peakKb / 102.4) / 10, samples: this.samples };
  }
}

export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

export type MappingSummary = { name: string; sizeMb: number; rssMb: number };

/**
 * Where a process's resident memory is, from /proc/<pid>/smaps: the malloc heap, file-backed
 * mappings (code, data files) summed by file, and the largest anonymous mappings one by one
 * (V8's heap spaces and WebAssembly memories are anonymous).
 */
export function residentMappings(pid: number, top = 6): MappingSummary[] {
  let text = "";
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return [];
  }
  const files = new Map<string, MappingSummary>();
  const anonymous: MappingSummary[] = [];
  let current: MappingSummary | null = null;
  let isFile = false;
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head?.[1] && head[2]) {
      const name = head[3] ?? "";
      isFile = name.startsWith("/");
      const sizeMb = (Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16)) / 2 ** 20;
      current = { name: name || "[anonymous]", sizeMb, rssMb: 0 };
      if (isFile) {
        const key = name.split("/").pop() ?? name;
        const sum = files.get(key) ?? { name: key, sizeMb: 0, rssMb: 0 };
        sum.sizeMb += sizeMb;
        files.set(key, sum);
        current = sum;
      } else anonymous.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss?.[1] && current) current.rssMb += Number(rss[1]) / 1024;
  }
  const round1 = (m: MappingSummary) => ({
    name: m.name,
    sizeMb: Math.round(m.sizeMb * 10) / 10,
    rssMb: Math.round(m.rssMb * 10) / 10,
  });
  const heap = anonymous.filter((m) => m.name === "[heap]");
  const anon = anonymous.filter((m) => m.name !== "[heap]").sort((a, b) => b.rssMb - a.rssMb);
  const fileList = [...files.values()].sort((a, b) => b.rssMb - a.rssMb);
  const rest = anon.slice(top).reduce((sum, m) => sum + m.rssMb, 0);
  const filesRss = fileList.reduce((sum, m) => sum + m.rssMb, 0);
  return [
    ...heap.map(round1),
    ...anon.slice(0, top).map(round1),
    round1({ name: `${anon.length - top} other anonymous mappings`, sizeMb: 0, rssMb: rest }),
    round1({ name: `files (${fileList[0]?.name ?? "-"} largest)`, sizeMb: 0, rssMb: filesRss }),
  ];
}
