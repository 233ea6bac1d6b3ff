import { codeTestsEvaluator } from '../../activities/sandbox/code-tests-evaluator';
import { createGroveActivities, type GroveActivities } from '../../activities/grove-activities';
import { inProcessAgentPort, inProcessCallPort } from '../../activities/in-process/ports';
import type { LlmConfig } from '../../activities/llm/llm-config';
import { execCode } from '../../activities/sandbox/exec-code';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { AgentInputSchema } from '../../core/agents/agent-options';
import { trajectoryInput } from '../../core/agents/path-book';
import { runSearch, type SearchOutcome } from '../../core/agents/run-search';
import { SearchContext } from '../../core/agents/search-context';
import { SearchState } from '../../core/agents/search-state';
import { AICall, textOutput } from '../../core/airetry';
import { codeFeedback } from '../../core/code/code-feedback';
import { CODE_FIXER_TEMPLATES, runCodeFixer } from '../../core/code/code-fixer';
import type { CodeOutcome } from '../../core/code/code-outcome';
import { extractCode } from '../../core/code/extract-code';
import { ConversationRefs } from '../../core/hash/conversation-refs';
import { renderTemplate } from '../../core/conversation/template';
import { assistantMessage, messageText, userMessage, type Message } from '../../core/schemas/messages';
import { humanEvalPrompt, humanEvalTests, type HumanEvalProblem } from './human-eval';

/** What one method did on one problem: the program it returns at each budget (completions allowed). */
export interface MethodRun {
  programs: Record<number, string | undefined>;
}

/** The activities of one model, counting completions and requests as they go. */
export function modelActivities(llm: LlmConfig): { activities: GroveActivities; spent(): { completions: number; requests: number } } {
  const raw = createGroveActivities({ llm, store: new MemoryMessageStore(), tools: [], evaluators: [codeTestsEvaluator] });
  let completions = 0;
  let requests = 0;
  const llmChat: GroveActivities['llmChat'] = async (input) => {
    const result = await raw.llmChat(input);
    requests += 1;
    completions += result.choices.length;
    return result;
  };
  return { activities: { ...raw, llmChat }, spent: () => ({ completions, requests }) };
}

const SANDBOX = { timeoutMs: 10_000, memoryMb: 256 } as const;

/** One model call with a conversation given inline (a fresh reference book per call). */
async function ask(act: GroveActivities, model: string, conversation: Message[], params: Record<string, unknown>, runId: string): Promise<string> {
  const refs = new ConversationRefs();
  const result = await act.llmChat({ conversation: refs.input(refs.addPath(null, undefined, conversation)), model, params, runId });
  return messageText(result.choices[0]!.message);
}
const run = (code: string, p: HumanEvalProblem): Promise<CodeOutcome> => execCode({ language: 'python', code, testCode: humanEvalTests(p), ...SANDBOX });
const codeOf = (text: string) => extractCode(text, 'python').code;

/**
 * Repeated sampling with the tests as the verifier: the first answer greedy (temperature 0: the
 * one-shot), then samples at 0.8 until one passes. With budget k it returns the first passing
 * program among the first k samples, else the k-th.
 */
export async function sampling(act: GroveActivities, model: string, p: HumanEvalProblem, budgets: number[]): Promise<MethodRun> {
  const programs: (string | undefined)[] = [];
  let passedAt: number | undefined;
  for (let i = 0; i < Math.max(...budgets) && passedAt === undefined; i++) {
    const code = codeOf(await ask(act, model, [userMessage(humanEvalPrompt(p))], { temperature: i === 0 ? 0 : 0.8, seed: i, max_tokens: 512 }, `s${i}`));
    programs.push(code);
    if (code !== undefined && (await run(code, p)).ok) passedAt = i;
  }
  return finish(budgets, (k) => (passedAt !== undefined && passedAt < k ? programs[passedAt] : programs[Math.min(k, programs.length) - 1]));
}

/**
 * The seeds' linear AICodeFixer: answer, run with the tests, feed the outcome back (the seeds'
 * reflect–critique–improve templates and `aicodefixer` feedback), always from the latest
 * attempt, for `rounds` rounds.
 */
