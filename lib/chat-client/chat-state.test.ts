import { describe, expect, it } from "vitest";
import {
  type ChatState,
  chatReducer,
  createChatStore,
  displayedTurn,
  initialChatState,
} from "./chat-state";
import { IDLE_TURN } from "./turn-status";

const turnId = "turn_1";
const start = (): ChatState =>
  initialChatState({ turn: IDLE_TURN, latestOffset: 0, compacting: false });
const completed = (): ChatState =>
  [
    { type: "send", id: "msg_1", text: "hi", retry: false } as const,
    { type: "status", status: { turnId, state: "acknowledged" } } as const,
    { type: "status", status: { turnId, state: "ready" } } as const,
  ].reduce(chatReducer, start());

describe("displayedTurn", () => {
  it("UI3 reads as running while the stream is open or the answer is still being revealed", () => {
    const state = completed();
    expect(state.turn.state).toBe("completed");
    expect(displayedTurn(state, { streaming: true, answerRevealed: true }).state).toBe("active");
    expect(displayedTurn(state, { streaming: false, answerRevealed: false }).state).toBe("active");
    expect(displayedTurn(state, { streaming: false, answerRevealed: true }).state).toBe(
      "completed",
    );
  });

  it("UI3 once shown completed, the turn never reads as running again", () => {
    const shown = chatReducer(completed(), { type: "completion-shown", turnId });
    expect(displayedTurn(shown, { streaming: false, answerRevealed: false }).state).toBe(
      "completed",
    );
  });

  it("a page that loads a completed turn shows it completed", () => {
    const state = initialChatState({
      turn: { ...IDLE_TURN, state: "completed", turnId },
      latestOffset: 4,
      compacting: false,
    });
    expect(displayedTurn(state, { streaming: false, answerRevealed: false }).state).toBe(
      "completed",
    );
  });
});

describe("chatReducer", () => {
  it("a refused send restores the turn as it was before", () => {
    const before = completed();
    const sending = chatReducer(before, { type: "send", id: "msg_2", text: "x", retry: false });
    expect(sending.turn.state).toBe("pending");
    const refused = chatReducer(sending, { type: "send-refused", id: "msg_2" });
    expect(refused.turn).toEqual(before.turn);
    expect(refused.sending).toBeNull();
  });

  it("Stop cancels only the running turn it stopped", () => {
    const running = chatReducer(start(), {
      type: "status",
      status: { turnId, state: "processing", stage: "STREAM_RESPONSE" },
    });
    expect(chatReducer(running, { type: "stopped", turnId: "other" })).toBe(running);
    expect(chatReducer(running, { type: "stopped", turnId }).turn.state).toBe("cancelled");
  });

  it("Stop cancels a turn waiting for an approval", () => {
    const waiting = chatReducer(start(), {
      type: "status",
      status: { turnId, state: "suspended", reason: "Waiting for your approval of a tool call." },
    });
    expect(waiting.turn.state).toBe("suspended");
    expect(chatReducer(waiting, { type: "stopped", turnId }).turn.state).toBe("cancelled");
  });

  it("keeps the highest offset seen", () => {
    const state = [5, 3, 9, 7].reduce(
      (current, offset) => chatReducer(current, { type: "offset", offset }),
      start(),
    );
    expect(state.knownOffset).toBe(9);
  });

  it("the store tells listeners about changes only", () => {
    const store = createChatStore(start());
    let calls = 0;
    store.subscribe(() => {
      calls += 1;
    });
    store.dispatch({ type: "stopping", stopping: false });
    store.dispatch({ type: "stopping", stopping: true });
    expect(calls).toBe(1);
    expect(store.getState().stopping).toBe(true);
  });
});
