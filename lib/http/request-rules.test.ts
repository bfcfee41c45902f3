import { describe, expect, it } from "vitest";
import { parseTrustedOrigins } from "@/lib/config";
import { isJsonContentType, ownOrigin, requestOrigin } from "./request-rules";

const request = (headers: Record<string, string>) =>
  new Request("http://localhost:3000/api/workstreams", { method: "POST", headers });

describe("the app's own origin", () => {
  it("S8 is BETTER_AUTH_URL's origin when it is set, whatever the Host says", () => {
    expect(
      ownOrigin(request({ host: "evil.example" }), {
        BETTER_AUTH_URL: "https://workstreams.example.com/",
      }),
    ).toBe("https://workstreams.example.com");
  });

  it("S8 is the origin the browser used otherwise (the Host header)", () => {
    expect(ownOrigin(request({ host: "10.0.0.5:3000" }), {})).toBe("http://10.0.0.5:3000");
  });

  const proxied = () =>
    request({
      host: "127.0.0.1:3000",
      "x-forwarded-host": "app.example.com",
      "x-forwarded-proto": "https",
    });

  it("UI2 ignores X-Forwarded-Host and X-Forwarded-Proto without WORKSTREAMS_TRUST_PROXY", () => {
    expect(ownOrigin(proxied(), {})).toBe("http://127.0.0.1:3000");
    expect(requestOrigin(proxied(), {})).toBe("http://127.0.0.1:3000");
  });

  it("UI2 takes a trusted proxy's X-Forwarded-Host and X-Forwarded-Proto with WORKSTREAMS_TRUST_PROXY=1", () => {
    const env = { WORKSTREAMS_TRUST_PROXY: "1" };
    expect(ownOrigin(proxied(), env)).toBe("https://app.example.com");
    // better-auth's trusted origin (its own origin check) is the same.
    expect(requestOrigin(proxied(), env)).toBe("https://app.example.com");
  });
});

describe("WORKSTREAMS_TRUSTED_ORIGINS", () => {
  it("S8 is a comma-separated list of origins, normalized", () => {
    expect(parseTrustedOrigins(undefined)).toEqual([]);
    expect(parseTrustedOrigins(" https://Admin.Example.com/ , http://localhost:5173,")).toEqual([
      "https://admin.example.com",
      "http://localhost:5173",
    ]);
  });

  it("S8 stops start-up on an entry that is not an origin, naming the variable", () => {
    for (const raw of ["admin.example.com", "https://example.com/path", "ftp://example.com", "*"]) {
      expect(() => parseTrustedOrigins(raw)).toThrow(/WORKSTREAMS_TRUSTED_ORIGINS/);
    }
  });
});

describe("JSON content type", () => {
  it("S8 is application/json with or without parameters, nothing else", () => {
    expect(isJsonContentType("application/json")).toBe(true);
    expect(isJsonContentType("Application/JSON; charset=utf-8")).toBe(true);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp"]) {
      expect(isJsonContentType(type)).toBe(false);
    }
  });
});
