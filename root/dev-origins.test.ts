// The dev server's accepted addresses: loopback names, the machine's own network addresses (from a
// stubbed os.networkInterfaces()), the extras of WORKSTREAMS_DEV_ORIGINS, and the URLs printed.
import type { NetworkInterfaceInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { devOriginHostnames, devUrls, servedDevUrls } from "./dev-origins";

function iface(address: string, family: "IPv4" | "IPv6", internal = false): NetworkInterfaceInfo {
  const common = { address, netmask: "255.255.255.0", mac: "02:42:ac:11:00:02", internal };
  return family === "IPv4"
    ? { ...common, family, cidr: `${address}/24` }
    : { ...common, family, cidr: `${address}/64`, scopeid: 0 };
}

const LAPTOP = {
  lo: [iface("127.0.0.1", "IPv4", true), iface("::1", "IPv6", true)],
  wlan0: [iface("192.168.1.23", "IPv4"), iface("2001:db8:0:0::17", "IPv6")],
  docker0: [iface("172.17.0.1", "IPv4")],
};

describe("dev server origins", () => {
  it("accepts localhost, 127.0.0.1, [::1] and every network address of the machine", () => {
    expect(devOriginHostnames({ interfaces: LAPTOP, extra: undefined })).toEqual([
      "localhost",
      "127.0.0.1",
      "[::1]",
      "192.168.1.23",
      "[2001:db8::17]",
      "172.17.0.1",
    ]);
  });

  it("accepts the loopback names on a machine with no network", () => {
    expect(devOriginHostnames({ interfaces: {}, extra: "" })).toEqual([
      "localhost",
      "127.0.0.1",
      "[::1]",
    ]);
  });

  it("leaves out link-local addresses a browser cannot open", () => {
    const hostnames = devOriginHostnames({
      interfaces: { eth0: [iface("fe80::fc:ff:fe00:1", "IPv6"), iface("fe80::1%eth0", "IPv6")] },
      extra: undefined,
    });
    expect(hostnames).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  });

  it("adds WORKSTREAMS_DEV_ORIGINS entries, written as hostnames, wildcards or URLs", () => {
    const hostnames = devOriginHostnames({
      interfaces: {},
      extra: " Phone.LAN , *.tunnel.example.test,http://10.0.0.9:3000/, ,",
    });
    expect(hostnames).toEqual([
      "localhost",
      "127.0.0.1",
      "[::1]",
      "phone.lan",
      "*.tunnel.example.test",
      "10.0.0.9",
    ]);
  });

  it("refuses an entry that is neither a hostname nor a URL, naming the variable", () => {
    expect(() => devOriginHostnames({ interfaces: {}, extra: "http://" })).toThrow(
      /WORKSTREAMS_DEV_ORIGINS/,
    );
  });

  it("prints a URL per openable address with the port, wildcards left out", () => {
    expect(
      devUrls({ port: 3000, hostnames: ["localhost", "[::1]", "192.168.1.23", "*.example.test"] }),
    ).toEqual(["http://localhost:3000", "http://[::1]:3000", "http://192.168.1.23:3000"]);
  });
});

describe("the dev start-up banner's URLs", () => {
  const hostnames = ["localhost", "127.0.0.1", "[::1]", "192.168.1.23"];

  it("lists every accepted address when next dev listens on all of them", () => {
    expect(
      servedDevUrls(
        { __NEXT_PRIVATE_ORIGIN: "http://localhost:3001", PORT: "3001", NODE_ENV: "development" },
        hostnames,
      ),
    ).toEqual([
      "http://localhost:3001",
      "http://127.0.0.1:3001",
      "http://[::1]:3001",
      "http://192.168.1.23:3001",
    ]);
  });

  it("lists only the address next dev was bound to with -H", () => {
    expect(
      servedDevUrls(
        {
          __NEXT_PRIVATE_ORIGIN: "http://192.168.1.23:3000",
          PORT: "3000",
          NODE_ENV: "development",
        },
        hostnames,
      ),
    ).toEqual(["http://192.168.1.23:3000"]);
  });
});