export async function linearFixer(act: GroveActivities, model: string, p: HumanEvalProblem, rounds: number): Promise<MethodRun> {
  const conversation: Message[] = [userMessage(humanEvalPrompt(p))];
  let program: string | undefined;
  for (let round = 0; round <= rounds; round++) {
    const text = await ask(act, model, conversation, { temperature: 0.7, seed: round, max_tokens: 512 }, `l${round}`);
    program = codeOf(text);
    const outcome: CodeOutcome = program === undefined ? { ok: false, stdout: '', stderr: '', durationMs: 0, error: { kind: 'syntax', message: 'no code found in the answer' } } : await run(program, p);
    if (outcome.ok) break;
    const template = round === 0 ? CODE_FIXER_TEMPLATES.first : CODE_FIXER_TEMPLATES.later;
    conversation.push(assistantMessage(text), userMessage(renderTemplate(template, { feedback: codeFeedback(outcome, { code: program, maxLength: 512 }) })));
  }
  return finish([rounds + 1], () => program);
}

/**
 * airetry's code fixer over the sample tree (`runCodeFixer`): two samples per round, UCT picks
 * the attempt to continue from, until one passes or `maxCalls` completions are spent. With
 * budget k it returns the first passing program among the first k samples, else the one the
 * fixer picks.
 */
export async function treeFixer(act: GroveActivities, model: string, p: HumanEvalProblem, budgets: number[]): Promise<MethodRun> {
  const maxCalls = Math.max(...budgets);
  const call = new AICall<string>([userMessage(humanEvalPrompt(p))], { kind: 'generate', parser: textOutput, model, apiKwargs: { max_tokens: 512 }, port: inProcessCallPort(act), config: { nSamples: 2, maxCalls } });
  const fixed = await runCodeFixer(call, (job) => execCode({ ...job, ...SANDBOX }), { language: 'python', testCode: humanEvalTests(p), numRounds: maxCalls });
  const attempts = [...fixed.attempts].sort((a, b) => a.sampleId - b.sampleId);
  const codes = new Map(attempts.map((a) => [a.sampleId, extractCode(messageText(sampleAnswer(call, a.sampleId)), 'python').code]));
  const passing = attempts.findIndex((a) => a.outcome.ok);
  return finish(budgets, (k) =>
    passing >= 0 && passing < k ? codes.get(attempts[passing]!.sampleId) : codes.get(attempts[Math.min(k, attempts.length) - 1]?.sampleId ?? -1) ?? fixed.code,
  );
}

/**
 * MCTS (LATS) over programs: each candidate is an answer with code, scored by grove's
 * `code-tests` evaluator (the fraction of the tests it passes, in the sandbox); two candidates
 * per expansion, reflection on failed trajectories; the model may try its code with grove's
 * `run_code` (an agent offers at least one tool); `maxCalls` requests = budget / 2, so at most
 * `budget` completions. Returns the best trajectory's latest program.
 */
export async function mcts(act: GroveActivities, model: string, p: HumanEvalProblem, budget: number): Promise<MethodRun> {
  const port = inProcessAgentPort(act);
  const options = AgentInputSchema.parse({
    algorithm: 'mcts', prompt: humanEvalPrompt(p), tools: ['run_code'], model, bFactor: 2, maxDepth: 3, threshold: 1, seed: 1,
    apiKwargs: { max_tokens: 512 },
    evaluator: { name: 'code-tests', options: { language: 'python', testCode: humanEvalTests(p), ...SANDBOX } },
    budget: { maxCalls: Math.max(1, Math.floor(budget / 2)) },
  });
  const state = SearchState.create([userMessage(options.prompt!)], [], Date.now());
  const outcome = (await runSearch(new SearchContext(state, options, port))) as SearchOutcome;
  const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
  const program = [...messages].reverse().map((m) => (m.role === 'assistant' ? codeOf(messageText(m)) : undefined)).find((c) => c !== undefined);
  return finish([budget], () => program);
}

function sampleAnswer(call: AICall<string>, sampleId: number): Message {
  const delta = call.samples.node(sampleId).data as { add?: Message[] } | undefined;
  const last = delta?.add?.at(-1);
  return last ?? assistantMessage('');
}

function finish(budgets: number[], pick: (k: number) => string | undefined): MethodRun {
  return { programs: Object.fromEntries(budgets.map((k) => [k, pick(k)])) };
}

/** The verdict: the problem's own tests, run on the returned program in grove's sandbox. */
export async function verdict(program: string | undefined, p: HumanEvalProblem): Promise<boolean> {
  return program !== undefined && (await run(program, p)).ok;
}
