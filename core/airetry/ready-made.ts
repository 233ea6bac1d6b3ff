import { z } from 'zod';
import type { RandomSource } from '../random';
import type { AiretryInputSchema } from './airetry-input';
import { promptConversation } from '../schemas/prompt-conversation';
import { userMessage, type Message } from '../schemas/messages';
import { ConversationDeltaSchema, type ConversationDelta } from '../conversation/delta';
import { startFromFork } from '../runs/fork';
import type { SampleTree } from '../tree/sample-tree';
import { AICall } from './ai-call';
import { airetry } from './airetry';
import { compileCheck, type JudgeRunner, type PatternEngine } from './checks';
import { claimsOn, JudgeMemo, type CheckOutcome } from './check-claims';
import { zodFromJsonSchema } from './schema-patterns';
import { choiceOutput, jsonOutput, textOutput, type OutputParser } from './output-parsers';
import type { AICallPort } from './ports';

export type { CheckOutcome } from './check-claims';

type Input = z.output<typeof AiretryInputSchema>;

/**
 * How a ready-made airetry run behaves where grove changed it; a workflow turns each change on
 * behind a patch, so runs recorded before replay as they ran (all on in process).
 */
export interface ReadyMadeBehaviour {
  /** How patterns are matched: `linear` (RE2), or `native` for runs recorded before `grove-linear-patterns`. */
  patterns: PatternEngine;
  /** Extraction accepts ```json fences and quotes the schema in feedback (`grove-lenient-json`). */
  lenientJson: boolean;
  /**
   * Claims about the returned answer only (`grove-verified-checks`): the checks are swept until
   * one sweep draws nothing new and the returned answer passes them all, or the budget ends; a
   * judge is asked once per answer; JSON Schemas hold `minItems`/`maxItems`/`uniqueItems` on
   * arrays without `items`. Off: the seeds' single pass, one airetry round per check in order —
   * which can return an answer drawn during a later check's retries that an earlier check never saw.
   */
  verifiedChecks: boolean;
  /** JSON Schemas (checks and extraction) hold by the standard's rules, keywords without a `type` and `required` names not under `properties` included (`grove-json-schema-exact`). */
  exactSchema: boolean;
}

const BEHAVIOUR: ReadyMadeBehaviour = { patterns: 'linear', lenientJson: true, verifiedChecks: true, exactSchema: true };

/**
 * The AI call a ready-made `airetry` run starts from: text, JSON matching the input's JSON
 * Schema, or one of its choices. Shared by the workflow and in-process runs.
 *
 * @example
 * const call = callFromInput(AiretryInputSchema.parse(json), port, seededRandom(1));
 */
export function callFromInput(input: Input, port: AICallPort, rng: RandomSource, behaviour: Partial<ReadyMadeBehaviour> = {}): AICall<unknown> {
  const from = input.fork ? forkedSamples(input.fork) : undefined;
  const prompt =
    input.kind === 'classify'
      ? classifyConversation(input.messages ?? input.prompt!, input.choices!, input.system)
      : (input.messages ?? promptConversation({ prompt: input.prompt, system: input.system }));
  const parser = outputParserOf(input, behaviour);
  return new AICall(prompt, { kind: input.kind, parser, model: input.model, apiKwargs: input.apiKwargs, config: input.config, port, rng, from });
}

/**
 * How a ready-made airetry run reads its answers: text, JSON matching the input's schema
 * (`extract`), or one of its choices (`classify`).
 *
 * @example
 * outputParserOf(AiretryInputSchema.parse({ prompt: 'Is it red?', kind: 'classify', choices: ['yes', 'no'], checks })).parse(answer);
 */
export function outputParserOf(input: Input, behaviour: Partial<ReadyMadeBehaviour> = {}): OutputParser<unknown> {
  const { patterns, lenientJson, verifiedChecks, exactSchema } = { ...BEHAVIOUR, ...behaviour };
  if (input.kind === 'extract') return jsonOutput(zodFromJsonSchema(input.schema as Record<string, unknown>, patterns, verifiedChecks, exactSchema), { name: 'output', lenient: lenientJson });
  if (input.kind === 'classify') return choiceOutput(input.choices!);
  return textOutput;
}

/** A fork's carried samples (their conversations are inline: nothing to fetch), its sample active. */
function forkedSamples(fork: NonNullable<Input['fork']>): { tree: SampleTree<ConversationDelta>; activeSampleId: number } {
  const { tree, nodeId } = startFromFork<ConversationDelta>(fork, { data: ConversationDeltaSchema });
  return { tree, activeSampleId: nodeId };
}

