import { answerText } from '../../../core/airetry/checks';
import { callResult } from '../../../core/airetry/check-claims';
import { callFromInput, runChecks } from '../../../core/airetry/ready-made';
import { withArrayItems } from '../../../core/airetry/schema-arrays';
import { zodFromJsonSchema } from '../../../core/airetry/schema-patterns';
import type { AICallPort } from '../../../core/airetry/ports';
import { messageRef } from '../../../core/hash/refs';
import { sha256Hex } from '../../../core/hash/sha256';
import { seededRandom } from '../../../core/random';
import { AiretryInputSchema, type AiretryResult } from '../../../core/airetry/airetry-input';
import { describeVerdict, isVerifiedSuccess, whoDecided } from '../../../core/verdicts/describe-verdict';
import { recheckAiretry } from '../../../core/verdicts/recheck-airetry';
import { recheckAgent, recheckCodeFixer } from '../../../core/verdicts/recheck-agent';
import { callSummary } from '../../../core/airetry/ai-call';
import type { CodeFixerResult } from '../../../core/code/code-fixer-input';
import type { AgentResult } from '../../../core/agents/agent-result';
import { assistantMessage, userMessage } from '../../../core/schemas/messages';
import { evaluatorVerdict, judgeVerdict } from '../../../core/verdicts/verdict';

/** A port whose model answers from a list, in order. */
function listPort(answers: string[]): AICallPort {
  let i = 0;
  return {
    async chat(_refs, _path, request) {
      const choices = Array.from({ length: request.params?.n ?? 1 }, (_, k) => {
        const message = { role: 'assistant' as const, content: answers[Math.min(i++, answers.length - 1)]!, runId: request.runId, sampleId: k };
        return { message, ref: messageRef(message), finishReason: 'stop' };
      });
      return { choices, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, model: 'scripted' };
    },
    sleep: async () => {},
  };
}

async function run(raw: unknown, answers: string[]) {
  const input = AiretryInputSchema.parse(raw);
  const call = callFromInput(input, listPort(answers), seededRandom(1));
  const checks = await runChecks(call, input, async (c) => /yellow/.test(answerText(c)));
  const result: AiretryResult = { ...callResult(call, checks), treeText: '' };
  return { input, result };
}

const COLOR = { prompt: 'Pick a color.', checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }] };

