import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { mergeState, StateLimitError, UnknownStateItemError } from "./merge";
import {
  emptyState,
  STATE_LIMITS,
  STATE_LISTS,
  type StateListName,
  type WorkstreamState,
  workstreamStateDeltaSchema,
} from "./schema";

function idMaker() {
  let n = 0;
  return (list: StateListName) => `${list}-${++n}`;
}

/** Merges deltas one after another, each a minute later, like successive turns. */
type DeltaInput = z.input<typeof workstreamStateDeltaSchema>;

function mergeAll(deltas: DeltaInput[], mode: "evict" | "refuse" = "evict") {
  const newId = idMaker();
  let state = emptyState();
  const evicted = [];
  for (const [i, delta] of deltas.entries()) {
    const now = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    const result = mergeState(state, workstreamStateDeltaSchema.parse(delta), {
      mode,
      now,
      newId,
    });
    state = result.state;
    evicted.push(...result.evicted);
  }
  return { state, evicted };
}

const texts = (state: WorkstreamState, list: StateListName) => state[list].map((item) => item.text);

describe("mergeState", () => {
  it("I13.1 W9 applies removals, then updates by id, then additions", () => {
    const { state } = mergeAll([{ tasks: { add: [{ text: "a" }, { text: "b" }] } }]);
    const [a, b] = state.tasks;
    const result = mergeState(
      state,
      workstreamStateDeltaSchema.parse({
        tasks: {
          remove: [a?.id],
          update: [{ id: b?.id, status: "done" }],
          add: [{ text: "c" }],
        },
      }),
      { mode: "refuse", now: "2026-02-01T00:00:00.000Z", newId: () => "new" },
    );
    expect(result.state.tasks.map(({ text, status }) => ({ text, status }))).toEqual([
      { text: "b", status: "done" },
      { text: "c", status: "open" },
    ]);
    expect(result.changed).toEqual(["tasks"]);
    expect(result.evicted).toEqual([]);
    expect(result.added).toEqual([{ list: "tasks", id: "new", text: "c" }]);
  });

  it("I13.1 an update changes only the fields it names", () => {
    const { state } = mergeAll([
      { keyDecisions: { add: [{ text: "Use Postgres", rationale: "ops", confidence: 0.9 }] } },
    ]);
    const id = state.keyDecisions[0]?.id;
    const result = mergeState(
      state,
      workstreamStateDeltaSchema.parse({ keyDecisions: { update: [{ id, text: "Use PG 16" }] } }),
      { mode: "refuse", now: "2026-02-01T00:00:00.000Z", newId: () => "x" },
    );
    expect(result.state.keyDecisions[0]).toMatchObject({
      text: "Use PG 16",
      rationale: "ops",
      confidence: 0.9,
    });
  });

  it("I13.1 W9 evicts the lowest-confidence decision, ties oldest first, and records it", () => {
    const adds = [0.9, 0.5, 0.8, 0.5, 0.9, 0.9, 0.9, 0.9].map((confidence, i) => ({
      keyDecisions: { add: [{ text: `d${i}`, confidence }] },
    }));
    const { state, evicted } = mergeAll([
      ...adds,
      { keyDecisions: { add: [{ text: "d8", confidence: 0.1 }] } },
    ]);
    expect(state.keyDecisions).toHaveLength(8);
    // d1 and d3 tie at 0.5; d1 is older. The new, lower d8 is not evicted by its own delta.
    expect(evicted).toEqual([
      expect.objectContaining({ list: "keyDecisions", text: "d1", rule: expect.any(String) }),
    ]);
    expect(texts(state, "keyDecisions")).toContain("d8");
  });

  it("I13.1 W9 evicts done tasks before open ones, oldest first", () => {
    const { state, evicted } = mergeAll([
      { tasks: { add: [{ text: "t0" }, { text: "t1", status: "done" }] } },
      { tasks: { add: Array.from({ length: 8 }, (_, i) => ({ text: `t${i + 2}` })) } },
      { tasks: { add: [{ text: "t10", status: "done" }, { text: "t11" }] } },
    ]);
    expect(state.tasks).toHaveLength(10);
    expect(evicted.map((e) => e.text)).toEqual(["t0", "t1"]);
  });

  it("I13.1 W9 evicts candidate constraints before binding ones", () => {
    const { evicted } = mergeAll([
      { activeConstraints: { add: [{ text: "c0" }, { text: "c1", binding: false }] } },
      { activeConstraints: { add: Array.from({ length: 4 }, (_, i) => ({ text: `c${i + 2}` })) } },
      { activeConstraints: { add: [{ text: "c6" }] } },
      { activeConstraints: { add: [{ text: "c7" }] } },
    ]);
    // c0 is older, but c1 is only a candidate: it goes first.
    expect(evicted.map((e) => e.text)).toEqual(["c1", "c0"]);
  });

  it("I13.1 a new plan text replaces the older one", () => {
    const { state, evicted } = mergeAll([
      { currentPlan: { add: [{ text: "plan A" }] } },
      { currentPlan: { add: [{ text: "plan B" }] } },
    ]);
    expect(texts(state, "currentPlan")).toEqual(["plan B"]);
    expect(evicted.map((e) => e.text)).toEqual(["plan A"]);
  });

  it("I13.1 a delta that alone exceeds a limit keeps its newest items", () => {
    const { state, evicted } = mergeAll([
      { risks: { add: [{ text: "old" }] } },
      { risks: { add: Array.from({ length: 7 }, (_, i) => ({ text: `r${i}` })) } },
    ]);
    expect(texts(state, "risks")).toEqual(["r2", "r3", "r4", "r5", "r6"]);
    expect(evicted.map((e) => e.text)).toEqual(["old", "r0", "r1"]);
  });

  it("I13.1 refuse mode throws naming the list past its limit", () => {
    const { state } = mergeAll([
      { risks: { add: Array.from({ length: 5 }, (_, i) => ({ text: `r${i}` })) } },
    ]);
    const call = () =>
      mergeState(
        state,
        { risks: { add: [{ text: "one more" }] } },
        {
          mode: "refuse",
          now: "2026-02-01T00:00:00.000Z",
          newId: () => "x",
        },
      );
    expect(call).toThrow(StateLimitError);
    try {
      call();
    } catch (error) {
      expect(error).toMatchObject({ code: "limit:state", details: { list: "risks" } });
    }
  });

  it("I13.1 an update or removal of an unknown id is an error naming the id", () => {
    const options = { mode: "evict" as const, now: "2026-02-01T00:00:00.000Z", newId: () => "x" };
    expect(() => mergeState(emptyState(), { risks: { remove: ["nope"] } }, options)).toThrow(
      UnknownStateItemError,
    );
    expect(() =>
      mergeState(
        emptyState(),
        workstreamStateDeltaSchema.parse({ tasks: { update: [{ id: "ghost", status: "done" }] } }),
        options,
      ),
    ).toThrow(expect.objectContaining({ id: "ghost", list: "tasks" }));
  });
});

