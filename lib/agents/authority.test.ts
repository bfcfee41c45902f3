import { beforeAll, describe, expect, it } from "vitest";
import { declareApproval } from "./approval-policy";
import { type AuthorityInput, authorize, type Grant } from "./authority";

const ASKS = "test_send";
const QUIET = "test_note";
const call = (toolName: string, target = "Writer") => ({
  toolName,
  input: { workstreamId: target, text: "hi" },
});
const noGrants = async (): Promise<Grant[]> => [];
const authority = (overrides: Partial<AuthorityInput> = {}): AuthorityInput => ({
  policy: {},
  mode: "ask",
  allowlist: [],
  ...overrides,
});
const NOW = new Date("2026-11-26T12:00:00Z");
const grant = (fields: Partial<Grant> = {}): Grant => ({
  id: "grant_1",
  toolName: ASKS,
  approvalKey: "writer",
  expiresAt: new Date(NOW.getTime() + 60_000),
  ...fields,
});

beforeAll(() => {
  declareApproval(ASKS, true, {
    key: (input) => String((input as { workstreamId: string }).workstreamId).toLowerCase(),
  });
  declareApproval(QUIET, false);
});

describe("the authority stack", () => {
  it("policy first: forbidden is denied without asking in any mode, and no grant is read", async () => {
    for (const mode of ["ask", "allowlist", "auto"] as const) {
      let read = false;
      const verdict = await authorize(
        call(ASKS),
        authority({ mode, policy: { [ASKS]: "forbidden" }, allowlist: [ASKS] }),
        async () => {
          read = true;
          return [grant()];
        },
        NOW,
      );
      expect(verdict).toMatchObject({ kind: "decided", approved: false, source: "policy" });
      expect(read).toBe(false);
    }
  });

  it("policy 'requires approval' asks even in auto mode, with a grant, for a tool that needs none", async () => {
    const verdict = await authorize(
      call(QUIET),
      authority({ mode: "auto", policy: { [QUIET]: "requires_approval" } }),
      async () => [grant({ toolName: QUIET, approvalKey: "*" })],
      NOW,
    );
    expect(verdict.kind).toBe("ask");
  });

  it("a tool that needs no approval runs in ask and auto mode without reading grants", async () => {
    for (const mode of ["ask", "auto"] as const) {
      const verdict = await authorize(
        call(QUIET),
        authority({ mode }),
        async () => {
          throw new Error("grants must not be read");
        },
        NOW,
      );
      expect(verdict).toEqual({ kind: "run" });
    }
  });

  it("ask mode asks for a tool that needs approval, with the agent's stated reason", async () => {
    const verdict = await authorize(
      { toolName: ASKS, input: { workstreamId: "Writer", reason: "You asked." } },
      authority(),
      noGrants,
      NOW,
    );
    expect(verdict).toEqual({ kind: "ask", reason: "You asked." });
  });

  it("auto mode approves it, recorded as the mode's decision", async () => {
    expect(await authorize(call(ASKS), authority({ mode: "auto" }), noGrants, NOW)).toMatchObject({
      kind: "decided",
      approved: true,
      source: "mode",
    });
  });

  it("allowlist mode runs the listed tools and asks for every other one", async () => {
    const settings = authority({ mode: "allowlist", allowlist: [ASKS] });
    expect(await authorize(call(ASKS), settings, noGrants, NOW)).toMatchObject({ source: "mode" });
    expect((await authorize(call(QUIET), settings, noGrants, NOW)).kind).toBe("ask");
    const listedQuiet = authority({ mode: "allowlist", allowlist: [QUIET] });
    expect(await authorize(call(QUIET), listedQuiet, noGrants, NOW)).toEqual({ kind: "run" });
  });

  it("a grant comes before the mode: same tool and key, not expired", async () => {
    const grants = async () => [grant()];
    expect(await authorize(call(ASKS), authority(), grants, NOW)).toMatchObject({
      source: "grant",
      grantId: "grant_1",
    });
    expect(await authorize(call(ASKS), authority({ mode: "auto" }), grants, NOW)).toMatchObject({
      source: "grant",
    });
    expect((await authorize(call(ASKS, "Analyst"), authority(), grants, NOW)).kind).toBe("ask");
    const expired = async () => [grant({ expiresAt: new Date(NOW.getTime() - 1) })];
    expect((await authorize(call(ASKS), authority(), expired, NOW)).kind).toBe("ask");
    const anyCall = async () => [grant({ approvalKey: "*" })];
    expect(await authorize(call(ASKS, "Analyst"), authority(), anyCall, NOW)).toMatchObject({
      source: "grant",
    });
  });
});
