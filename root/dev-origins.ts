// The addresses `next dev` answers from. Next refuses its own dev resources (the HMR socket, the
// dev overlay's endpoints) to any page whose address is not on its list, and a page cut off from
// them never hydrates: opened at 127.0.0.1 or at the machine's LAN address, the app renders but
// nothing responds. next.config.ts gives Next this list, and the dev start-up banner prints it as
// URLs. No server-only import: next.config.ts loads this module before any bundle exists.
import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** The names every machine calls itself by, whatever its network. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** An address as a URL's hostname writes it: IPv6 in brackets and in its shortest form. */
function asHostname(address: string): string | null {
  // Link-local IPv6 addresses (fe80::/10) need a zone (%eth0) that URLs cannot carry, so no
  // browser opens one.
  if (address.includes("%") || /^fe[89ab]/i.test(address)) return null;
  const literal = address.includes(":") ? `[${address}]` : address;
  return new URL(`http://${literal}`).hostname;
}

/**
 * One `WORKSTREAMS_DEV_ORIGINS` entry as Next matches it: a hostname or a wildcard pattern such
 * as `*.example.test`. An entry written as a URL (`http://phone.lan:3000`) keeps only its host.
 */
function entryHostname(entry: string): string | null {
  const trimmed = entry.trim().toLowerCase();
  if (!trimmed) return null;
  if (!trimmed.includes("://")) return trimmed;
  if (!URL.canParse(trimmed)) {
    throw new Error(`WORKSTREAMS_DEV_ORIGINS: "${entry.trim()}" is neither a hostname nor a URL.`);
  }
  return new URL(trimmed).hostname;
}

/**
 * Every hostname the dev server accepts pages from: localhost, the loopback addresses, each of
 * this machine's network addresses, then the comma-separated extras of WORKSTREAMS_DEV_ORIGINS.
 */
export function devOriginHostnames({
  interfaces = networkInterfaces(),
  extra = process.env.WORKSTREAMS_DEV_ORIGINS,
}: {
  interfaces?: Interfaces;
  extra?: string;
} = {}): string[] {
  const names = new Set(LOOPBACK);
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      const hostname = asHostname(entry.address);
      if (hostname) names.add(hostname);
    }
  }
  for (const entry of (extra ?? "").split(",")) {
    const hostname = entryHostname(entry);
    if (hostname) names.add(hostname);
  }
  return [...names];
}

/** The URLs a person can open: each accepted hostname with the port (wildcards left out). */
export function devUrls({
  port,
  hostnames = devOriginHostnames(),
}: {
  port: number | string;
  hostnames?: string[];
}): string[] {
  return hostnames.filter((name) => !name.includes("*")).map((name) => `http://${name}:${port}`);
}

/**
 * The URLs a running `next dev` answers at, from what Next stores once it listens: the origin it
 * announced and its port. A server bound to one address (`next dev -H 192.168.1.23`) answers only
 * there; one bound to every interface (the default) answers at each accepted address.
 */
export function servedDevUrls(
  env: NodeJS.ProcessEnv = process.env,
  hostnames: string[] = devOriginHostnames({ extra: env.WORKSTREAMS_DEV_ORIGINS }),
): string[] {
  const origin = env.__NEXT_PRIVATE_ORIGIN;
  const announced = origin && URL.canParse(origin) ? new URL(origin) : null;
  if (announced && !["localhost", "[::1]"].includes(announced.hostname)) return [announced.origin];
  return devUrls({ port: announced?.port || env.PORT || 3000, hostnames });
}