/**
 * The conversation of a classification: the prompt with the choices listed, so the model
 * (and grove's scripted classifier) knows what to answer.
 *
 * @example
 * classifyConversation('Is "yellow" a color?', ['yes', 'no']); // [..., user 'Is "yellow" a color?\n\nAnswer with exactly one of: yes, no']
 */
export function classifyConversation(prompt: string | Message[], choices: readonly string[], system?: string | null): Message[] {
  const suffix = `Answer with exactly one of: ${choices.join(', ')}`;
  return typeof prompt === 'string' ? promptConversation({ prompt: `${prompt}\n\n${suffix}`, system }) : [...prompt, userMessage(suffix)];
}

/**
 * Runs a ready-made airetry: the first samples (a fork starts from its carried ones), then (with
 * `catchErrors`) a retry of failed model calls, then (for `extract`) a schema check, then the
 * input's checks in order, each as an airetry round — swept again while a sweep drew new samples
 * and the answer it ended on fails some check, so a later check's retry never slips an answer
 * past an earlier check. Returns each check's outcome **on the returned answer** (see
 * `claimsOn`): deterministic checks computed on it, `llmJudge` checks by what their judge said
 * about that very answer (asked again only when the answer it approved is not the returned one).
 * With `throwOnBudget` a check still failing at the end of the budget throws a RetryBudgetError.
 * When a person intervened after the last round, the checks run again on the sample the
 * intervention produced; when a person stopped the call, no more samples are drawn and no judge
 * is asked (its check is `skipped`).
 *
 * @example
 * const outcomes = await runChecks(call, input, judge, (o) => report(o));
 */
export async function runChecks(
  call: AICall<unknown>,
  input: Input,
  judge: JudgeRunner,
  onCheck?: (outcomes: Pick<CheckOutcome, 'name' | 'passed'>[]) => void,
  behaviour: Partial<ReadyMadeBehaviour> = {},
): Promise<CheckOutcome[]> {
  const { patterns, verifiedChecks: sweep, exactSchema } = { ...BEHAVIOUR, ...behaviour };
  const memo = new JudgeMemo();
  const compiled = input.checks.map((spec, i) => compileCheck(spec, i, judge, { patterns, arrayBounds: sweep, exactSchema }));
  // A judge is asked once per answer (sweeps look at answers again); runs recorded before asked each time.
  const checks = sweep ? compiled.map((c, i) => (input.checks[i]!.kind === 'llmJudge' ? { ...c, condition: memo.wrap(i, c.condition) } : c)) : compiled;
  const opts = { throw: input.throwOnBudget };
  if (call.success === undefined) await call.run(); // a fork starts from samples that already ran
  if (call.config.catchErrors) {
    // The seeds' `airetry!(isvalid, ...)`: retry failed model calls before judging answers.
    await airetry((x) => x.success === true, call, '', opts);
  }
  if (input.kind === 'extract') {
    await airetry((x) => x.outputError === undefined, call, (x) => `The output is not in the correct format: ${x.outputError}.`, opts);
  }
  // Per check, the sample its last round passed on (a judge's "yes" holds for that answer only).
  const passedOn = new Map<number, number>();
  const judged = (i: number, sampleId: number) => (sweep ? memo.get(i, sampleId) : passedOn.get(i) === sampleId ? true : undefined);
  for (;;) {
    const drawn = call.samples.nextId;
    const progress: Pick<CheckOutcome, 'name' | 'passed'>[] = [];
    for (const [i, check] of checks.entries()) {
      if (call.stopped) break;
      await airetry(check.condition, call, check.feedback, { ...check.options, ...opts });
      if (call.success === true) passedOn.set(i, call.activeSampleId);
      progress.push({ name: check.name, passed: call.success === true });
      onCheck?.(progress);
    }
    // A person intervened after the last round (a rewind, feedback): the new sample must pass every check again.
    if (!call.stopped && call.steering.size > 0) continue;
    if (call.stopped || !sweep) return claimsOn(call, checks, input.checks, { judged, ask: false });
    const outcomes = await claimsOn(call, checks, input.checks, { judged, ask: true });
    if (outcomes.every((o) => o.passed) || call.samples.nextId === drawn) return outcomes;
  }
}
