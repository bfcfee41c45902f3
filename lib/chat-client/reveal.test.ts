import { describe, expect, it } from "vitest";
import { type Clock, DEFAULT_REVEAL, nextStep, Revealer } from "./reveal";

const settings = DEFAULT_REVEAL;
const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(" ");

function fakeClock() {
  let now = 0;
  let hidden = false;
  const timers: Array<{ at: number; callback: () => void; id: number }> = [];
  let nextId = 1;
  const clock: Clock = {
    now: () => now,
    hidden: () => hidden,
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
  const setHidden = (value: boolean) => {
    hidden = value;
  };
  return { clock, advance, setHidden };
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

  it("T17 text that has waited more than a second still steps 8–24 characters", () => {
    const text = words(20);
    const step = nextStep({
      text,
      shown: 10,
      arrivals: [{ length: text.length, at: 0 }],
      now: 5_000,
    });
    expect(step.shown - 10).toBeGreaterThanOrEqual(settings.minStep);
    expect(step.shown - 10).toBeLessThanOrEqual(settings.maxStep);
  });

  it("T17 text that arrived while the page was hidden shows at once", () => {
    const text = words(200);
    const arrivals = [{ length: text.length, at: 0, hidden: true }];
    expect(nextStep({ text, shown: 0, arrivals, now: 0 }).shown).toBe(text.length);
    const visible = [{ length: text.length, at: 0 }];
    expect(nextStep({ text, shown: 0, arrivals: visible, now: 0, hidden: true }).shown).toBe(
      text.length,
    );
  });

  it("T17 a 2,000-character backlog keeps 8–24 character steps and only shortens the delay", () => {
    const text = prose(2_000);
    const arrivals = [{ length: text.length, at: 0 }];
    let shown = 0;
    let steps = 0;
    while (shown < text.length) {
      const step = nextStep({ text, shown, arrivals, now: steps * 16, random: mulberry(3) });
      const size = step.shown - shown;
      if (step.shown < text.length) expect(size).toBeGreaterThanOrEqual(settings.minStep);
      expect(size).toBeLessThanOrEqual(settings.maxStep);
      expect(step.delayMs).toBeGreaterThanOrEqual(settings.frameMs);
      // Far behind: quicker than the normal pace, and no sentence pause.
      if (text.length - shown > 200) expect(step.delayMs).toBeLessThan(settings.stepDelayMs);
      shown = step.shown;
      steps += 1;
    }
    expect(steps).toBeGreaterThanOrEqual(80);
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

  it("T17 a surrogate pair at a full step's end shortens the step rather than grow it", () => {
    const text = `${"a".repeat(23)}😀${"b".repeat(40)}`;
    const step = nextStep({
      text,
      shown: 0,
      arrivals: [{ length: text.length, at: 0 }],
      now: 0,
      random: () => 0.999,
    });
    expect(step.shown).toBeLessThanOrEqual(settings.maxStep);
    expect(step.shown).not.toBe(24);
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

  it("T17 shows at once what arrived while the tab was hidden, then steps again once visible", () => {
    const { clock, advance, setHidden } = fakeClock();
    const revealer = new Revealer(
      () => {},
      settings,
      clock,
      () => 0.5,
    );
    const text = words(300);
    setHidden(true);
    revealer.update(text.slice(0, 1_000));
    expect(revealer.shown).toBe(1_000);
    setHidden(false);
    revealer.update(text);
    const before = revealer.shown;
    advance(settings.frameMs);
    expect(revealer.shown - before).toBeLessThanOrEqual(settings.maxStep * 2);
    advance(10_000);
    expect(revealer.done).toBe(true);
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

describe("T17 the reveal keeps up with fast models by its delays, never its steps", () => {
  for (const rate of [300, 600]) {
    it(`T17 at ${rate} characters a second, every step is 8–24 characters and none lags a second`, () => {
      const { steps, worstLagMs } = streamAt(rate);
      // The last step may be the few characters left over.
      expect(steps.slice(0, -1).every((size) => size >= 8 && size <= 24)).toBe(true);
      expect(Math.max(...steps)).toBeLessThanOrEqual(24);
      expect(worstLagMs).toBeLessThanOrEqual(1_000);
    });
  }

  it("T17 at 1,500 characters a second, no step passes 24 characters", () => {
    const { steps } = streamAt(1_500);
    expect(Math.max(...steps)).toBeLessThanOrEqual(24);
  });
});
