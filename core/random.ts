import { InvalidArgumentError } from './errors';

/**
 * Randomness in core is always injected (DESIGN.md "Determinism"): a workflow passes its named
 * random stream (`getRandomStream(name)` has `random()`, so it fits), tests and reproducible
 * experiments pass a {@link seededRandom}.
 */
export interface RandomSource {
  /** Uniform in [0, 1). */
  random(): number;
}

/** A random source whose position can be saved as JSON and restored, e.g. across continue-as-new. */
export interface SeededRandom extends RandomSource {
  /** Four unsigned 32-bit integers; `restoreRandom(state)` continues exactly from here. */
  state(): number[];
}

const TWO_32 = 4294967296;

/** splitmix32: spreads a (possibly tiny or similar) seed over the whole state space. */
function splitmix32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128-bit state, passes PractRand. */
function sfc32(a: number, b: number, c: number, d: number): SeededRandom {
  const next = (): number => {
    const t0 = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const t = (t0 + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  return {
    random: () => next() / TWO_32,
    state: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
  };
}

/**
 * A seeded generator: sfc32 whose state is filled by splitmix32 from the seed, then advanced
 * 12 steps (the usual warm-up for sfc32). `random()` has 32 bits of resolution.
 * Seeds are safe integers (negative ones too); bits above 32 are folded in, so seeds that
 * differ only there still give different streams.
 *
 * @example
 * const rng = seededRandom(42);
 * const x = rng.random();            // same value on every run
 * const saved = rng.state();         // e.g. into workflow state
 * restoreRandom(saved).random() === rng.random(); // true
 */
export function seededRandom(seed: number): SeededRandom {
  if (!Number.isSafeInteger(seed)) throw new InvalidArgumentError(`seed must be a safe integer, got ${String(seed)}`);
  const low = seed >>> 0;
  const high = Math.floor(seed / TWO_32) >>> 0;
  const mix = splitmix32((low ^ Math.imul(high, 0x85ebca6b)) | 0);
  const rng = sfc32(mix(), mix(), mix(), mix());
  for (let i = 0; i < 12; i++) rng.random();
  return rng;
}

/**
 * Rebuilds a generator from `state()`; it continues exactly where the state was taken.
 *
 * @example
 * const rng = restoreRandom(JSON.parse(savedJson));
 */
export function restoreRandom(state: number[]): SeededRandom {
  if (!Array.isArray(state) || state.length !== 4 || !state.every((x) => Number.isInteger(x) && x >= 0 && x < TWO_32)) {
    throw new InvalidArgumentError(`random state must be 4 unsigned 32-bit integers, got ${JSON.stringify(state)}`);
  }
  return sfc32(state[0], state[1], state[2], state[3]);
}

/**
 * A standard normal draw by the Box–Muller transform. It uses exactly two uniforms per call
 * and discards the second normal, so the number of draws per call is fixed (easy to reason
 * about under replay) and no hidden cache needs saving with the random state.
 *
 * @example
 * const z = normalSample(seededRandom(1));
 */
export function normalSample(rng: RandomSource): number {
  const u1 = 1 - rng.random(); // (0, 1]: log(0) is impossible
  const u2 = rng.random();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
