import { AICall } from '../airetry/ai-call';
import { answerText, compileCheck, type CheckSpec, type CompiledCheck } from '../airetry/checks';
import { outputParserOf } from '../airetry/ready-made';
import { deepEqual } from '../conversation/deep-equal';
import { materialize, type ConversationDelta } from '../conversation/delta';
import { sha256Hex } from '../hash/sha256';
import { AiretryInputSchema, type AiretryResult } from '../airetry/airetry-input';
import { SampleTree } from '../tree/sample-tree';
import { notRecomputable, quote, recomputed, type ClaimCheck } from './claims';

/**
 * Re-checks what a ready-made airetry result claims, from the run's input and its stored result
 * alone: the returned sample's answer is read from the stored tree, every deterministic check is
 * computed again on it and compared with the claim (and with the evidence each outcome carries:
 * the sample it checked, the hash of the text), the `output` is parsed again from that answer,
 * and `success` must be "every check passed". An `llmJudge` check cannot be recomputed — a
 * model's opinion — and is listed with its judge. Results from before grove recorded evidence are
 * re-checked all the same (the claims name no sample: the returned one is what they claim about).
 *
 * @example
 * const claims = recheckAiretry(input, result);
 * claims.filter((c) => c.holds === false); // the claims that do not hold
 */
export function recheckAiretry(rawInput: unknown, result: AiretryResult): ClaimCheck[] {
  const input = AiretryInputSchema.parse(rawInput);
  const tree = SampleTree.fromJSON<ConversationDelta>(result.tree);
  const active = result.activeSampleId;
  if (!tree.has(active)) return [recomputed(`output is sample ${active}'s answer`, false, `the stored tree has no sample ${active}`)];
  const call = new AICall<unknown>([], { kind: input.kind, parser: outputParserOf(input), model: input.model, from: { tree, activeSampleId: active } });
  const text = answerText(call);
  const digest = sha256Hex(text);
  const claims: ClaimCheck[] = [
    recomputed('conversation is the returned sample\'s', deepEqual(materialize(tree, active), result.conversation), `sample ${active} of the stored tree`),
    outputClaim(input, call, result.output, text),
  ];
  const checks = input.checks.map((spec, i) => compiled(spec, i));
  if (result.checks.length !== checks.length) {
    claims.push(recomputed(`${result.checks.length} check outcomes`, false, `the input has ${checks.length} checks`));
  }
  // Whether each check passes on the returned answer: recomputed, or (a judge) as claimed.
  const truth: boolean[] = [];
  result.checks.forEach((outcome, i) => {
    const spec = input.checks[i];
    const check = checks[i];
    if (!spec || !check) return;
    truth.push(spec.kind === 'llmJudge' ? outcome.passed : check.condition(call) === true);
    const claim = `${outcome.name} ${outcome.skipped ? 'skipped' : outcome.passed ? 'passed' : 'failed'}`;
    const wrong = evidenceProblem(outcome, check.name, active, digest);
    if (wrong) return void claims.push(recomputed(claim, false, wrong));
    if (spec.kind === 'llmJudge') {
      const judge = outcome.judge;
      const who = judge ? `${judge.model}${judge.selfJudged ? ', the model that wrote the answer' : ''}` : (spec.model ?? input.model ?? "the run's model");
      return void claims.push(notRecomputable(claim, `judged by ${who}: a model's opinion, not recomputable`));
    }
    const passes = check.condition(call) === true;
    const detail = `${spec.kind} on sample ${active}'s answer ${quote(text)}: ${passes ? 'passes' : 'fails'}`;
    claims.push(recomputed(claim, outcome.skipped ? !outcome.passed : passes === outcome.passed, detail));
  });
  // An extraction whose answer does not parse to its schema is no success, whatever the checks say.
  const extracted = input.kind !== 'extract' || call.outputError === undefined;
  const every = result.checks.length === checks.length && truth.every(Boolean) && extracted;
  // Counted apart: the deterministic checks recomputed here, and the judges' opinions taken as claimed.
  const judged = input.checks.map((c, i) => (c.kind === 'llmJudge' ? i : -1)).filter((i) => i >= 0 && i < truth.length);
  const recomputedPasses = truth.filter((t, i) => t && !judged.includes(i)).length;
  const judgedPasses = judged.filter((i) => truth[i]).length;
  const tally = `${recomputedPasses} of ${checks.length - judged.length} deterministic checks pass on the returned answer${judged.length ? `; ${judgedPasses} of ${judged.length} LLM-judge checks passed as claimed (not recomputable)` : ''}`;
  claims.push(recomputed(`success: ${result.success}`, result.success === every, `${tally}${extracted ? '' : `; its output does not match the extract schema (${call.outputError})`}`));
  if (result.verdict) {
    const judged = input.checks.some((c) => c.kind === 'llmJudge');
    const holds = result.verdict.by === 'checks' && result.verdict.verified === !judged;
    claims.push(recomputed(`verdict: by ${result.verdict.by}, ${result.verdict.verified ? 'verified' : 'not verified'}`, holds, judged ? 'an llmJudge check is among the checks' : 'every check is deterministic'));
  }
  return claims;
}

/** A check as the run compiled it; a pattern RE2 cannot run (a run recorded before grove matched in linear time) is matched natively. */
function compiled(spec: CheckSpec, index: number): CompiledCheck {
  const never = async () => false;
  try {
    return compileCheck(spec, index, never);
  } catch {
    return compileCheck(spec, index, never, { patterns: 'native' });
  }
}

/** Why an outcome's evidence does not describe the returned answer, if it does not. */
function evidenceProblem(outcome: AiretryResult['checks'][number], name: string, active: number, digest: string): string | undefined {
  if (outcome.name !== name) return `the input's check at this place is ${name}`;
  if (outcome.sampleId !== undefined && outcome.sampleId !== active) return `it was checked on sample ${outcome.sampleId}, not on the returned sample ${active}`;
  if (outcome.outputSha256 !== undefined && outcome.outputSha256 !== digest) return `the text it checked (sha256 ${outcome.outputSha256.slice(0, 12)}…) is not the returned answer (${digest.slice(0, 12)}…)`;
  return undefined;
}

/** The claim about `output`: parsed from the returned answer — or, for an extraction that never matched its schema, that there is none and why. */
function outputClaim(input: ReturnType<typeof AiretryInputSchema.parse>, call: AICall<unknown>, stored: unknown, text: string): ClaimCheck {
  if (input.kind === 'extract' && call.outputError !== undefined && (stored ?? null) === null) {
    return recomputed('no output: the answer does not parse to the extract schema', sameOutput(input, call, stored), `answer ${quote(text)}: ${call.outputError}`);
  }
  return recomputed('output is parsed from that answer', sameOutput(input, call, stored), `answer ${quote(text)}`);
}

/** The stored output is what the answer parses to (with or without the lenient JSON reading the run may have used). */
function sameOutput(input: ReturnType<typeof AiretryInputSchema.parse>, call: AICall<unknown>, stored: unknown): boolean {
  if (deepEqual(call.output ?? null, stored ?? null)) return true;
  if (input.kind !== 'extract') return false;
  const last = call.lastMessage;
  const strict = last?.role === 'assistant' ? outputParserOf(input, { lenientJson: false }).parse(last) : undefined;
  return deepEqual(strict?.ok ? strict.value : null, stored ?? null);
}
