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
import { testScore, type CodeOutcome, type ExecCodeInput } from '../../core/code/code-outcome';
import { extractCode } from '../../core/code/extract-code';
import { ConversationRefs } from '../../core/hash/conversation-refs';
import { renderTemplate } from '../../core/conversation/template';
import { assistantMessage, messageText, userMessage, type Message } from '../../core/schemas/messages';
import { humanEvalPrompt, humanEvalTests, type HumanEvalProblem } from './human-eval';
import { MAX_TOKENS, perBudget, type Spend } from './human-eval-plan';

/**
 * What one method did on one problem, for each budget (completions allowed) it was measured at:
 * the program it returns, and what it had spent when that answer was decided.
 */
export interface MethodRun {
  programs: Record<number, string | undefined>;
  spent: Record<number, Spend>;
}

/**
 * How a method on one problem measures itself and judges its programs: `meter()` is what it has
 * spent since it started on the problem; `verdicts` keeps the sandbox's word on each program it ran.
 */
export interface MethodEnv {
  meter(): Spend;
  verdicts: Verdicts;
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
/** Every completion: the cap, and the end of the answer at its code block's closing fence (left out; extractCode takes an unclosed block). */
const GENERATION: { max_tokens: number; stop: string[] } = { max_tokens: MAX_TOKENS, stop: ['\n```\n'] };

/** One model call with a conversation given inline (a fresh reference book per call). */
async function ask(act: GroveActivities, model: string, conversation: Message[], params: Record<string, unknown>, runId: string): Promise<string> {
  const refs = new ConversationRefs();
  const result = await act.llmChat({ conversation: refs.input(refs.addPath(null, undefined, conversation)), model, params, runId });
  return messageText(result.choices[0]!.message);
}

/**
 * The problem's tests on a program in grove's sandbox — the `code-tests` evaluator's path:
 * `execCode` with the tests run apart from the code (which cannot rewrite them, fake their
 * tally, or pass by printing or exiting early), scored by `testScore`; a pass is a score of 1.
 */
const run = (code: string, p: HumanEvalProblem, timeoutMs: number = SANDBOX.timeoutMs): Promise<CodeOutcome> =>
  execCode({ language: 'python', code, testCode: humanEvalTests(p), ...SANDBOX, timeoutMs });

/** An outcome that says something about the program: not a time limit or an engine failure, which load alone can cause. */
const settled = (o: CodeOutcome): boolean => o.error?.kind !== 'timeout' && o.error?.kind !== 'sandbox';

/**
 * The verdicts on one problem's programs: each distinct program is run against the problem's
 * tests once — a method's own test run of it counts, and the same program returned at two
 * budgets (or by two methods) reuses the verdict.
 *
 * @example
 * const verdicts = new Verdicts(problem);
 * await verdicts.of(program); // true only when check(entry_point) passed in the sandbox
 */
export class Verdicts {
  private readonly known = new Map<string, boolean>();
  runs = 0;

  constructor(private readonly problem: HumanEvalProblem) {}

  /** Runs `program` with the tests (or reuses its verdict) and returns the outcome when it ran. */
  async test(program: string): Promise<{ passed: boolean; outcome?: CodeOutcome }> {
    const known = this.known.get(program);
    if (known !== undefined) return { passed: known };
    let outcome = await run(program, this.problem);
    this.runs += 1;
    // A busy machine can push a correct program past the time limit: a timeout (or an engine that
    // did not start) is judged again once with 6× the time before it counts as a failure.
    if (!settled(outcome)) {
      outcome = await run(program, this.problem, SANDBOX.timeoutMs * 6);
      this.runs += 1;
    }
    this.known.set(program, testScore(outcome) === 1);
    return { passed: testScore(outcome) === 1, outcome };
  }

  /**
   * Keeps the sandbox's word on a program that a method ran with these tests itself — unless it
   * timed out or the engine failed, which the verdict then re-runs rather than trusts.
   */
  note(program: string, outcome: CodeOutcome): void {
    if (settled(outcome)) this.known.set(program, testScore(outcome) === 1);
  }

