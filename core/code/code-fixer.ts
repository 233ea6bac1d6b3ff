import type { AICall } from '../airetry/ai-call';
import { airetry } from '../airetry/airetry';
import { lastOutput } from '../airetry/last-output';
import { renderTemplate } from '../conversation/template';
import { codeFeedback, missingCodeFeedback } from './code-feedback';
import type { CodeLanguage, CodeOutcome, ExecCodeInput } from './code-outcome';
import { extractCode } from './extract-code';

/** Runs code in the sandbox: the `groveExecCode` activity in a workflow, `execCode` in process. */
export type ExecPort = (input: ExecCodeInput) => Promise<CodeOutcome>;

/** Turns an outcome into feedback text; the default is the seeds' `aicodefixer_feedback`. */
export type CodeFeedbackFn = (outcome: CodeOutcome, code: string, opts: { maxLength: number; language: CodeLanguage }) => string;

/** Feedback functions a ready-made run can name. `error` reports only the error, like the seeds' `error_feedback`. */
export const CODE_FEEDBACK_FUNCTIONS: Record<string, CodeFeedbackFn> = {
  aicodefixer: (outcome, code, { maxLength }) => codeFeedback(outcome, { code, maxLength }),
  error: (outcome, _code, { maxLength }) => (outcome.error ? codeFeedback({ ...outcome, stdout: '', stderr: '' }, { maxLength }) : 'No errors.'),
};

/** The seeds' `:CodeFixerRCI` templates (reflect, critique, improve): the first for round one, the second for every later round. */
export const CODE_FIXER_TEMPLATES = {
  first: 'Your code was run. Here is what happened:\n\n{{feedback}}\n\nReflect on what went wrong, critique your solution, and write an improved, complete version. Return the whole code in one fenced block.',
  later: 'Your code was run again:\n\n{{feedback}}\n\nFix the remaining problem. Return the whole corrected code in one fenced block.',
} as const;

export interface CodeFixerOptions {
  language: CodeLanguage;
  /** Test code run after each attempt (Python: `assert`s and `test_*` functions; JS/TS: `assert(...)` and `test(name, fn)`). */
  testCode?: string;
  /** Feedback rounds after the first answer (the seeds' `num_rounds`, default 3). */
  numRounds?: number;
  /** `{{feedback}}` templates for the first and later rounds. */
  templates?: { first: string; later: string };
  /** A feedback function, or the name of one in {@link CODE_FEEDBACK_FUNCTIONS}. */
  feedback?: CodeFeedbackFn | string;
  /** Feedback length cap in characters (default 512, as in the seeds). */
  maxFeedbackLength?: number;
  timeoutMs?: number;
  memoryMb?: number;
  /** Files seeded into the sandbox. */
  files?: Record<string, string>;
}

export interface CodeFixerResult {
  success: boolean;
  /** The code of the chosen attempt (the passing one, else the best by the call's scoring). */
  code?: string;
  outcome?: CodeOutcome;
  /** Attempts run in the sandbox, by sample id; `cut` when the answer stopped at the token limit. */
  attempts: Array<{ sampleId: number; outcome: CodeOutcome; hasCode: boolean; cut?: true }>;
}

/**
 * The seeds' `AICodeFixer` + `run!`, on grove's sample tree: runs the call, extracts the code of
 * its answer, runs it (with the tests) in the sandbox, and while it fails feeds the outcome back
 * — first-round template, then the later one — for up to `numRounds` rounds. Because this is
 * `airetry`, each round continues from the attempt the call's scoring picks (UCT by default;
 * Thompson with a seed), so rounds can branch from an earlier, better attempt; with one sample
 * per round and a failing latest attempt it is the seeds' linear loop. Pure: the sandbox comes
 * in as `exec`.
 *
 * @example
 * const call = aiGenerate('Write a Python function add(a, b). Return it in a ```python block.');
 * const fixed = await runCodeFixer(call, groveExecCode, { language: 'python', testCode: 'assert add(1, 2) == 3' });
 */
export async function runCodeFixer(call: AICall<string>, exec: ExecPort, opts: CodeFixerOptions): Promise<CodeFixerResult> {
  const { language, numRounds = 3, maxFeedbackLength = 512 } = opts;
  const templates = opts.templates ?? CODE_FIXER_TEMPLATES;
  const feedbackFn = typeof opts.feedback === 'function' ? opts.feedback : CODE_FEEDBACK_FUNCTIONS[opts.feedback ?? 'aicodefixer'];
  if (!feedbackFn) throw new Error(`feedback: unknown feedback function "${String(opts.feedback)}" (known: ${Object.keys(CODE_FEEDBACK_FUNCTIONS).join(', ')})`);
  if (call.success === undefined) await call.run();
  // The templates word the whole message; airetry adds nothing around it.
  call.config.feedbackTemplate = '{{feedback}}';
  const startRetries = call.config.retries;
  const ran = new Map<number, { code?: string; outcome: CodeOutcome }>();
  const attempt = async (c: AICall<string>) => {
    const id = c.activeSampleId;
    let r = ran.get(id);
    if (!r) {
      const { code } = extractCode(lastOutput(c) ?? '', language);
      const outcome: CodeOutcome = code === undefined
        ? { ok: false, stdout: '', stderr: '', durationMs: 0, error: { kind: 'syntax', message: 'no code found in the answer' } }
        : await exec({ language, code, testCode: opts.testCode, files: opts.files, timeoutMs: opts.timeoutMs, memoryMb: opts.memoryMb });
      r = { code, outcome };
      ran.set(id, r);
    }
    return r;
  };
  await airetry(
    async (c) => (await attempt(c)).outcome.ok,
    call,
    async (c) => {
      const r = await attempt(c);
      const text = r.code === undefined ? missingCodeFeedback(language) : feedbackFn(r.outcome, r.code, { maxLength: maxFeedbackLength, language });
      return renderTemplate(call.config.retries === startRetries ? templates.first : templates.later, { feedback: text });
    },
    { maxRetries: startRetries + numRounds },
  );
  const chosen = ran.get(call.activeSampleId);
  return {
    success: call.success === true,
    code: chosen?.code,
    outcome: chosen?.outcome,
    attempts: [...ran].map(([sampleId, r]) => ({ sampleId, outcome: r.outcome, hasCode: r.code !== undefined, ...(call.cutSamples.has(sampleId) ? { cut: true as const } : {}) })),
  };
}