// Property tests: arbitrary sequences of deltas over every list.
const listName = fc.constantFrom(...STATE_LISTS);
const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0);
const newItem = fc.record({
  text,
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  done: fc.boolean(),
  binding: fc.boolean(),
});

function toAdd(
  list: StateListName,
  item: { text: string; confidence: number; done: boolean; binding: boolean },
) {
  if (list === "keyDecisions") return { text: item.text, confidence: item.confidence };
  if (list === "tasks") return { text: item.text, status: item.done ? "done" : "open" };
  if (list === "activeConstraints") return { text: item.text, binding: item.binding };
  return { text: item.text };
}

/** A step adds to one list and removes some (by index into what it holds now). */
const step = fc.record({
  list: listName,
  adds: fc.array(newItem, { maxLength: 14 }),
  removeIndexes: fc.array(fc.nat(12), { maxLength: 3 }),
});

type NewItemValue = { text: string; confidence: number; done: boolean; binding: boolean };
type StepValue = { list: StateListName; adds: NewItemValue[]; removeIndexes: number[] };

function deltaFor(state: WorkstreamState, s: StepValue, onlyRemovals = false) {
  const held = state[s.list];
  const remove = [...new Set(s.removeIndexes.filter((i) => i < held.length))].map(
    (i) => held[i]?.id ?? "",
  );
  return workstreamStateDeltaSchema.parse({
    [s.list]: {
      ...(onlyRemovals ? {} : { add: s.adds.map((item) => toAdd(s.list, item)) }),
      remove,
    },
  });
}

