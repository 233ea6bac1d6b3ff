/**
 * grove's workflow-side API: lazy AI calls, airetry and their helpers, for your own workflows.
 * Everything here is deterministic workflow code; model calls run as activities on a grove
 * worker.
 *
 * @example
 * import { aiGenerate, airetry, lastOutput } from 'grove-agents/workflow';
 *
 * export async function colorGame(): Promise<string> {
 *   const out = aiGenerate('Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only',
 *     { config: { nSamples: 2 }, apiKwargs: { n: 2 } });
 *   await out.run();
 *   await airetry((x) => lastOutput(x).split(/ |\./).length === 1, out, 'You must answer with 1 word only.');
 *   return lastOutput(out);
 * }
 */
export { AICall } from '../../core/airetry/ai-call';
export { airetry, type AiretryOptions } from '../../core/airetry/airetry';
export type { Condition, Feedback } from '../../core/airetry/evaluate-condition';
export { lastMessage, lastOutput } from '../../core/airetry/last-output';
export { thompsonSampling, uct } from '../../core/scoring/scoring';
export { RetryBudgetError } from '../../core/errors';
export { aiClassify, aiExtract, aiGenerate, aiScan, type AiOptions } from './ai-calls';
export { aiEmbed, AIEmbedCall } from './ai-embed';
export { llmJudge, type LlmJudgeOptions } from './llm-judge';
export { exposeCall, treeText, callProgress } from './expose-call';
export { steerCall } from './steer-call';
export { aiCodeFixer } from './ai-code-fixer';
export { execInSandbox } from '../lib/sandbox-port';
export { extractCode } from '../../core/code/extract-code';
export { codeFeedback, missingCodeFeedback } from '../../core/code/code-feedback';
export { CODE_FIXER_TEMPLATES, CODE_FEEDBACK_FUNCTIONS, type CodeFixerOptions, type CodeFixerResult } from '../../core/code/code-fixer';
