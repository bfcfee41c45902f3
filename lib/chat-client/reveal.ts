// Throttled reveal of streamed text, so the answer reads as a steady flow whatever sizes the
// chunks arrive in (the server sends them as soon as it can): 8–24 characters a step, a short
// pause after a sentence ends. When the stream outpaces that, the reveal speeds up instead of
// jumping: the delay between steps shrinks (down to one animation frame) and the sentence pause
// drops to zero, but a step never grows past 24 characters, however far behind it is, so a fast
// model reads as fast typing rather than as blocks. The one exception is a tab nobody looks at:
// text that arrived while the page was hidden shows at once (a background tab's timers are
// throttled, and there is no one to animate for). `nextStep` is the pure rule; `Revealer`
// drives it with a timer.

export type RevealSettings = {
  minStep: number;
  maxStep: number;
  /** Delay between steps at the normal pace. */
  stepDelayMs: number;
  /** Extra delay after a step that ends a sentence, at the normal pace. */
  sentencePauseMs: number;
  /** The shortest delay between steps: one animation frame. */
  frameMs: number;
  /** Speed up once the hidden text would take longer than this to show at the normal pace. */
  catchUpMs: number;
  /** With less than a step's worth hidden, wait this long for more before showing it. */
  holdMs: number;
};

export const DEFAULT_REVEAL: RevealSettings = {
  minStep: 8,
  maxStep: 24,
  stepDelayMs: 28,
  sentencePauseMs: 140,
  frameMs: 16,
  catchUpMs: 250,
  holdMs: 90,
};

/** When each length of the text arrived, oldest first, and whether the page was hidden then. */
export type Arrival = { length: number; at: number; hidden?: boolean };

export type RevealStep = { shown: number; delayMs: number };

// A sentence end with the space after it, or a paragraph break.
const SENTENCE_END = /[.!?…][)"'’”\]]*\s+|\n\n+/g;
const SPACE = /\s/;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Moves a step's end next to a space (whole words), keeping the step within [low, high). */
function snapToWord(text: string, end: number, low: number, high: number): number {
  for (let i = end - 1; i >= low; i--) if (SPACE.test(text.charAt(i))) return i + 1;
  for (let i = end; i < high; i++) if (SPACE.test(text.charAt(i))) return i + 1;
  return end;
}

/** How long the backlog would take at the normal pace. */
function backlogMs(backlog: number, settings: RevealSettings): number {
  const average = (settings.minStep + settings.maxStep) / 2;
  return (backlog / average) * settings.stepDelayMs;
}

/** Text that arrived while the page was hidden is still not shown, or the page is hidden now. */
function arrivedUnseen(arrivals: readonly Arrival[], shown: number, hiddenNow: boolean): boolean {
  return hiddenNow || arrivals.some((arrival) => arrival.hidden && arrival.length > shown);
}

/** The next length to show and how long to wait after it (the same length: wait for more). */
export function nextStep({
  text,
  shown,
  arrivals,
  now,
  hidden = false,
  settings = DEFAULT_REVEAL,
  random = Math.random,
}: {
  text: string;
  shown: number;
  arrivals: readonly Arrival[];
  now: number;
  /** Whether the page is hidden now. */
  hidden?: boolean;
  settings?: RevealSettings;
  random?: () => number;
}): RevealStep {
  if (shown >= text.length) return { shown: text.length, delayMs: 0 };
  if (arrivedUnseen(arrivals, shown, hidden)) {
    return { shown: text.length, delayMs: settings.stepDelayMs };
  }
  const backlog = text.length - shown;
  // Less than a step is hidden and more is likely on its way: wait a moment for it.
  const lastArrival = arrivals.at(-1)?.at ?? now;
  if (backlog < settings.minStep && now - lastArrival < settings.holdMs) {
    return { shown, delayMs: settings.frameMs };
  }
  const pace = backlogMs(backlog, settings);
  const behind = pace > settings.catchUpMs;
  const delayMs = behind
    ? Math.max(settings.frameMs, (settings.stepDelayMs * settings.catchUpMs) / pace)
    : settings.stepDelayMs;
  const low = settings.minStep;
  const high = settings.maxStep;
  const span = high - low + 1;
  let end = Math.min(text.length, shown + low + Math.floor(random() * span));
  if (end < text.length) {
    end = snapToWord(text, end, shown + low, Math.min(text.length, shown + high));
  }
  // A sentence that ends inside the step ends the step, with a pause after it (at the normal
  // pace only); one that would leave a sliver of a step is carried into the next.
  SENTENCE_END.lastIndex = shown;
  let pause = 0;
  for (let match = SENTENCE_END.exec(text); match; match = SENTENCE_END.exec(text)) {
    const boundary = match.index + match[0].length;
    if (boundary > end) break;
    if (boundary >= shown + settings.minStep) {
      end = boundary;
      pause = behind ? 0 : settings.sentencePauseMs;
      break;
    }
  }
  // Never between the halves of a surrogate pair: the step gives back one character rather than
  // grow past its maximum.
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) {
    end += end - shown < settings.maxStep ? 1 : -1;
  }
  return { shown: end, delayMs: delayMs + pause };
}

export type Clock = {
  now: () => number;
  /** Whether the page is hidden (a background tab). */
  hidden: () => boolean;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const realClock: Clock = {
  now: () => performance.now(),
  hidden: () => typeof document !== "undefined" && document.visibilityState === "hidden",
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
    this.arrivals.push({ length: text.length, at: this.clock.now(), hidden: this.clock.hidden() });
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
      hidden: this.clock.hidden(),
      settings: this.settings,
      random: this.random,
    });
    if (step.shown !== this.shownLength) {
      this.shownLength = step.shown;
      this.onChange(step.shown);
    }
    if (!this.done) this.timer = this.clock.setTimeout(this.tick, step.delayMs);
  };
}
