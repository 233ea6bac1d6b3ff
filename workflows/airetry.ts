import { ApplicationFailure, patched, setCurrentDetails } from '@temporalio/workflow';
import { callFromInput, runChecks, type CheckOutcome } from '../core/airetry/ready-made';
import { callResult } from '../core/airetry/check-claims';
import type { JudgeRunner } from '../core/airetry/checks';
import { RetryBudgetError } from '../core/errors';
import { AiretryInputSchema, type AiretryInput, type AiretryResult } from '../core/airetry/airetry-input';
import { exposeCall, treeText } from './api/expose-call';
import { steerCall } from './api/steer-call';
import { llmJudge } from './api/llm-judge';
import { workflowPort, workflowRng } from './api/workflow-port';
import { onResume, resumePoint } from './lib/resume-point';
import { endedStatus } from '../core/schemas/run-status';
import { failRun, reportRun } from './lib/run-status';
import { LlmSettingsSchema } from '../core/schemas/llm-settings';
import { startRun } from './lib/run-lifecycle';
import { fitResult } from './lib/result-size';
import { patchId } from './patches';
import { countModelCalls, MODEL_CALLS } from './lib/model-call-count';
import { describeFigures, figuresOfResult, plural } from '../core/runs/run-figures';

/** Change id: user patterns matched in linear time (RE2) instead of JavaScript's backtracking engine. */
export const LINEAR_PATTERNS = patchId('grove-linear-patterns');
/** Change id: extraction accepts ```json fences and quotes the schema in its feedback. */
export const LENIENT_JSON = patchId('grove-lenient-json');
/**
 * Change id: the checks are swept until the returned answer passes them all (or the budget
 * ends), a judge is asked once per answer, and JSON Schema array bounds hold without `items`;
 * runs recorded before keep the single pass.
 */
export const VERIFIED_CHECKS = patchId('grove-verified-checks');
/** Change id: JSON Schema checks and extraction hold every keyword by the standard's rules (see core/airetry/schema-exact.ts). */
export const EXACT_SCHEMA = patchId('grove-json-schema-exact');

/**
 * The ready-made self-fixing call for backend services: generate (or extract, or classify),
 * then run each check in order as an airetry round — check, feed back what was wrong, retry
 * from the most promising sample — within the retry budget, sweeping the checks again until the
 * answer it returns passes every one (or the budget ends): what the result claims of each check
 * holds for that answer, and says so with the evidence (`grove verify`). Every model call is an activity;
 * the tree, selection and backpropagation live in this workflow's state. People can steer it
 * while it runs (`rewind`, `feedback`, `stop` updates; see `steerCall`). With `fork`, it
 * continues another run's sample tree from one of its samples.
 *
 * @example
 * await client.workflow.execute('airetry', { taskQueue: 'grove', workflowId: 'color-1', args: [{
 *   prompt: 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
 *   config: { nSamples: 2 }, apiKwargs: { n: 2 },
 *   checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }],
 * }] });
 */
export async function airetry(raw: AiretryInput): Promise<AiretryResult> {
  // Asked before the first await (with the run's start), so every replay meets the marker in the same workflow task.
  let countsModelCalls = false;
  const { input } = await startRun(AiretryInputSchema, raw, { what: 'airetry input', kind: 'airetry', beforeReport: () => (countsModelCalls = patched(MODEL_CALLS)) });
  const counted = countModelCalls(workflowPort(input.llm));
  const port = counted.port;
  // What GroveCalls holds: model calls; runs recorded before wrote samples.
  const modelCalls = () => (countsModelCalls ? counted.calls() : call.config.calls);
  const onSamples = ({ calls }: { calls: number }) => {
    reportRun({ calls: modelCalls(), tokens: call.usage.totalTokens });
    const abandoned = call.samples.abandonedRoots();
    const pruned = abandoned.length ? `\n\nabandoned by rewinds (kept in the \`tree\` query): ${abandoned.map((id) => `sample ${id}`).join(', ')}` : '';
    setCurrentDetails(`**airetry** — ${describeFigures({ modelCalls: countsModelCalls ? counted.calls() : undefined, samples: calls })}, ${plural(call.config.retries, 'retry', 'retries')}${call.stopped ? `, stopped by ${call.stopped.by}` : ''}\n\n\`\`\`\n${treeText(call, true)}\n\`\`\`${pruned}`);
  };
  // Patterns in checks and schemas are matched in linear time; runs recorded before keep their engine.
  const patterns = patched(LINEAR_PATTERNS) ? 'linear' : 'native';
  // Fenced JSON accepted and the schema quoted in feedback; runs recorded before keep the strict parser.
  const lenientJson = patched(LENIENT_JSON);
  // Claims about the returned answer only: checks swept until it passes them all; runs recorded before keep the single pass.
  const verifiedChecks = patched(VERIFIED_CHECKS);
  // JSON Schemas hold by the standard's rules (keywords without a type, required names not declared); runs recorded before keep zod's reading.
  const behaviour = { patterns, lenientJson, verifiedChecks, exactSchema: patched(EXACT_SCHEMA) } as const;
  const call = callFromInput(input, { ...port, onSamples }, workflowRng(input.seed), behaviour);
  // A resume (`grove resume --model ... --max-calls ...`) changes the model and budget of the rounds still to come.
  onResume((overrides) => {
    if (overrides.model !== undefined) call.model = overrides.model;
    if (overrides.budget?.maxCalls !== undefined) call.config.maxCalls = overrides.budget.maxCalls;
    if (overrides.budget?.maxRetries !== undefined) call.config.maxRetries = overrides.budget.maxRetries;
  });
  exposeCall(call, countsModelCalls ? { modelCalls: counted.calls } : {});
  const steering = steerCall(call, { changed: () => onSamples({ calls: call.config.calls }) });
  const judge: JudgeRunner = async (c, question, model) => counted.judged(llmJudge(question, { model, llm: input.llm })(c));
  let outcomes: CheckOutcome[];
  try {
    const resuming = resumePoint();
    if (resuming) await resuming;
    const progress = (o: { passed: boolean }[]) => reportRun({ bestScore: o.filter((x) => x.passed).length / input.checks.length });
    outcomes = await runChecks(call, input, judge, progress, behaviour);
  } catch (err) {
    steering.finish('the run has ended');
    if (RetryBudgetError.isInstance(err)) {
      reportRun({ status: 'exhausted' });
      throw ApplicationFailure.nonRetryable(err.message, err.name);
    }
    failRun(err, { calls: modelCalls(), tokens: call.usage.totalTokens }, LlmSettingsSchema.parse(input.llm ?? {}));
  }
  steering.finish(call.stopped ? `the run was stopped by ${call.stopped.by}` : 'the run has ended');
  const final = { calls: modelCalls(), tokens: call.usage.totalTokens };
  const result = fitResult('airetry', {
    ...callResult(call, outcomes),
    ...(countsModelCalls ? { modelCalls: counted.calls() } : {}),
    treeText: treeText(call, false),
    ...(call.stopped ? { stopped: call.stopped } : {}),
    ...(steering.log.list.length > 0 ? { actions: steering.log.toJSON() } : {}),
  }, final);
  // The returned answer's score, as the result's figures say (runs recorded before kept the last sweep's).
  const best = countsModelCalls ? { bestScore: figuresOfResult('airetry', result).best } : {};
  reportRun({ status: endedStatus(result.success, call.stopped !== undefined), ...final, ...best });
  return result;
}
