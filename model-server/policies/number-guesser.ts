/**
 * `number-guesser` policy: `llm_guesser` of PromptingTools' airetry! docs (seed 001).
 *
 * The first user message gives the range ("a number between 1-100"; default 1..100). The
 * feedback in the conversation narrows it:
 * - any feedback mentioning "digits" -> it answers with digits only; before that, with
 *   probability `words` (option, default 0.5) it answers "My guess is <g>";
 * - "between or equal to L to U" (or "between L and U") -> the range shrinks to [L, U];
 * - "Your guess of G is wrong, it's D numbers away." -> only numbers at distance D from G stay;
 * - "G is too high" / "G is too low" -> the range is cut above / below G.
 * With no information beyond the prompt it guesses the midpoint (50 for 1-100, like the
 * seed's model); otherwise uniformly among the numbers consistent with all clues (choice's
 * rng). Inconsistent clues are ignored rather than leaving nothing to guess. So the seed's
 * game (digits, bounds, distance) converges on the number.
 */
import type { ChatPolicy } from '../types';
import { pick } from '../rng';
import { feedbackTexts, firstUserText } from './conversation';

export interface NumberKnowledge {
  digitsOnly: boolean;
  lo: number;
  hi: number;
  /** True when feedback narrowed the prompt's range or gave clues. */
  informed: boolean;
  /** Distance clues: the number is exactly `distance` away from `guess`. */
  clues: { guess: number; distance: number }[];
}

/**
 * The range stated in a prompt ("between 1-100", "between 1 and 10"), default 1..100.
 *
 * @example
 * parseNumberRange("I'm thinking a number between 1-100.") // { lo: 1, hi: 100 }
 */
export function parseNumberRange(prompt: string): { lo: number; hi: number } {
  const m = /between\s+(-?\d+)\s*(?:-|\u2013|to|and)\s*(-?\d+)/i.exec(prompt);
  if (!m) return { lo: 1, hi: 100 };
  const a = Number(m[1]), b = Number(m[2]);
  return { lo: Math.min(a, b), hi: Math.max(a, b) };
}

/**
 * What the feedback so far says about the number.
 *
 * @example
 * numberKnowledge(['The number is between or equal to 30 to 40.'], { lo: 1, hi: 100 }).lo // 30
 */
export function numberKnowledge(feedback: readonly string[], range: { lo: number; hi: number }): NumberKnowledge {
  const k: NumberKnowledge = { digitsOnly: false, lo: range.lo, hi: range.hi, informed: false, clues: [] };
  for (const fb of feedback) {
    if (/\bdigits?\b/i.test(fb)) k.digitsOnly = true;
    const b = /between\s+(?:or\s+equal\s+to\s+)?(-?\d+)\s*(?:-|\u2013|to|and)\s*(-?\d+)/i.exec(fb);
    if (b) {
      const lo = Math.min(Number(b[1]), Number(b[2])), hi = Math.max(Number(b[1]), Number(b[2]));
      if (Math.max(k.lo, lo) <= Math.min(k.hi, hi)) {
        k.lo = Math.max(k.lo, lo);
        k.hi = Math.min(k.hi, hi);
        k.informed = true;
      }
    }
    for (const m of fb.matchAll(/guess of\s+(-?\d+)\s+is wrong,?\s+it(?:'|\u2019)?s\s+(\d+)\s+numbers?\s+away/gi)) {
      k.clues.push({ guess: Number(m[1]), distance: Number(m[2]) });
      k.informed = true;
    }
    for (const m of fb.matchAll(/(-?\d+)\s+is\s+too\s+(high|low)/gi)) {
      const g = Number(m[1]);
      if (m[2].toLowerCase() === 'high' && g - 1 >= k.lo) k.hi = Math.min(k.hi, g - 1);
      if (m[2].toLowerCase() === 'low' && g + 1 <= k.hi) k.lo = Math.max(k.lo, g + 1);
      k.informed = true;
    }
  }
  return k;
}

/**
 * Numbers in [lo, hi] consistent with every distance clue (all of [lo, hi] when none is).
 *
 * @example
 * consistentNumbers({ digitsOnly: true, lo: 30, hi: 40, informed: true, clues: [{ guess: 35, distance: 2 }] }) // [33, 37]
 */
export function consistentNumbers(k: NumberKnowledge): number[] {
  const all: number[] = [];
  for (let x = k.lo; x <= k.hi; x++) all.push(x);
  const ok = all.filter((x) => k.clues.every((c) => Math.abs(x - c.guess) === c.distance));
  return ok.length > 0 ? ok : all;
}

export const numberGuesserPolicy: ChatPolicy = {
  name: 'number-guesser',
  description: 'llm_guesser: obeys "digits", bounds and "N numbers away" feedback; converges on the number.',
  respond(req, ctx) {
    const k = numberKnowledge(feedbackTexts(req), parseNumberRange(firstUserText(req)));
    const candidates = consistentNumbers(k);
    const pWords = Number.isFinite(Number(ctx.options.words)) && ctx.options.words !== undefined ? Number(ctx.options.words) : 0.5;
    return Array.from({ length: ctx.n }, (_, i) => {
      const rng = ctx.rng(i);
      const guess = k.informed ? pick(rng, candidates) : Math.floor((k.lo + k.hi) / 2);
      const words = rng() < pWords;
      return { content: !k.digitsOnly && words ? `My guess is ${guess}` : String(guess) };
    });
  },
};
