import { describe, expect, it } from "vitest";
import { isSecureRequest } from "./secure-request";

const forwarded = (proto: string) => new Headers({ "x-forwarded-proto": proto });

describe("secure cookies per request", () => {
  it("UI2 BETTER_AUTH_URL's scheme decides when it is set", () => {
    expect(isSecureRequest(forwarded("http"), { BETTER_AUTH_URL: "https://app.example" })).toBe(
      true,
    );
    expect(isSecureRequest(forwarded("https"), { BETTER_AUTH_URL: "http://lan.test:3000" })).toBe(
      false,
    );
  });

  it("UI2 without a trusted proxy a client's X-Forwarded-Proto decides nothing: plain HTTP", () => {
    expect(isSecureRequest(forwarded("https"), {})).toBe(false);
    expect(isSecureRequest(new Headers(), {})).toBe(false);
  });

  it("UI2 with WORKSTREAMS_TRUST_PROXY=1 the proxy's X-Forwarded-Proto decides", () => {
    const env = { WORKSTREAMS_TRUST_PROXY: "1" };
    expect(isSecureRequest(forwarded("https"), env)).toBe(true);
    expect(isSecureRequest(forwarded("HTTPS, http"), env)).toBe(true);
    expect(isSecureRequest(forwarded("http"), env)).toBe(false);
  });
});
