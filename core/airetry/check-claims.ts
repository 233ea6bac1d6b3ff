import { sha256Hex } from '../hash/sha256';
import { DEFAULT_MODEL_NAME, type Judge, type Verdict } from '../verdicts/verdict';
import type { AiretryResult } from './airetry-input';
import { callSummary, type AICall } from './ai-call';
import { answerText, type CheckKind, type CheckSpec, type CompiledCheck } from './checks';

/**
 * What a ready-made airetry run claims about one check: whether the **returned** answer passes
 * it, and the evidence — which sample was checked, the check's kind, and the SHA-256 of the
 * answer text it looked at — so the claim can be recomputed from the stored result
 * (`grove verify`).
 */
export interface CheckOutcome {
  name: string;
  kind: CheckKind;
  /** The returned answer passes it (an `llmJudge` check: its judge said yes to that answer). */
  passed: boolean;
  /** Not decided: the run was stopped by a person before a judge looked at the returned answer. */
  skipped?: boolean;
  /** The sample whose answer was checked: the returned one. */
  sampleId: number;
  /** SHA-256 (hex) of the answer text that was checked (`answerText`: the text, or a tool call's arguments). */
  outputSha256: string;
  /** `llmJudge` checks: the model that judged, and whether it judged its own answer. */
  judge?: Judge;
}

/**
 * The judge's answers, per check and sample: an `llmJudge` check asks its model once about a
 * given answer, however many sweeps look at it again.
 */
export class JudgeMemo {
  private readonly answers = new Map<string, boolean>();

  /** The condition of check `index`, asking the judge only about answers it has not judged. */
  wrap(index: number, condition: CompiledCheck['condition']): CompiledCheck['condition'] {
    return async (call) => {
      const key = `${index}:${call.activeSampleId}`;
      const known = this.answers.get(key);
      if (known !== undefined) return known;
      const passed = (await condition(call)) === true;
      this.answers.set(key, passed);
      return passed;
    };
  }

  /** What the judge of check `index` said about a sample, if it was asked. */
  get(index: number, sampleId: number): boolean | undefined {
    return this.answers.get(`${index}:${sampleId}`);
  }
}

/**
 * Each check evaluated on the call's active sample — the answer the run returns. Deterministic
 * checks are computed here and now; an `llmJudge` check takes what its judge said about this
 * very answer (`judged`), else asks it when `ask` is allowed, else is `skipped` (never a pass it
 * was not given). The call's tree is not touched.
 *
 * @example
 * const outcomes = await claimsOn(call, checks, input.checks, { judged: (i, id) => memo.get(i, id), ask: true });
 */
export async function claimsOn(
  call: AICall<unknown>,
  checks: CompiledCheck[],
  specs: CheckSpec[],
  opts: { judged?: (index: number, sampleId: number) => boolean | undefined; ask: boolean },
): Promise<CheckOutcome[]> {
  const sampleId = call.activeSampleId;
  const outputSha256 = sha256Hex(answerText(call));
  const outcomes: CheckOutcome[] = [];
  for (const [i, check] of checks.entries()) {
    const spec = specs[i]!;
    const evidence = { name: check.name, kind: spec.kind, sampleId, outputSha256 };
    if (spec.kind !== 'llmJudge') {
      outcomes.push({ ...evidence, passed: (await check.condition(call)) === true });
      continue;
    }
    const judge = judgeOf(spec, call, check.name);
    const known = opts.judged?.(i, sampleId);
    if (known !== undefined) outcomes.push({ ...evidence, passed: known, judge });
    else if (opts.ask) outcomes.push({ ...evidence, passed: (await check.condition(call)) === true, judge });
    else outcomes.push({ ...evidence, passed: false, skipped: true, judge });
  }
  return outcomes;
}

/** Who judges an `llmJudge` check: its `model`, else the run's; self-judged when that is the answering model. */
function judgeOf(spec: Extract<CheckSpec, { kind: 'llmJudge' }>, call: AICall<unknown>, check: string): Judge {
  const model = spec.model ?? call.model;
  return { model: model ?? DEFAULT_MODEL_NAME, selfJudged: model === call.model, check };
}

/**
 * The verdict of a ready-made airetry run: its checks decided; verified unless an `llmJudge`
 * check is among them (each judge is listed).
 *
 * @example
 * checksVerdict(outcomes); // { by: 'checks', verified: true }
 */
export function checksVerdict(outcomes: CheckOutcome[]): Verdict {
  const judges = outcomes.flatMap((o) => (o.judge ? [o.judge] : []));
  return judges.length > 0 ? { by: 'checks', judges, verified: false } : { by: 'checks', verified: true };
}

/**
 * What a ready-made airetry run returns about its call (without `treeText`, `stopped` and
 * `actions`, which the workflow adds): the returned answer, whether it passes every check, each
 * check's outcome on it, who decided, and the tree the evidence points into.
 *
 * @example
 * const result = { ...callResult(call, outcomes), treeText: formatCallTree(call.samples) };
 */
export function callResult(call: AICall<unknown>, outcomes: CheckOutcome[]): Omit<AiretryResult, 'treeText' | 'stopped' | 'actions'> {
  return {
    output: call.output,
    // An extraction whose answer does not parse to its schema is no success, whatever the checks say.
    success: outcomes.every((o) => o.passed) && (call.kind !== 'extract' || call.outputError === undefined),
    checks: outcomes,
    verdict: checksVerdict(outcomes),
    ...callSummary(call),
  };
}
