import { describe, expect, it } from "vitest";
import { IDLE_TURN } from "@/lib/chat-client/turn-status";
import { ChatRequestError } from "@/lib/chat-client/wire";
import { errorOutcome } from "./chat-notice";

const sending = { id: "msg_1", text: "Hi", retry: false, before: IDLE_TURN };
const failed = (code: string, details: Record<string, unknown> = {}, messageId = "msg_1") => {
  const error = new ChatRequestError(code, `The server said ${code}.`, { status: 409, details });
  error.messageId = messageId;
  return error;
};

describe("what the chat does when a request fails", () => {
  it("a turn already running elsewhere: says so, and follows it once the request settled", () => {
    const outcome = errorOutcome(failed("conflict:turn_active"), sending);
    expect(outcome.notice?.tone).toBe("info");
    expect(outcome.notice?.message).toMatch(/already running/);
    expect(outcome.refused).toBe(sending);
    expect(outcome.next).toEqual({ action: "sync", later: true });
  });

  it("a turn waiting for an approval: points at the approval and reloads", () => {
    const outcome = errorOutcome(failed("conflict:turn_active", { approvalId: "ap_1" }), sending);
    expect(outcome.notice?.message).toMatch(/waiting for your approval/);
    expect(outcome.next).toEqual({ action: "resync", later: true });
  });

  it("a message sent twice: says so and reloads at once", () => {
    const outcome = errorOutcome(failed("conflict:duplicate_message"), sending);
    expect(outcome.notice).toEqual({ message: "That message was already sent.", tone: "info" });
    expect(outcome.next).toEqual({ action: "resync", later: false });
  });

  it("a send that never reached the server: the message goes back to the box", () => {
    const outcome = errorOutcome(failed("network:failed"), sending);
    expect(outcome.refused).toBe(sending);
    expect(outcome.notice?.message).toMatch(/still in the box/);
    expect(outcome.next).toBeNull();
  });

  it("a stream that lost the server: no notice, the connection shows as lost", () => {
    const outcome = errorOutcome(failed("network:lost", {}, "other"), sending);
    expect(outcome.refused).toBeNull();
    expect(outcome.notice).toBeNull();
    expect(outcome.next).toEqual({ action: "connection-lost" });
  });

  it("anything else: the error's own sentence, as an error", () => {
    const outcome = errorOutcome(new Error("Something broke."), null);
    expect(outcome).toEqual({
      notice: { message: "Something broke.", tone: "error" },
      refused: null,
      next: null,
    });
  });
});
