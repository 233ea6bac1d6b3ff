/**
 * Seeded PRNG for policies. WHY sfc32 seeded from SHA-256: 128 bits of well-mixed state from
 * any text, fast, and identical on every platform, so the same request always draws the same
 * numbers.
 */
import { sha256Hex } from './hashing';

/**
 * A generator of uniform numbers in [0, 1) determined entirely by `seedText`.
 *
 * @example
 * const a = seededRng('x'), b = seededRng('x');
 * a() === b() // true
 */
export function seededRng(seedText: string): () => number {
  const hex = sha256Hex(seedText);
  let a = parseInt(hex.slice(0, 8), 16) >>> 0;
  let b = parseInt(hex.slice(8, 16), 16) >>> 0;
  let c = parseInt(hex.slice(16, 24), 16) >>> 0;
  let d = parseInt(hex.slice(24, 32), 16) >>> 0;
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next(); // warm up
  return next;
}

/**
 * Seed text of choice `choiceIndex` of a request: `seed|policy|requestHash|choiceIndex`.
 *
 * @example
 * choiceSeedText(0, 'echo', 'abc', 1) // '0|echo|abc|1'
 */
export function choiceSeedText(serverSeed: number, policyName: string, hash: string, choiceIndex: number): string {
  return `${serverSeed}|${policyName}|${hash}|${choiceIndex}`;
}

/** Picks one element uniformly. @example pick(() => 0.99, ['a', 'b']) // 'b' */
export function pick<T>(rng: () => number, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('pick from an empty list');
  return items[Math.min(items.length - 1, Math.floor(rng() * items.length))];
}