describe("mergeState properties", () => {
  it("I13.1 W9 evict mode: no list exceeds its limit and each eviction is reported once", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        const newId = idMaker();
        let state = emptyState();
        const seen = new Set<string>();
        const everAdded = new Set<string>();
        for (const [i, s] of steps.entries()) {
          const before = new Set(STATE_LISTS.flatMap((l) => state[l].map((item) => item.id)));
          const result = mergeState(state, deltaFor(state, s), {
            mode: "evict",
            now: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
            newId,
          });
          for (const list of STATE_LISTS) {
            expect(result.state[list].length).toBeLessThanOrEqual(STATE_LIMITS[list]);
          }
          const after = new Set(STATE_LISTS.flatMap((l) => result.state[l].map((item) => item.id)));
          for (const id of after) everAdded.add(id);
          for (const eviction of result.evicted) {
            expect(seen.has(eviction.id)).toBe(false);
            seen.add(eviction.id);
            expect(after.has(eviction.id)).toBe(false);
          }
          // Whatever left without being removed by the delta was reported as evicted.
          const removed = new Set(deltaFor(state, s)[s.list]?.remove ?? []);
          for (const id of before) {
            if (!after.has(id) && !removed.has(id)) {
              expect(result.evicted.some((e) => e.id === id)).toBe(true);
            }
          }
          state = result.state;
        }
      }),
    );
  });

  it("I13.1 a delta of only removals never evicts", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 15 }), step, (steps, last) => {
        const newId = idMaker();
        let state = emptyState();
        for (const s of steps) {
          state = mergeState(state, deltaFor(state, s), {
            mode: "evict",
            now: "2026-01-01T00:00:00.000Z",
            newId,
          }).state;
        }
        const result = mergeState(state, deltaFor(state, last, true), {
          mode: "evict",
          now: "2026-01-02T00:00:00.000Z",
          newId,
        });
        expect(result.evicted).toEqual([]);
      }),
    );
  });

  it("I13.1 refuse mode never changes the state when it throws", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 15 }), step, (steps, last) => {
        const newId = idMaker();
        let state = emptyState();
        for (const s of steps) {
          state = mergeState(state, deltaFor(state, s), {
            mode: "evict",
            now: "2026-01-01T00:00:00.000Z",
            newId,
          }).state;
        }
        const snapshot = structuredClone(state);
        const delta = deltaFor(state, last);
        let threw = false;
        try {
          const result = mergeState(state, delta, {
            mode: "refuse",
            now: "2026-01-02T00:00:00.000Z",
            newId,
          });
          for (const list of STATE_LISTS) {
            expect(result.state[list].length).toBeLessThanOrEqual(STATE_LIMITS[list]);
          }
          expect(result.evicted).toEqual([]);
        } catch (error) {
          expect(error).toBeInstanceOf(StateLimitError);
          threw = true;
        }
        expect(state).toEqual(snapshot);
        if (threw) expect(delta[last.list]?.add?.length ?? 0).toBeGreaterThan(0);
      }),
    );
  });
});
