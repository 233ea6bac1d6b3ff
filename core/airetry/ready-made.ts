import { z } from 'zod';
import type { RandomSource } from '../random';
import type { AiretryInputSchema } from '../schemas/airetry-input';
import { promptConversation } from '../schemas/prompt-conversation';
import { userMessage, type Message } from '../schemas/messages';
import { ConversationDeltaSchema, type ConversationDelta } from '../conversation/delta';
import { startFromFork } from '../runs/fork';
import type { SampleTree } from '../tree/sample-tree';
import { AICall } from './ai-call';
import { airetry } from './airetry';
import { compileCheck, type JudgeRunner, type PatternEngine } from './checks';
import { zodFromJsonSchema } from './schema-patterns';
import { choiceOutput, jsonOutput, textOutput, type OutputParser } from './output-parsers';
import type { AICallPort } from './ports';

type Input = z.output<typeof AiretryInputSchema>;

/**
 * The AI call a ready-made `airetry` run starts from: text, JSON matching the input's JSON
 * Schema, or one of its choices. Shared by the workflow and in-process runs.
 *
 * @example
 * const call = callFromInput(AiretryInputSchema.parse(json), port, seededRandom(1));
 */
export function callFromInput(input: Input, port: AICallPort, rng: RandomSource, patterns: PatternEngine = 'linear', lenientJson = true): AICall<unknown> {
  const from = input.fork ? forkedSamples(input.fork) : undefined;
  let prompt = input.messages ?? promptConversation({ prompt: input.prompt, system: input.system });
  let parser: OutputParser<unknown> = textOutput;
  if (input.kind === 'extract') parser = jsonOutput(zodFromJsonSchema(input.schema as Record<string, unknown>, patterns), { name: 'output', lenient: lenientJson });
  if (input.kind === 'classify') {
    parser = choiceOutput(input.choices!);
    prompt = classifyConversation(input.messages ?? input.prompt!, input.choices!, input.system);
  }
  return new AICall(prompt, { kind: input.kind, parser, model: input.model, apiKwargs: input.apiKwargs, config: input.config, port, rng, from });
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
 * Runs a ready-made airetry: the first samples (a fork starts from its carried ones), then (with `catchErrors`) a retry of failed
 * model calls, then (for `extract`) a schema check, then each check of the input in order, each
 * as an airetry round. Returns which checks passed. With `throwOnBudget` a check still failing
 * at the end of the budget throws a RetryBudgetError. When a person intervened after the last
 * round, the checks run again on the sample the intervention produced; when a person stopped
 * the call, the remaining checks are skipped.
 *
 * @example
 * const outcomes = await runChecks(call, input, judge, (o) => report(o));
 */
export async function runChecks(
  call: AICall<unknown>,
  input: Input,
  judge: JudgeRunner,
  onCheck?: (outcomes: CheckOutcome[]) => void,
  patterns: PatternEngine = 'linear',
): Promise<CheckOutcome[]> {
  const checks = input.checks.map((spec, i) => compileCheck(spec, i, judge, { patterns }));
  const opts = { throw: input.throwOnBudget };
  if (call.success === undefined) await call.run(); // a fork starts from samples that already ran
  if (call.config.catchErrors) {
    // The seeds' `airetry!(isvalid, ...)`: retry failed model calls before judging answers.
    await airetry((x) => x.success === true, call, '', opts);
  }
  if (input.kind === 'extract') {
    await airetry((x) => x.outputError === undefined, call, (x) => `The output is not in the correct format: ${x.outputError}.`, opts);
  }
  for (;;) {
    const outcomes: CheckOutcome[] = [];
    for (const check of checks) {
      if (call.stopped) {
        outcomes.push({ name: check.name, passed: false, skipped: true });
        continue;
      }
      await airetry(check.condition, call, check.feedback, { ...check.options, ...opts });
      outcomes.push({ name: check.name, passed: call.success === true });
      onCheck?.(outcomes);
    }
    // A person intervened after the last round (a rewind, feedback): the new sample must pass every check again.
    if (call.stopped || call.steering.size === 0) return outcomes;
  }
}

/** A check's outcome; `skipped` when the run was stopped before it. */
export interface CheckOutcome {
  name: string;
  passed: boolean;
  skipped?: boolean;
}
