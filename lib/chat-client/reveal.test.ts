import { describe, expect, it } from "vitest";
import { type Clock, DEFAULT_REVEAL, nextStep, Revealer } from "./reveal";

const settings = DEFAULT_REVEAL;
const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(" ");

function fakeClock() {
  let now = 0;
  const timers: Array<{ at: number; callback: () => void; id: number }> = [];
  let nextId = 1;
  const clock: Clock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout: (handle) => {
      const index = timers.findIndex((timer) => timer.id === handle);
      if (index !== -1) timers.splice(index, 1);
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const timer = timers[0];
      if (!timer || timer.at > until) break;
      timers.shift();
      now = timer.at;
      timer.callback();
    }
    now = until;
  };
  return { clock, advance };
}

describe("nextStep", () => {
  it("reveals 8–24 characters a step, ending after a space", () => {
    const text = words(40);
    let shown = 0;
    for (let i = 0; i < 10; i++) {
      const step = nextStep({ text, shown, arrivals: [{ length: text.length, at: 0 }], now: 0 });
      const size = step.shown - shown;
      expect(size).toBeGreaterThanOrEqual(settings.minStep);
      expect(size).toBeLessThanOrEqual(settings.maxStep);
      expect(text[step.shown - 1]).toBe(" ");
      shown = step.shown;
    }
  });

  it("pauses a little after a sentence ends", () => {
    const text = "Short one. Then a much longer second sentence follows here.";
    const step = nextStep({ text, shown: 0, arrivals: [{ length: text.length, at: 0 }], now: 0 });
    expect(text.slice(0, step.shown)).toBe("Short one. ");
    expect(step.delayMs).toBe(settings.stepDelayMs + settings.sentencePauseMs);
  });

  it("catches up at once when the oldest unshown text arrived more than a second ago", () => {
    const text = words(20);
    const step = nextStep({
      text,
      shown: 10,
      arrivals: [{ length: text.length, at: 0 }],
      now: 1_200,
    });
    expect(step.shown).toBe(text.length);
  });

  it("catches up at once when the backlog would take more than a second to reveal", () => {
    const text = "x ".repeat(2_000);
    const step = nextStep({ text, shown: 0, arrivals: [{ length: text.length, at: 0 }], now: 0 });
    expect(step.shown).toBe(text.length);
  });

  it("never splits a surrogate pair", () => {
    const text = `${"a".repeat(7)}😀${"b".repeat(40)}`;
    const step = nextStep({
      text,
      shown: 0,
      arrivals: [{ length: text.length, at: 0 }],
      now: 0,
      random: () => 0,
    });
    expect(step.shown).not.toBe(8);
  });
});

describe("Revealer", () => {
  it("reveals a streamed text over time and ends with all of it", () => {
    const { clock, advance } = fakeClock();
    const seen: number[] = [];
    const revealer = new Revealer(
      (shown) => seen.push(shown),
      settings,
      clock,
      () => 0.5,
    );
    const text = words(30);
    revealer.update(text.slice(0, 60));
    expect(revealer.shown).toBeGreaterThan(0);
    expect(revealer.shown).toBeLessThan(60);
    advance(50);
    revealer.update(text);
    advance(2_000);
    expect(revealer.shown).toBe(text.length);
    expect(revealer.done).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it("stops when disposed", () => {
    const { clock, advance } = fakeClock();
    const revealer = new Revealer(
      () => {},
      settings,
      clock,
      () => 0,
    );
    revealer.update(words(20));
    const shown = revealer.shown;
    revealer.dispose();
    advance(5_000);
    expect(revealer.shown).toBe(shown);
  });
});