describe('recheckAiretry (grove verify)', () => {
  test('a run whose later check slipped in an answer an earlier check never saw: swept until the answer passes every check', async () => {
    // "blue" fails startsWith; the retry answers "Yellow" (passes startsWith, fails lowercase); then "yellow".
    const { input, result } = await run(COLOR, ['blue', 'Yellow', 'yellow']);
    expect(result.output).toBe('yellow');
    expect(result.success).toBe(true);
    expect(recheckAiretry(input, result).every((c) => c.holds === true)).toBe(true);
  });

  test('a false claim is named: the returned "Yellow" does not pass lowercase', async () => {
    const { input, result } = await run(COLOR, ['Yellow']);
    expect(result.success).toBe(false); // claims are about "Yellow" and say so
    const forged: AiretryResult = { ...result, success: true, checks: result.checks.map((c) => ({ ...c, passed: true })) };
    const failing = recheckAiretry(input, forged).filter((c) => c.holds === false);
    expect(failing.map((c) => c.claim)).toEqual(['lowercase#1 passed', 'success: true']);
    expect(failing[0]!.detail).toBe(`lowercase on sample ${result.activeSampleId}'s answer "Yellow": fails`);
  });

  test('a result from before grove recorded evidence is re-checked on its returned answer all the same', async () => {
    const { input, result } = await run(COLOR, ['Yellow']);
    const legacy = { ...result, verdict: undefined, success: true, checks: result.checks.map(({ name }) => ({ name, passed: true })) } as AiretryResult;
    expect(recheckAiretry(input, legacy).filter((c) => c.holds === false).map((c) => c.claim)).toEqual(['lowercase#1 passed', 'success: true']);
  });

  test('evidence of another answer: a claim checked on another sample, or on other text, does not hold', async () => {
    const { input, result } = await run(COLOR, ['blue', 'yellow']);
    const otherSample = { ...result, checks: result.checks.map((c, i) => (i === 0 ? { ...c, sampleId: 1 } : c)) };
    expect(recheckAiretry(input, otherSample).find((c) => c.holds === false)?.detail).toBe(`it was checked on sample 1, not on the returned sample ${result.activeSampleId}`);
    const otherText = { ...result, checks: result.checks.map((c, i) => (i === 2 ? { ...c, outputSha256: sha256Hex('blue') } : c)) };
    expect(recheckAiretry(input, otherText).find((c) => c.holds === false)?.claim).toBe('startsWith#2 passed');
  });

  test('an output that is not the returned answer, a conversation of another sample: named', async () => {
    const { input, result } = await run(COLOR, ['blue', 'yellow']);
    const failing = recheckAiretry(input, { ...result, output: 'YELLOW', conversation: result.conversation.slice(0, 2) }).filter((c) => c.holds === false);
    expect(failing.map((c) => c.claim)).toEqual(["conversation is the returned sample's", 'output is parsed from that answer']);
  });

  test('an llmJudge check is listed as not recomputable, with its judge; the verdict is not verified', async () => {
    const { input, result } = await run({ ...COLOR, model: 'm', checks: [{ kind: 'llmJudge', question: 'Is it yellow?', model: 'judge-1' }, { kind: 'lowercase' }] }, ['yellow']);
    expect(result.verdict).toEqual({ by: 'checks', verified: false, judges: [{ model: 'judge-1', selfJudged: false, check: 'llmJudge#0' }] });
    const claims = recheckAiretry(input, result);
    expect(claims.find((c) => c.claim === 'llmJudge#0 passed')).toEqual({ claim: 'llmJudge#0 passed', holds: null, detail: "judged by judge-1: a model's opinion, not recomputable" });
    expect(claims.every((c) => c.holds !== false)).toBe(true);
    // The tally counts the judge apart: its pass is as claimed, not recomputed.
    expect(claims.find((c) => c.claim === 'success: true')?.detail).toBe('1 of 1 deterministic checks pass on the returned answer; 1 of 1 LLM-judge checks passed as claimed (not recomputable)');
  });

  test('extract: the stored output must be what the answer parses to', async () => {
    const raw = { prompt: 'Extract.', kind: 'extract', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, checks: [{ kind: 'regex', pattern: 'apple' }] };
    const { input, result } = await run(raw, ['{"name":"apple"}']);
    expect(recheckAiretry(input, result).every((c) => c.holds === true)).toBe(true);
    expect(recheckAiretry(input, { ...result, output: { name: 'pear' } }).filter((c) => c.holds === false).map((c) => c.claim)).toEqual(['output is parsed from that answer']);
  });

  test('extract: an answer that never parsed to the schema is no success, whatever the checks say; grove verify agrees', async () => {
    const raw = { prompt: 'Extract.', kind: 'extract', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'approved'] }, config: { maxRetries: 1, maxCalls: 2 }, checks: [{ kind: 'contains', value: '{' }] };
    const { input, result } = await run(raw, ['{"a":"give json"}', '{"a":"give json"}']);
    expect([result.output, result.success]).toEqual([undefined, false]);
    const claims = recheckAiretry(input, result);
    expect(claims.every((c) => c.holds !== false)).toBe(true);
    // No tick for an output that does not exist: the claim says there is none, and why.
    expect(claims.map((c) => c.claim)).not.toContain('output is parsed from that answer');
    expect(claims.find((c) => c.claim.startsWith('no output'))).toMatchObject({ claim: 'no output: the answer does not parse to the extract schema', holds: true });
    // A forged success is named.
    expect(recheckAiretry(input, { ...result, success: true }).find((c) => c.holds === false)?.detail).toMatch(/does not match the extract schema/);
  });
});

