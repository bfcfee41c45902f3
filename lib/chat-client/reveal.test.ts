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

  it("UI7 speeds up instead of jumping when the backlog is long: no sentence pause, shorter delay", () => {
    const text = "A sentence ends here. ".repeat(100);
    const step = nextStep({ text, shown: 0, arrivals: [{ length: text.length, at: 0 }], now: 0 });
    expect(step.shown).toBeLessThanOrEqual(settings.maxStep + settings.minStep);
    expect(step.delayMs).toBeLessThan(settings.stepDelayMs);
    expect(step.delayMs).toBeGreaterThanOrEqual(settings.frameMs);
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

/** A sentence-like text long enough for `ms` of streaming at `rate` characters a second. */
function prose(length: number): string {
  const sentence = "The river bends past the old mill and runs on toward the sea. ";
  return sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length);
}

/**
 * Streams a text at `rate` characters per second in 20 ms chunks for four seconds and records
 * every reveal step: its size, and how long the oldest hidden character had been waiting.
 */
function streamAt(rate: number) {
  const { clock, advance } = fakeClock();
  const steps: number[] = [];
  let previous = 0;
  const text = prose(rate * 4);
  const arrivedAt: number[] = [];
  let now = 0;
  let worstLagMs = 0;
  const revealer = new Revealer(
    (shown) => {
      steps.push(shown - previous);
      previous = shown;
      // Everything up to `shown` is on screen now; the last of it arrived at arrivedAt[shown - 1].
      const waited = now - (arrivedAt[shown - 1] ?? now);
      worstLagMs = Math.max(worstLagMs, waited);
    },
    settings,
    { ...clock, now: () => now },
    mulberry(7),
  );
  const chunk = Math.round(rate / 50);
  for (let length = chunk; length <= text.length; length += chunk) {
    for (let i = length - chunk; i < length; i++) arrivedAt[i] = now;
    revealer.update(text.slice(0, length));
    advance(20);
    now += 20;
  }
  for (let i = 0; i < 200 && !revealer.done; i++) {
    advance(20);
    now += 20;
  }
  expect(revealer.done).toBe(true);
  return { steps, worstLagMs };
}

function mulberry(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe("UI7 the reveal keeps up with fast models", () => {
  for (const rate of [300, 600]) {
    it(`UI7 at ${rate} characters a second, steps stay 8–24 characters and none exceeds 48`, () => {
      const { steps, worstLagMs } = streamAt(rate);
      const regular = steps.filter((size) => size >= 8 && size <= 24).length;
      expect(regular / steps.length).toBeGreaterThanOrEqual(0.95);
      expect(Math.max(...steps)).toBeLessThanOrEqual(48);
      expect(worstLagMs).toBeLessThanOrEqual(1_000);
    });
  }

  it("UI7 at 1,500 characters a second, the largest jump is under 80 characters", () => {
    const { steps, worstLagMs } = streamAt(1_500);
    expect(Math.max(...steps)).toBeLessThan(80);
    expect(worstLagMs).toBeLessThanOrEqual(1_000);
  });
});
