import { setCurrentDetails } from '@temporalio/workflow';
import { AICall } from '../core/airetry/ai-call';
import { textOutput } from '../core/airetry/output-parsers';
import { runCodeFixer } from '../core/code/code-fixer';
import { CodeFixerInputSchema, type CodeFixerInput, type CodeFixerResult } from '../core/schemas/code-fixer-input';
import { promptConversation } from '../core/schemas/prompt-conversation';
import { exposeCall, treeText } from './api/expose-call';
import { workflowPort, workflowRng } from './api/workflow-port';
import { execInSandbox } from './lib/sandbox-port';
import { failRun, reportRun } from './lib/run-status';
import { validateInput } from './lib/validate-input';
import { fitResult } from './lib/result-size';
import { enforcePolicy } from './lib/operator-policy';

/**
 * The ready-made code fixer (the seeds' `AICodeFixer`): asks the model for code, runs it with the
 * tests in grove's sandbox, and feeds what went wrong back for up to `numRounds` rounds,
 * continuing from the attempt the scoring picks. Every model call and every sandbox run is an
 * activity; the sample tree lives in this workflow.
 *
 * @example
 * await client.workflow.execute('codeFixer', { taskQueue: 'grove', workflowId: 'fix-1', args: [{
 *   prompt: 'Write a Python function `add(a, b)` returning the sum. Answer with one ```python block.',
 *   language: 'python', testCode: 'assert add(1, 2) == 3', numRounds: 3,
 * }] });
 */
export async function codeFixer(raw: CodeFixerInput): Promise<CodeFixerResult> {
  const input = validateInput(CodeFixerInputSchema, raw, 'codeFixer input', 'codeFixer');
  reportRun({ kind: 'codeFixer', status: 'running' });
  await enforcePolicy('codeFixer', input).catch(failRun);
  const prompt = input.messages ?? promptConversation({ prompt: input.prompt, system: input.system });
  const port = workflowPort(input.llm);
  const call = new AICall<string>(prompt, {
    kind: 'generate',
    parser: textOutput,
    model: input.model,
    apiKwargs: input.apiKwargs,
    config: input.config,
    rng: workflowRng(input.seed),
    port: {
      ...port,
      onSamples: ({ calls }) => {
        reportRun({ calls, tokens: call.usage.totalTokens });
        setCurrentDetails(`**codeFixer** (${input.language}) — ${calls} attempts, ${call.config.retries} feedback rounds\n\n\`\`\`\n${treeText(call, true)}\n\`\`\``);
      },
    },
  });
  exposeCall(call);
  let fixed;
  try {
    fixed = await runCodeFixer(call, (job) => execInSandbox(job), input);
  } catch (err) {
    failRun(err, { calls: call.config.calls, tokens: call.usage.totalTokens });
  }
  const best = fixed.attempts.reduce((m, a) => Math.max(m, a.outcome.tests ? a.outcome.tests.passed / Math.max(1, a.outcome.tests.total) : a.outcome.ok ? 1 : 0), 0);
  const final = { calls: call.config.calls, tokens: call.usage.totalTokens, bestScore: best };
  const result = fitResult('codeFixer', {
    success: fixed.success,
    code: fixed.code,
    outcome: fixed.outcome,
    attempts: fixed.attempts.map((a) => ({ sampleId: a.sampleId, ok: a.outcome.ok, kind: a.outcome.error?.kind, tests: a.outcome.tests })),
    activeSampleId: call.activeSampleId,
    conversation: call.conversation,
    calls: call.config.calls,
    retries: call.config.retries,
    usage: call.usage,
    tree: call.samples.toJSON(),
    treeText: treeText(call, false),
  }, final);
  reportRun({ status: fixed.success ? 'succeeded' : 'exhausted', ...final });
  return result;
}