  /** The verdict: the problem's own tests pass on the program (no program: no pass). */
  async of(program: string | undefined): Promise<boolean> {
    return program !== undefined && (await this.test(program)).passed;
  }
}
const codeOf = (text: string) => extractCode(text, 'python').code;

/**
 * Repeated sampling with the tests as the verifier: the first answer greedy (temperature 0: the
 * one-shot), then samples at 0.8 until one passes. With budget k it returns the first passing
 * program among the first k samples, else the k-th, and is charged what it had spent when that
 * sample was tested (a budget of 1 is not charged for the samples a budget of 4 drew).
 */
export async function sampling(act: GroveActivities, model: string, p: HumanEvalProblem, budgets: readonly number[], env: MethodEnv): Promise<MethodRun> {
  const programs: (string | undefined)[] = [];
  const marks: Spend[] = [];
  let passedAt: number | undefined;
  for (let i = 0; i < Math.max(...budgets) && passedAt === undefined; i++) {
    const code = codeOf(await ask(act, model, [userMessage(humanEvalPrompt(p))], { temperature: i === 0 ? 0 : 0.8, seed: i, ...GENERATION }, `s${i}`));
    programs.push(code);
    if (code !== undefined) {
      const outcome = await run(code, p);
      env.verdicts.note(code, outcome);
      if (testScore(outcome) === 1) passedAt = i;
    }
    marks.push(env.meter());
  }
  return perBudget(budgets, programs, marks, passedAt);
}

/**
 * The seeds' linear AICodeFixer: answer, run with the tests, feed the outcome back (the seeds'
 * reflect–critique–improve templates and `aicodefixer` feedback), always from the latest
 * attempt, for `rounds` rounds.
 */
export async function linearFixer(act: GroveActivities, model: string, p: HumanEvalProblem, rounds: number, env: MethodEnv): Promise<MethodRun> {
  const conversation: Message[] = [userMessage(humanEvalPrompt(p))];
  let program: string | undefined;
  for (let round = 0; round <= rounds; round++) {
    const text = await ask(act, model, conversation, { temperature: 0.7, seed: round, ...GENERATION }, `l${round}`);
    program = codeOf(text);
    const outcome: CodeOutcome = program === undefined ? { ok: false, stdout: '', stderr: '', durationMs: 0, error: { kind: 'syntax', message: 'no code found in the answer' } } : await run(program, p);
    if (program !== undefined) env.verdicts.note(program, outcome);
    if (testScore(outcome) === 1) break;
    const template = round === 0 ? CODE_FIXER_TEMPLATES.first : CODE_FIXER_TEMPLATES.later;
    conversation.push(assistantMessage(text), userMessage(renderTemplate(template, { feedback: codeFeedback(outcome, { code: program, maxLength: 512 }) })));
  }
  return finish(rounds + 1, program, env);
}

/**
 * airetry's code fixer over the sample tree (`runCodeFixer`): two samples per round, UCT picks
 * the attempt to continue from, until one passes or `budget` completions are spent. Returns the
 * program the fixer picks (the passing one, else its best).
 */
export async function treeFixer(act: GroveActivities, model: string, p: HumanEvalProblem, budget: number, env: MethodEnv): Promise<MethodRun> {
  const call = new AICall<string>([userMessage(humanEvalPrompt(p))], { kind: 'generate', parser: textOutput, model, apiKwargs: { ...GENERATION }, port: inProcessCallPort(act), config: { nSamples: 2, maxCalls: budget } });
  const exec = async (job: ExecCodeInput) => {
    const outcome = await execCode({ ...job, ...SANDBOX });
    env.verdicts.note(job.code, outcome);
    return outcome;
  };
  const fixed = await runCodeFixer(call, exec, { language: 'python', testCode: humanEvalTests(p), numRounds: budget });
  return finish(budget, fixed.code, env);
}

/**
 * MCTS (LATS) over programs: each candidate is an answer with code, scored by grove's
 * `code-tests` evaluator (the fraction of the tests it passes, in the sandbox); two candidates
 * per expansion, reflection on failed trajectories; the model may try its code with grove's
 * `run_code` (an agent offers at least one tool); `maxCalls` requests = budget / 2, so at most
 * `budget` completions. Returns the best trajectory's latest program.
 */
export async function mcts(act: GroveActivities, model: string, p: HumanEvalProblem, budget: number, env: MethodEnv): Promise<MethodRun> {
  const port = inProcessAgentPort(act);
  const options = AgentInputSchema.parse({
    algorithm: 'mcts', prompt: humanEvalPrompt(p), tools: ['run_code'], model, bFactor: 2, maxDepth: 3, threshold: 1, seed: 1,
    apiKwargs: { ...GENERATION },
    evaluator: { name: 'code-tests', options: { language: 'python', testCode: humanEvalTests(p), ...SANDBOX } },
    budget: { maxCalls: Math.max(1, Math.floor(budget / 2)) },
  });
  const state = SearchState.create([userMessage(options.prompt!)], [], Date.now());
  const outcome = (await runSearch(new SearchContext(state, options, port))) as SearchOutcome;
  const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
  const program = [...messages].reverse().map((m) => (m.role === 'assistant' ? codeOf(messageText(m)) : undefined)).find((c) => c !== undefined);
  return finish(budget, program, env);
}

/** A method measured at one budget: its answer, and its whole run's spend. */
function finish(budget: number, program: string | undefined, env: MethodEnv): MethodRun {
  return { programs: { [budget]: program }, spent: { [budget]: env.meter() } };
}
