// Throttled reveal of streamed text (seed 000, client side): 8–24 characters a step, a short
// pause after a sentence ends, and an instant catch-up once the reveal falls more than ~1 s
// behind the stream. `nextStep` is the pure rule; `Revealer` drives it with a timer.

export type RevealSettings = {
  minStep: number;
  maxStep: number;
  /** Delay between steps. */
  stepDelayMs: number;
  /** Extra delay after a step that ends a sentence. */
  sentencePauseMs: number;
  /** Show everything at once when the reveal is this far behind the stream. */
  maxLagMs: number;
};

export const DEFAULT_REVEAL: RevealSettings = {
  minStep: 8,
  maxStep: 24,
  stepDelayMs: 28,
  sentencePauseMs: 140,
  maxLagMs: 1_000,
};

/** When each length of the text arrived, oldest first. */
export type Arrival = { length: number; at: number };

export type RevealStep = { shown: number; delayMs: number };

// A sentence end with the space after it, or a paragraph break.
const SENTENCE_END = /[.!?…][)"'’”\]]*\s+|\n\n+/g;
const SPACE = /\s/;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Moves a step's end next to a space (whole words), keeping the step within its bounds. */
function snapToWord(text: string, shown: number, end: number, settings: RevealSettings): number {
  const low = shown + settings.minStep;
  const high = Math.min(text.length, shown + settings.maxStep);
  for (let i = end - 1; i >= low; i--) if (SPACE.test(text.charAt(i))) return i + 1;
  for (let i = end; i < high; i++) if (SPACE.test(text.charAt(i))) return i + 1;
  return end;
}

/** How long the backlog would take at the configured pace. */
function backlogMs(backlog: number, settings: RevealSettings): number {
  const average = (settings.minStep + settings.maxStep) / 2;
  return (backlog / average) * settings.stepDelayMs;
}

/** The first arrival that is not fully shown yet. */
function oldestUnshown(arrivals: readonly Arrival[], shown: number): Arrival | undefined {
  return arrivals.find((arrival) => arrival.length > shown);
}

export function isBehind({
  text,
  shown,
  arrivals,
  now,
  settings,
}: {
  text: string;
  shown: number;
  arrivals: readonly Arrival[];
  now: number;
  settings: RevealSettings;
}): boolean {
  if (shown >= text.length) return false;
  const oldest = oldestUnshown(arrivals, shown);
  if (oldest && now - oldest.at > settings.maxLagMs) return true;
  return backlogMs(text.length - shown, settings) > settings.maxLagMs;
}

/** The next length to show and how long to wait after it. */
export function nextStep({
  text,
  shown,
  arrivals,
  now,
  settings = DEFAULT_REVEAL,
  random = Math.random,
}: {
  text: string;
  shown: number;
  arrivals: readonly Arrival[];
  now: number;
  settings?: RevealSettings;
  random?: () => number;
}): RevealStep {
  if (shown >= text.length) return { shown: text.length, delayMs: 0 };
  if (isBehind({ text, shown, arrivals, now, settings })) {
    return { shown: text.length, delayMs: settings.stepDelayMs };
  }
  const span = settings.maxStep - settings.minStep + 1;
  let end = Math.min(text.length, shown + settings.minStep + Math.floor(random() * span));
  if (end < text.length) end = snapToWord(text, shown, end, settings);
  // A sentence that ends inside the step ends the step, with a pause after it.
  SENTENCE_END.lastIndex = shown;
  let pause = 0;
  for (let match = SENTENCE_END.exec(text); match; match = SENTENCE_END.exec(text)) {
    const boundary = match.index + match[0].length;
    if (boundary > end) break;
    if (boundary > shown) {
      end = boundary;
      pause = settings.sentencePauseMs;
      break;
    }
  }
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end += 1;
  return { shown: end, delayMs: settings.stepDelayMs + pause };
}

export type Clock = {
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Reveals a growing text step by step; `onChange` gets each newly shown length. */
export class Revealer {
  private text = "";
  private shownLength = 0;
  private arrivals: Arrival[] = [];
  private timer: unknown = null;
  private disposed = false;

  constructor(
    private readonly onChange: (shown: number) => void,
    private readonly settings: RevealSettings = DEFAULT_REVEAL,
    private readonly clock: Clock = realClock,
    private readonly random: () => number = Math.random,
  ) {}

  get shown(): number {
    return this.shownLength;
  }

  get done(): boolean {
    return this.shownLength >= this.text.length;
  }

  /** The full text so far (it only grows while streaming; a shorter text restarts). */
  update(text: string): void {
    if (this.disposed || text === this.text) return;
    if (!text.startsWith(this.text.slice(0, this.shownLength))) this.shownLength = 0;
    this.text = text;
    this.arrivals = this.arrivals.filter((arrival) => arrival.length > this.shownLength);
    this.arrivals.push({ length: text.length, at: this.clock.now() });
    if (this.timer === null) this.tick();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private tick = (): void => {
    this.timer = null;
    if (this.disposed || this.done) return;
    const step = nextStep({
      text: this.text,
      shown: this.shownLength,
      arrivals: this.arrivals,
      now: this.clock.now(),
      settings: this.settings,
      random: this.random,
    });
    this.shownLength = step.shown;
    this.onChange(step.shown);
    if (!this.done) this.timer = this.clock.setTimeout(this.tick, step.delayMs);
  };
}
