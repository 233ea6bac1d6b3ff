import { ApplicationFailure } from '@temporalio/workflow';
import { z } from 'zod';
import type { AICall } from '../core/airetry/ai-call';
import { airetry as retryCheck } from '../core/airetry/airetry';
import { compileCheck, type JudgeRunner } from '../core/airetry/checks';
import { RetryBudgetError } from '../core/errors';
import { AiretryInputSchema, type AiretryInput, type AiretryResult } from '../core/schemas/airetry-input';
import { promptConversation } from '../core/schemas/prompt-conversation';
import { aiClassify, aiExtract, aiGenerate, type AiOptions } from './api/ai-calls';
import { exposeCall, treeText } from './api/expose-call';
import { llmJudge } from './api/llm-judge';
import { failRun, reportRun } from './lib/run-status';
import { validateInput } from './lib/validate-input';

/**
 * The ready-made self-fixing call for backend services: generate (or extract, or classify),
 * then run each check in order as an airetry round — check, feed back what was wrong, retry
 * from the most promising sample — within the retry budget. Every model call is an activity;
 * the tree, selection and backpropagation live in this workflow's state.
 *
 * @example
 * await client.workflow.execute('airetry', { taskQueue: 'grove', workflowId: 'color-1', args: [{
 *   prompt: 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
 *   config: { nSamples: 2 }, apiKwargs: { n: 2 },
 *   checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }],
 * }] });
 */
export async function airetry(raw: AiretryInput): Promise<AiretryResult> {
  const input = validateInput(AiretryInputSchema, raw, 'airetry input');
  reportRun({ kind: 'airetry', status: 'running' });
  const call = createCall(input);
  exposeCall(call);
  call.port = { ...call.port!, onSamples: ({ calls }) => reportRun({ calls, tokens: call.usage.totalTokens }) };
  const judge: JudgeRunner = async (c, question, model) => llmJudge(question, { model, llm: input.llm })(c);
  const checks = input.checks.map((spec, i) => compileCheck(spec, i, judge));
  const outcomes: { name: string; passed: boolean }[] = [];
  try {
    await call.run();
    if (call.config.catchErrors) {
      // The seeds' `airetry!(isvalid, ...)`: retry failed model calls before judging answers.
      await retryCheck((x) => x.success === true, call, '', { throw: input.throwOnBudget });
    }
    if (input.kind === 'extract') {
      await retryCheck((x) => x.outputError === undefined, call, (x) => `The output is not in the correct format: ${x.outputError}.`, {
        throw: input.throwOnBudget,
      });
    }
    for (const check of checks) {
      await retryCheck(check.condition, call as AICall<unknown>, check.feedback, { ...check.options, throw: input.throwOnBudget });
      outcomes.push({ name: check.name, passed: call.success === true });
      reportRun({ bestScore: outcomes.filter((o) => o.passed).length / checks.length });
    }
  } catch (err) {
    if (RetryBudgetError.isInstance(err)) {
      reportRun({ status: 'exhausted' });
      throw ApplicationFailure.nonRetryable(err.message, err.name);
    }
    failRun(err);
  }
  const success = outcomes.every((o) => o.passed);
  reportRun({ status: success ? 'succeeded' : 'exhausted', calls: call.config.calls, tokens: call.usage.totalTokens });
  return {
    output: call.output,
    success,
    checks: outcomes,
    activeSampleId: call.activeSampleId,
    conversation: call.conversation,
    calls: call.config.calls,
    retries: call.config.retries,
    usage: call.usage,
    tree: call.samples.toJSON(),
    treeText: treeText(call, false),
  };
}

function createCall(input: z.output<typeof AiretryInputSchema>): AICall<unknown> {
  const opts: AiOptions = { model: input.model, apiKwargs: input.apiKwargs, config: input.config, system: input.system, seed: input.seed, llm: input.llm };
  const prompt = input.messages ?? promptConversation({ prompt: input.prompt, system: input.system });
  switch (input.kind) {
    case 'extract':
      return aiExtract(prompt, z.fromJSONSchema(input.schema as Parameters<typeof z.fromJSONSchema>[0]), opts) as AICall<unknown>;
    case 'classify':
      return aiClassify(input.prompt ?? prompt, input.choices!, opts) as AICall<unknown>;
    default:
      return aiGenerate(prompt, opts) as AICall<unknown>;
  }
}
