import type { ConversationDelta } from '../../core/conversation/delta';
import type { CodeLanguage } from '../../core/code/code-outcome';
import { extractCode } from '../../core/code/extract-code';
import { CodeFixerInputSchema, type CodeFixerResult } from '../../core/code/code-fixer-input';
import { messageText } from '../../core/schemas/messages';
import type { TreeNode } from '../../core/tree/tree-node';
import { messageLabel } from './labels';
import { facts, type RunAdapter, type RunReader, type RunSnapshot } from './run-adapter';
import { readSampleRun, sampleSnapshot } from './sample-snapshot';
import { shorten } from '../../core/conversation/preview';

type Attempt = CodeFixerResult['attempts'][number];

/**
 * Code-fixer runs (`code-fixer`, and `codeFixer` as runs started before one name per kind wrote
 * it): their sample tree, each attempt labelled by what running it in the sandbox showed — tests
 * passed, or the failure the model was told about — then its first line of code.
 */
export const codeFixerAdapter: RunAdapter = {
  matches: (kind) => kind === 'code-fixer',

  async snapshot(reader: RunReader): Promise<RunSnapshot> {
    const run = await readSampleRun<CodeFixerResult>(reader);
    const { result, progress } = run;
    const input = CodeFixerInputSchema.safeParse(reader.input);
    const language = input.success ? input.data.language : undefined;
    const attempts = new Map((result?.attempts ?? []).map((a) => [a.sampleId, a]));
    const outcome = result?.outcome;
    return sampleSnapshot(run, {
      prompt: input.success ? input.data.prompt : undefined,
      label: (node) => attemptLabel(node, attempts.get(node.id), language),
      nodeFacts: (node) => [['sandbox', sandboxSays(attempts.get(node.id))]],
      facts: facts([
        ['prompt', input.success && input.data.prompt ? shorten(input.data.prompt, 200) : undefined],
        ['language', language],
        ['tests', input.success ? (input.data.testCode ? `${input.data.testCode.split('\n').filter((l) => l.trim()).length} lines` : 'none given') : undefined],
        ['attempts', result?.calls ?? progress?.calls],
        ['feedback rounds', result?.retries ?? progress?.retries],
        ['chosen attempt', result ? `sample ${result.activeSampleId}` : undefined],
        ['verdict', result ? (result.success ? `fixed: ${outcome?.tests ? `${outcome.tests.passed}/${outcome.tests.total} tests passed` : 'ran without error (no tests given)'} in the sandbox` : `not fixed${outcome?.error ? `: ${outcome.error.kind} error` : ''}`) : undefined],
        ['error', progress?.error?.message],
      ]),
    });
  },
};

/** `✓ 3/3 tests · def add(a, b):`, `✗ 2/3 tests · test failed: line 2: assert add(2, 2) == 4 failed`. */
function attemptLabel(node: TreeNode<ConversationDelta>, attempt: Attempt | undefined, language: CodeLanguage | undefined): string {
  const answer = node.data.add[node.data.add.length - 1];
  const code = answer && language ? extractCode(messageText(answer), language).code : undefined;
  const start = code?.split('\n').find((l) => l.trim() && !/^\s*(#|\/\/|import |from )/.test(l))?.trim() ?? messageLabel(answer);
  const tests = attempt?.tests ? `${attempt.tests.passed}/${attempt.tests.total} tests` : undefined;
  const failed = attempt ? !attempt.ok : node.success === false;
  if (!failed) return attempt ? `✓ ${tests ?? 'ran without error'} · ${start}` : start;
  return `✗ ${tests ? `${tests} · ` : ''}${failureOf(node.feedback) ?? `${attempt?.kind ?? 'check'} failed`}`;
}

/** The failure the model was told about: the first `**What:** detail` line of the feedback. */
function failureOf(feedback: string): string | undefined {
  for (const line of feedback.split('\n')) {
    const m = /^\*\*([^*]+):\*\*\s*(.*)$/.exec(line.trim());
    if (m && !/^(Tests|Line \d+|Output Captured)$/.test(m[1])) return shorten(`${m[1].replace(/ Detected$/, '').toLowerCase()}: ${m[2]}`, 90);
  }
  return undefined;
}

function sandboxSays(attempt: Attempt | undefined): string | undefined {
  if (!attempt) return undefined;
  const tests = attempt.tests ? `${attempt.tests.passed}/${attempt.tests.total} tests passed` : 'no tests';
  return attempt.ok ? `passed (${tests})` : `${attempt.kind ?? 'failed'} error (${tests})`;
}
