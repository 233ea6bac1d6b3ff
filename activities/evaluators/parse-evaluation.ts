/** One evaluator sample, read from the model's text. */
export interface ParsedEvaluation {
  /** In [0, 1]: the 0-10 score divided by 10; 0.5 when no score was usable. */
  score: number;
  reasoning: string;
  /** A finite score in [0, 10] was found (perhaps after repair). */
  usable: boolean;
  /** The text was not exactly the JSON asked for with a numeric score in [0, 10]. */
  repaired: boolean;
  /** Why the sample has no usable score (no score found, or one that is not a finite number in [0, 10]). */
  problem?: string;
}

/** Saplings' score for a sample without one: the middle of the scale. */
export const DEFAULT_SAMPLE_SCORE = 5;

const MAX_REASONING_CHARS = 2_000;
const MAX_BLOCK_STARTS = 64;

/**
 * Reads one evaluator sample. Deterministic repair rule (Saplings ran `json_repair`; this is a
 * smaller rule that can be stated exactly). The score is taken from the first of:
 * 1. `JSON.parse` of the whole (trimmed) text gives an object with a `score` that is a number or
 *    a numeric string: that score, and its `reasoning` if it is a string;
 * 2. else, the first balanced `{...}` block (string-aware, tried from each `{` in order, so an
 *    object nested in another or wrapped in a code fence is found) that parses to such an object;
 * 3. else, the LAST match of `score` followed by `:`, `=` or `is` and a number
 *    (`"score": 7`, `Score: 8/10`, `score is 6`; the last, because a verdict comes after the
 *    reasoning, as in the schema's field order); the reasoning is then the `"reasoning"` string
 *    if one can be read, else the whole text.
 * The score found must be a **finite number in [0, 10]**: NaN, ±Infinity (`1e999` parses as
 * Infinity) and anything out of range make the sample malformed — never clamped, never searched
 * past for a friendlier number. A malformed sample, like one where no step finds a score, scores
 * {@link DEFAULT_SAMPLE_SCORE} and is not `usable` (`problem` says why). Anything but a clean
 * step 1 with a number in [0, 10] sets `repaired`.
 *
 * @example
 * parseEvaluation('{"reasoning":"x and y are right","score":4}') // { score: 0.4, reasoning: 'x and y are right', usable: true, repaired: false }
 * parseEvaluation('{"reasoning":"done","score":1e999}')          // { score: 0.5, usable: false, problem: 'score Infinity is not a finite number in [0, 10]', ... }
 * parseEvaluation('Score: 12')                                    // { score: 0.5, usable: false, problem: 'score 12 is not a finite number in [0, 10]', ... }
 * parseEvaluation('I cannot grade this')                          // { score: 0.5, reasoning: '', usable: false, repaired: true, problem: 'no score found' }
 */
export function parseEvaluation(text: string): ParsedEvaluation {
  const trimmed = text.trim();
  const whole = fromObject(tryJson(trimmed));
  if (whole) return finish(whole.score, whole.reasoning, whole.repaired);
  for (const block of braceBlocks(trimmed)) {
    const found = fromObject(tryJson(block));
    if (found) return finish(found.score, found.reasoning, true);
  }
  const matches = [...trimmed.matchAll(/\bscore\b["'\s]*(?:[:=]|\bis\b)\s*["']?(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/gi)];
  if (matches.length > 0) {
    const score = Number(matches[matches.length - 1][1]);
    return finish(score, reasoningField(trimmed) ?? trimmed, true);
  }
  return unusable('', 'no score found');
}

function finish(raw: number, reasoning: string, repaired: boolean): ParsedEvaluation {
  const text = reasoning.trim().slice(0, MAX_REASONING_CHARS);
  if (!(Number.isFinite(raw) && raw >= 0 && raw <= 10)) return unusable(text, `score ${raw} is not a finite number in [0, 10]`);
  return { score: raw / 10, reasoning: text, usable: true, repaired };
}

function unusable(reasoning: string, problem: string): ParsedEvaluation {
  return { score: DEFAULT_SAMPLE_SCORE / 10, reasoning, usable: false, repaired: true, problem };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fromObject(value: unknown): { score: number; reasoning: string; repaired: boolean } | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { score, reasoning } = value as { score?: unknown; reasoning?: unknown };
  let n: number | undefined;
  // A number JSON read as Infinity (`1e999`) is found here — and then refused by `finish`.
  if (typeof score === 'number') n = score;
  else if (typeof score === 'string' && /^\s*-?\d+(?:\.\d+)?\s*$/.test(score)) n = Number(score);
  if (n === undefined) return undefined;
  return { score: n, reasoning: typeof reasoning === 'string' ? reasoning : '', repaired: typeof score !== 'number' };
}

/** Balanced `{...}` substrings, one per opening brace in order (braces inside JSON strings do not count). */
function* braceBlocks(text: string): Generator<string> {
  let starts = 0;
  for (let start = text.indexOf('{'); start >= 0 && starts < MAX_BLOCK_STARTS; start = text.indexOf('{', start + 1), starts++) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        yield text.slice(start, i + 1);
        break;
      }
    }
  }
}

function reasoningField(text: string): string | undefined {
  const m = /"reasoning"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text);
  const value = m ? tryJson(m[1]) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The evaluation of one trajectory from all its samples. */
export interface CombinedEvaluation {
  score: number;
  reasoning: string;
  samples: number[];
  repaired: boolean;
  /** No sample had a usable score: the evaluation failed (the node it scores is never a solution). */
  failed?: string;
}

/**
 * Saplings' aggregation: the mean of the samples' scores (rounded to 9 decimals, so equal
 * samples give exactly their score and threshold comparisons behave; a malformed sample counts
 * 5/10, so an evaluation with one never reaches 1.0); the reasoning of the first sample with a
 * usable score (Saplings took sample 0's even when it was unusable). When no sample is usable
 * the evaluation `failed`, saying why.
 *
 * @example
 * combineEvaluations(['{"reasoning":"ok","score":8}', 'nonsense'].map(parseEvaluation))
 * // { score: 0.65, reasoning: 'ok', samples: [0.8, 0.5], repaired: true }
 */
export function combineEvaluations(parsed: ParsedEvaluation[]): CombinedEvaluation {
  const samples = parsed.map((p) => p.score);
  const mean = samples.length > 0 ? samples.reduce((a, b) => a + b, 0) / samples.length : DEFAULT_SAMPLE_SCORE / 10;
  const first = parsed.find((p) => p.usable);
  const reasoning = first
    ? first.reasoning || '(the evaluator gave no reasoning)'
    : `the evaluator's answer${parsed.length === 1 ? ' had' : 's had'} no usable score; scored ${DEFAULT_SAMPLE_SCORE}/10 by default`;
  const combined = { score: Math.round(mean * 1e9) / 1e9, reasoning, samples, repaired: parsed.some((p) => p.repaired) };
  if (first || parsed.length === 0) return combined;
  const problems = [...new Set(parsed.map((p) => p.problem ?? 'no usable score'))].join('; ');
  return { ...combined, failed: `the judge gave no usable score (${problems})` };
}
