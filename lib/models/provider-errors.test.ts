import { APICallError } from "@ai-sdk/provider";
import { RetryError, StreamProviderError } from "ai";
import { describe, expect, it } from "vitest";
import { classifyProviderError, errorClass, ModelTimeoutError } from "./provider-errors";

function apiError(statusCode: number | undefined, cause?: unknown) {
  return new APICallError({
    message: "provider text that must not be shown",
    url: "http://model.test/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseBody: '{"error":{"message":"secret","type":"invalid_request_error"}}',
    data: { error: { message: "secret", type: "invalid_request_error" } },
    cause,
  });
}

describe("S12 classifyProviderError", () => {
  it("maps an HTTP status to its code, with the status and the provider's error type", () => {
    const codes = [401, 403, 404, 408, 429, 500, 503, 400, 422].map(
      (status) => classifyProviderError(apiError(status))?.code,
    );
    expect(codes).toEqual([
      "model:auth",
      "model:forbidden",
      "model:not_found",
      "model:timeout",
      "model:rate_limit",
      "model:unavailable",
      "model:unavailable",
      "model:bad_request",
      "model:bad_request",
    ]);
    expect(classifyProviderError(apiError(401))).toEqual({
      code: "model:auth",
      providerStatus: 401,
      providerErrorType: "invalid_request_error",
    });
  });

  it("looks through a RetryError to its last error", () => {
    const retried = new RetryError({
      message: "failed after 3 attempts",
      reason: "maxRetriesExceeded",
      errors: [apiError(500), apiError(429)],
    });
    expect(classifyProviderError(retried)?.code).toBe("model:rate_limit");
  });

  it("reads a network failure from the system code of its cause, not from a message", () => {
    const refused = Object.assign(new Error("connect"), { code: "ECONNREFUSED" });
    const fetchFailed = new TypeError("fetch failed", { cause: refused });
    expect(classifyProviderError(fetchFailed)).toEqual({ code: "model:unreachable" });
    expect(classifyProviderError(apiError(undefined, fetchFailed))).toEqual({
      code: "model:unreachable",
    });
  });

  it("a stream error keeps its status; a timeout is model:timeout", () => {
    const stream = new StreamProviderError({
      message: "overloaded",
      type: "server_error",
      statusCode: 503,
    });
    expect(classifyProviderError(stream)).toEqual({
      code: "model:unavailable",
      providerStatus: 503,
      providerErrorType: "server_error",
    });
    expect(classifyProviderError(new ModelTimeoutError("first token", 1000))?.code).toBe(
      "model:timeout",
    );
  });

  it("an error that is not the provider's is not classified (the turn's own failure)", () => {
    const database = Object.assign(new Error('insert into "turn_events" … params: ws_1'), {
      code: "23505",
    });
    expect(classifyProviderError(database)).toBeNull();
    expect(errorClass(database)).toBe("Error 23505");
    expect(errorClass(database)).not.toContain("ws_1");
  });

  it("drops a provider error type that is free text", () => {
    const error = new StreamProviderError({
      message: "x",
      type: "please email admin@example.com",
      statusCode: 500,
    });
    expect(classifyProviderError(error)?.providerErrorType).toBeUndefined();
  });
});