describe('JSON Schema array bounds', () => {
  test('minItems, maxItems and uniqueItems hold on an array without items (zod alone ignores them)', () => {
    expect(withArrayItems({ type: 'object', properties: { a: { type: 'array', minItems: 2 } } })).toEqual({ type: 'object', properties: { a: { type: 'array', minItems: 2, items: {} } } });
    expect(zodFromJsonSchema({ type: 'array', minItems: 2 }).safeParse(['a']).success).toBe(false);
    expect(zodFromJsonSchema({ type: 'array', maxItems: 1 }).safeParse(['a', 'b']).success).toBe(false);
    expect(zodFromJsonSchema({ type: 'array', minItems: 2 }, 'linear', false, false).safeParse(['a']).success).toBe(true); // runs recorded before
    expect(withArrayItems({ const: { type: 'array' } })).toEqual({ const: { type: 'array' } }); // data is not a schema
  });
});

describe('verdicts in words', () => {
  const claim = (ok: boolean) => ({ ok, yes: 'solved', no: 'not solved' });
  test('a self-judged "solved" says who judged and that it is not verified; never a bare "solved"', () => {
    const self = judgeVerdict({ answer: 'smollm2', judge: 'smollm2' });
    expect(self).toEqual({ by: 'judge', model: 'smollm2', selfJudged: true, verified: false });
    expect(describeVerdict(self, claim(true))).toBe('judged solved by smollm2, the model that wrote it; not verified');
    expect(describeVerdict(judgeVerdict({ answer: 'small', judge: 'big' }), claim(true))).toBe('judged solved by big; not verified');
    expect(describeVerdict(self, claim(false))).toBe('not solved (judged by smollm2, the model that wrote it)');
    expect(isVerifiedSuccess(true, self)).toBe(false);
  });

  test('self-judged by the models the provider reported, when the run named them not', () => {
    expect(judgeVerdict({ reportedAnswer: 'smollm2', reportedJudge: 'smollm2' })).toMatchObject({ model: 'smollm2', selfJudged: true });
    expect(judgeVerdict({ judge: 'gpt-x', reportedAnswer: 'smollm2', reportedJudge: 'gpt-x' })).toMatchObject({ selfJudged: false });
    expect(judgeVerdict({})).toMatchObject({ selfJudged: true }); // both the worker's default model
  });

  test('tests, checks and custom evaluators decide verified verdicts', () => {
    expect(evaluatorVerdict('code-tests')).toEqual({ by: 'tests', evaluator: 'code-tests', verified: true });
    expect(describeVerdict(evaluatorVerdict('multiplication-checker'), claim(true))).toBe('solved (by evaluator multiplication-checker)');
    expect(describeVerdict({ by: 'checks', verified: true }, { ok: true, yes: 'all checks passed', no: 'not all' })).toBe('all checks passed (by deterministic checks)');
    expect(describeVerdict(undefined, claim(true))).toBe('solved; who decided is not recorded (a run from before grove recorded it): not verified');
    expect(whoDecided({ by: 'checks', verified: false, judges: [{ model: 'm', selfJudged: true, check: 'llmJudge#0' }] })).toBe('decided by checks, 1 of them by an LLM judge; not verified');
  });
});

