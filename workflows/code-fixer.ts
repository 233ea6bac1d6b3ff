import { testScore } from '../core/code/code-outcome';
import { patched, setCurrentDetails } from '@temporalio/workflow';
import { AICall, callSummary } from '../core/airetry/ai-call';
import { textOutput } from '../core/airetry/output-parsers';
import { runCodeFixer } from '../core/code/code-fixer';
import { CodeFixerInputSchema, type CodeFixerInput, type CodeFixerResult } from '../core/code/code-fixer-input';
import { promptConversation } from '../core/schemas/prompt-conversation';
import { exposeCall, treeText } from './api/expose-call';
import { workflowPort, workflowRng } from './api/workflow-port';
import { execInSandbox } from './lib/sandbox-port';
import { failRun, reportRun } from './lib/run-status';
import { LlmSettingsSchema } from '../core/schemas/llm-settings';
import { startRun } from './lib/run-lifecycle';
import { fitResult } from './lib/result-size';
import { patchId } from './patches';
import { countModelCalls, MODEL_CALLS } from './lib/model-call-count';
import { describeFigures, figuresOfResult, plural } from '../core/runs/run-figures';

/**
 * Change id: code-fixer runs call their kind `code-fixer` — in `GroveKind`, the policy check and
 * their messages — the name the client, the CLI, the viewer and the docs use. Runs started
 * before wrote `codeFixer` (its workflow type) and replay writing it; readers take both names.
 */
export const KIND_NAME_PATCH = patchId('grove-kind-code-fixer');

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
  const kind = patched(KIND_NAME_PATCH) ? 'code-fixer' : 'codeFixer';
  // Asked before the first await (with the run's start), so every replay meets the marker in the same workflow task.
  let countsModelCalls = false;
  const { input } = await startRun(CodeFixerInputSchema, raw, { what: `${kind} input`, kind, beforeReport: () => (countsModelCalls = patched(MODEL_CALLS)) });
  const prompt = input.messages ?? promptConversation({ prompt: input.prompt, system: input.system });
  const counted = countModelCalls(workflowPort(input.llm));
  const port = counted.port;
  // What GroveCalls holds: model calls; runs recorded before wrote attempts (samples).
  const modelCalls = () => (countsModelCalls ? counted.calls() : call.config.calls);
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
        reportRun({ calls: modelCalls(), tokens: call.usage.totalTokens });
        setCurrentDetails(`**${kind}** (${input.language}) — ${describeFigures({ modelCalls: countsModelCalls ? counted.calls() : undefined, samples: calls })}, ${plural(call.config.retries, 'feedback round')}\n\n\`\`\`\n${treeText(call, true)}\n\`\`\``);
      },
    },
  });
  exposeCall(call, countsModelCalls ? { modelCalls: counted.calls } : {});
  let fixed;
  try {
    fixed = await runCodeFixer(call, (job) => execInSandbox(job), input);
  } catch (err) {
    failRun(err, { calls: modelCalls(), tokens: call.usage.totalTokens }, LlmSettingsSchema.parse(input.llm ?? {}));
  }
  // The returned code's share of tests passed (runs recorded before wrote the best attempt's).
  // The returned code's score by the figures' one rule (no tests, no score); runs recorded before wrote the best attempt's.
  const best = countsModelCalls ? figuresOfResult('code-fixer', { outcome: fixed.outcome }).best : fixed.attempts.reduce((m, a) => Math.max(m, testScore(a.outcome)), 0);
  const final = { calls: modelCalls(), tokens: call.usage.totalTokens, bestScore: best };
  const result = fitResult('code-fixer', {
    success: fixed.success,
    // The tests decided; without tests nothing checked what the code does: running without an error is not verified.
    verdict: { by: 'tests' as const, verified: input.testCode !== undefined && input.testCode.trim() !== '' },
    code: fixed.code,
    outcome: fixed.outcome,
    attempts: fixed.attempts.map((a) => ({ sampleId: a.sampleId, ok: a.outcome.ok, kind: a.outcome.error?.kind, tests: a.outcome.tests, ...(a.cut ? { cut: true as const } : {}) })),
    ...callSummary(call),
    ...(countsModelCalls ? { modelCalls: counted.calls() } : {}),
    treeText: treeText(call, false),
  }, final);
  reportRun({ status: fixed.success ? 'succeeded' : 'exhausted', ...final });
  return result;
}
