/** One evaluator sample, read from the model's text. */
export interface ParsedEvaluation {
  /** In [0, 1]: the 0-10 score clamped and divided by 10; 0.5 when no score was usable. */
  score: number;
  reasoning: string;
  /** A score was found (perhaps after repair). */
  usable: boolean;
  /** The text was not exactly the JSON asked for with a numeric score in [0, 10]. */
  repaired: boolean;
}

/** Saplings' score for a sample without one: the middle of the scale. */
export const DEFAULT_SAMPLE_SCORE = 5;

const MAX_REASONING_CHARS = 2_000;
const MAX_BLOCK_STARTS = 64;

/**
 * Reads one evaluator sample. Deterministic repair rule (Saplings ran `json_repair`; this is a
 * smaller rule that can be stated exactly):
 * 1. `JSON.parse` of the whole (trimmed) text gives an object whose `score` is a number or a
 *    numeric string: that score, and its `reasoning` if it is a string;
 * 2. else, the first balanced `{...}` block (string-aware, tried from each `{` in order, so an
 *    object nested in another or wrapped in a code fence is found) that parses to such an object;
 * 3. else, the LAST match of `score` followed by `:`, `=` or `is` and a number
 *    (`"score": 7`, `Score: 8/10`, `score is 6`; the last, because a verdict comes after the
 *    reasoning, as in the schema's field order); the reasoning is then the `"reasoning"` string
 *    if one can be read, else the whole text;
 * 4. else the sample scores {@link DEFAULT_SAMPLE_SCORE} and is not `usable`.
 * The score is clamped to [0, 10] and divided by 10. Anything but a clean step 1 with a number
 * already in [0, 10] sets `repaired`.
 *
 * @example
 * parseEvaluation('{"reasoning":"x and y are right","score":4}') // { score: 0.4, reasoning: 'x and y are right', usable: true, repaired: false }
 * parseEvaluation('Score: 12')                                    // { score: 1, reasoning: 'Score: 12', usable: true, repaired: true }
 * parseEvaluation('I cannot grade this')                          // { score: 0.5, reasoning: '', usable: false, repaired: true }
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
  return { score: DEFAULT_SAMPLE_SCORE / 10, reasoning: '', usable: false, repaired: true };
}

function finish(raw: number, reasoning: string, repaired: boolean): ParsedEvaluation {
  const clamped = Math.min(10, Math.max(0, raw));
  return { score: clamped / 10, reasoning: reasoning.trim().slice(0, MAX_REASONING_CHARS), usable: true, repaired: repaired || clamped !== raw };
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
  if (typeof score === 'number' && Number.isFinite(score)) n = score;
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
}

/**
 * Saplings' aggregation: the mean of the samples' scores (rounded to 9 decimals, so equal
 * samples give exactly their score and threshold comparisons behave); the reasoning of the
 * first sample with a usable score (Saplings took sample 0's even when it was unusable).
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
  return { score: Math.round(mean * 1e9) / 1e9, reasoning, samples, repaired: parsed.some((p) => p.repaired) };
}
