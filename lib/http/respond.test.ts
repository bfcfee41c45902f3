import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/kernel/errors";
import { errorResponse } from "./respond";

describe("error responses", () => {
  it("H1 a rate-limited turn answers 429 with Retry-After from its retryAfter detail", async () => {
    const response = errorResponse(new AppError("rate_limit:turn", { details: { retryAfter: 7 } }));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    const body = (await response.json()) as { error: { code: string; retryAfter: number } };
    expect(body.error).toMatchObject({ code: "rate_limit:turn", retryAfter: 7 });
  });

  it("H1 a refusal that does not pass with time never says when to retry", () => {
    const response = errorResponse(
      new AppError("conflict:turn_active", { details: { retryAfter: 5 } }),
    );
    expect(response.headers.get("retry-after")).toBeNull();
  });
});