describe('recheckCodeFixer and recheckAgent (grove verify)', () => {
  const answer = '```python\ndef add(a, b):\n    return a + b\n```';
  async function fixerResult(outcome: CodeFixerResult['outcome'], success: boolean): Promise<CodeFixerResult> {
    const call = callFromInput(AiretryInputSchema.parse({ prompt: 'Write add.', checks: [{ kind: 'lowercase' }] }), listPort([answer]), seededRandom(1));
    await call.run();
    return { success, verdict: { by: 'tests', verified: true }, code: 'def add(a, b):\n    return a + b', outcome, attempts: [{ sampleId: call.activeSampleId, ok: outcome!.ok }], ...callSummary(call), treeText: '' };
  }
  const input = { prompt: 'Write add.', language: 'python', testCode: 'assert add(1, 2) == 3' };

  test('success must be "ran without error, every test passed, and the tests ran to their end"', async () => {
    const passed = await fixerResult({ ok: true, stdout: '', stderr: '', durationMs: 1, tests: { passed: 1, total: 1, completed: true }, layers: ['wasm'] }, true);
    const claims = recheckCodeFixer(input, passed);
    expect(claims.filter((c) => c.holds === false)).toEqual([]);
    expect(claims.find((c) => c.holds === null)?.detail).toBe('tests ran in the sandbox on a worker with wasm: grove verify does not run code (`grove exec` runs it locally)');
    const stopped = await fixerResult({ ok: true, stdout: '', stderr: '', durationMs: 1, tests: { passed: 1, total: 1, completed: false } }, true);
    expect(recheckCodeFixer(input, stopped).filter((c) => c.holds === false).map((c) => c.detail)).toEqual(['the chosen attempt: ran without error, 1/1 tests, stopped before their end']);
    expect(recheckCodeFixer(input, { ...passed, code: 'def add(a, b): return 0' }).filter((c) => c.holds === false).map((c) => c.claim)).toEqual(["code is the returned sample's"]);
  });

  test('an agent: a solution needs the threshold and a finished answer; the answer is the trajectory\'s; the judge is named', () => {
    const messages = [userMessage('What is 6 times 7?'), assistantMessage('The answer is 42.')];
    const result = {
      kind: 'agent', algorithm: 'greedy', messages, answer: 'The answer is 42.', score: 1, isSolution: true, bestNodeId: 1, nodes: 2,
      verdict: { by: 'judge', model: 'smollm2', selfJudged: true, verified: false }, stop: { kind: 'solved', message: '' },
      counters: { llmCalls: 2, toolRuns: 0, toolErrors: 0, evaluations: 1, reflections: 0, expansions: 1, steps: 1, handovers: 0 },
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, costUsd: 0, reflections: [], treeText: '',
    } as AgentResult;
    const agentInput = { algorithm: 'greedy', prompt: 'What is 6 times 7?', tools: ['final_answer'], evaluator: { name: 'llm' } };
    const claims = recheckAgent(agentInput, result);
    expect(claims.filter((c) => c.holds === false)).toEqual([]);
    expect(claims.find((c) => c.holds === null)?.detail).toBe("judged by smollm2, the model that wrote the answer: a model's opinion, not recomputable");
    const forged = recheckAgent(agentInput, { ...result, score: 0.4, answer: '41' });
    expect(forged.filter((c) => c.holds === false).map((c) => c.claim)).toEqual(["answer is the best trajectory's", 'isSolution: true']);
    expect(recheckAgent({ ...agentInput, evaluator: { name: 'checker' } }, result).find((c) => c.claim === 'verdict: by judge')?.holds).toBe(false);
  });
});

test('a code-tests verdict is verified only when every test passed: a threshold below 1 may call a partial pass solved, not verified', () => {
  expect(evaluatorVerdict('code-tests', {}, 1)).toEqual({ by: 'tests', evaluator: 'code-tests', verified: true });
  expect(evaluatorVerdict('code-tests', {}, 0.5).verified).toBe(false);
  expect(evaluatorVerdict('code-tests', {}, 0).verified).toBe(false);
  const claim = (ok: boolean) => ({ ok, yes: 'solved', no: 'not solved' });
  expect(describeVerdict(evaluatorVerdict('code-tests', {}, 0), claim(true))).toBe('solved (by tests: evaluator code-tests; not every test passed: not verified)');
  expect(isVerifiedSuccess(true, evaluatorVerdict('code-tests', {}, 0))).toBe(false);
});
