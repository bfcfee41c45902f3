/**
 * Deterministic hashing and seeded randomness for the offline model.
 * Every "random" choice the offline model makes is seeded from a hash of its input,
 * so the same prompt always produces the same answer.
 */

/** 32-bit FNV-1a hash of a string (over UTF-16 code units). */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface Rng {
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly [T, ...T[]]): T;
  /** `count` distinct elements (or all of them if there are fewer), in random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

/** Mulberry32: small, fast, good-enough PRNG for picking templates. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const int = (min: number, max: number): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return min + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max - min + 1));
  };
  return {
    int,
    pick: (items) => items[int(0, items.length - 1)] ?? items[0],
    sample(items, count) {
      const pool = [...items];
      const out: typeof pool = [];
      while (out.length < count && pool.length > 0)
        out.push(...pool.splice(int(0, pool.length - 1), 1));
      return out;
    },
  };
}
