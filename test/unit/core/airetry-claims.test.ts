import { createGroveActivities } from '../../../activities/grove-activities';
import { inProcessCallPort } from '../../../activities/in-process/ports';
import { llmConfigFromEnv } from '../../../activities/llm/llm-config';
import { MemoryMessageStore } from '../../../activities/store/memory-message-store';
import { answerText, type JudgeRunner } from '../../../core/airetry/checks';
import { callResult, type CheckOutcome } from '../../../core/airetry/check-claims';
import { callFromInput, runChecks } from '../../../core/airetry/ready-made';
import { sha256Hex } from '../../../core/hash/sha256';
import { seededRandom } from '../../../core/random';
import { AiretryInputSchema, type AiretryInput, type AiretryResult } from '../../../core/airetry/airetry-input';
import { recheckAiretry } from '../../../core/verdicts/recheck-airetry';
import { inProcessOpenAI } from '../../../model-server';

/**
 * Every claim a ready-made airetry result makes is about the answer it returns. Over many seeds
 * and system prompts, for the three kinds (generate, extract, classify) with several checks each
 * (regex, jsonSchema, maxWords, lowercase, startsWith, oneOf, equals, llmJudge), every
 * deterministic check is recomputed on the returned answer by an oracle written here (not
 * grove's check code), and by `recheckAiretry` (what `grove verify` runs): 0 mismatches. The
 * single pass that the patch replaced is run too, to show the property has teeth.
 */
const COLOR = 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only';
const SENTENCES = ['I just ate a delicious and juicy apple.', 'I am eating a crunchy bread.', 'We had a warm and spicy curry.', 'She loved the sweet ripe mango.'];
const SEEDS = Array.from({ length: 60 }, (_, i) => i);

type Case = { name: string; input: (seed: number) => AiretryInput; oracle: Record<string, (answer: string) => boolean> };

const system = (seed: number) => `Act as a helpful AI assistant (run s4a-airetry-${String(seed).padStart(3, '0')})`;

const CASES: Case[] = [
  {
    name: 'generate: the color game, the seeds order',
    input: (seed) => ({ prompt: COLOR, system: system(seed), model: 'color-guesser', config: { nSamples: 2 }, apiKwargs: { n: 2 }, seed,
      checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y' }] }),
    oracle: {
      'maxWords#0': (a) => a.trim().split(/\s+/).filter(Boolean).length <= 1,
      'lowercase#1': (a) => a.trim() === a.trim().toLowerCase(),
      'startsWith#2': (a) => a.trim().toLowerCase().startsWith('y'),
    },
  },
  {
    name: 'generate: the color game, a regex first, lowercase last, one sample per round',
    input: (seed) => ({ prompt: COLOR, system: system(seed), model: 'color-guesser', seed: seed + 1000, config: { maxCalls: 12 },
      checks: [{ kind: 'regex', pattern: '^[A-Za-z]+$' }, { kind: 'startsWith', value: 'y' }, { kind: 'oneOf', choices: ['yellow', 'blue', 'red'], caseSensitive: true }, { kind: 'lowercase' }] }),
    oracle: {
      'regex#0': (a) => /^[A-Za-z]+$/.test(a.trim()),
      'startsWith#1': (a) => a.trim().toLowerCase().startsWith('y'),
      'oneOf#2': (a) => ['yellow', 'blue', 'red'].includes(a.trim()),
      'lowercase#3': (a) => a.trim() === a.trim().toLowerCase(),
    },
  },
  {
    name: 'generate: an LLM judge between deterministic checks',
    input: (seed) => ({ prompt: COLOR, system: system(seed), model: 'color-guesser', config: { nSamples: 2 }, apiKwargs: { n: 2 }, seed,
      checks: [{ kind: 'maxWords', max: 1 }, { kind: 'llmJudge', question: 'Is it a warm color?' }, { kind: 'lowercase' }] }),
    oracle: {
      'maxWords#0': (a) => a.trim().split(/\s+/).filter(Boolean).length <= 1,
      'llmJudge#1': (a) => judgeSays(a),
      'lowercase#2': (a) => a.trim() === a.trim().toLowerCase(),
    },
  },
  {
    name: 'extract: food as JSON, a jsonSchema check and a regex',
    input: (seed) => ({ prompt: SENTENCES[seed % SENTENCES.length]!, system: system(seed), model: 'food-extractor', kind: 'extract', seed,
      schema: { type: 'object', properties: { name: { type: 'string' }, adjectives: { type: 'array', items: { type: 'string' } } }, required: ['name'] },
      checks: [
        { kind: 'jsonSchema', schema: { type: 'object', properties: { adjectives: { type: 'array', minItems: 2 } }, required: ['adjectives'] } },
        { kind: 'regex', pattern: '"name"\\s*:\\s*"[a-z]+"' },
      ] }),
    oracle: {
      'jsonSchema#0': (a) => {
        try {
          const v = JSON.parse(a.trim()) as { adjectives?: unknown };
          return Array.isArray(v.adjectives) && v.adjectives.length >= 2;
        } catch {
          return false;
        }
      },
      'regex#1': (a) => /"name"\s*:\s*"[a-z]+"/.test(a.trim()),
    },
  },
  {
    name: 'classify: a noisy classifier, a regex and an equals',
    input: (seed) => ({ prompt: `Is "yellow" a color? (${system(seed)})`, model: 'classifier?p=0.6', kind: 'classify', choices: ['yes', 'no', 'maybe'], seed, config: { maxCalls: 6 },
      checks: [{ kind: 'regex', pattern: '^(yes|maybe)$' }, { kind: 'equals', value: 'yes' }] }),
    oracle: {
      'regex#0': (a) => /^(yes|maybe)$/.test(a.trim()),
      'equals#1': (a) => a.trim().toLowerCase() === 'yes',
    },
  },
];

/** A deterministic stand-in judge: "warm" colors pass. It sees only the answer, as a real judge would. */
function judgeSays(answer: string): boolean {
  return /yellow|red/i.test(answer);
}
const judge: JudgeRunner = async (call) => judgeSays(answerText(call));

async function runCase(c: Case, seed: number, sweep: boolean) {
  const activities = createGroveActivities({
    llm: llmConfigFromEnv({}, { baseURL: 'http://in-process/v1', apiKey: 'k', defaultModel: 'assistant' }),
    store: new MemoryMessageStore(),
    client: inProcessOpenAI({ seed: seed % 7 }),
  });
  const input = AiretryInputSchema.parse(c.input(seed));
  const call = callFromInput(input, inProcessCallPort(activities), seededRandom(input.seed ?? 0));
  const checks = await runChecks(call, input, judge, undefined, { verifiedChecks: sweep });
  const result: AiretryResult = { ...callResult(call, checks), treeText: '' };
  return { input, result, answer: answerText(call) };
}

/** Claims that do not hold of the returned answer, by the oracle. */
function mismatches(c: Case, result: AiretryResult, answer: string): string[] {
  const wrong: string[] = [];
  for (const outcome of result.checks as CheckOutcome[]) {
    const truth = c.oracle[outcome.name]!(answer);
    if (outcome.passed !== truth) wrong.push(`${outcome.name} claims ${outcome.passed} on ${JSON.stringify(answer)}`);
    if (outcome.sampleId !== result.activeSampleId || outcome.outputSha256 !== sha256Hex(answer)) wrong.push(`${outcome.name}: evidence of another answer`);
  }
  if (result.success !== Object.values(c.oracle).every((f) => f(answer))) wrong.push(`success ${result.success} on ${JSON.stringify(answer)}`);
  return wrong;
}

test.each(CASES.map((c) => [c.name, c] as const))('%s: every claim holds of the returned answer (60 seeds and system prompts)', async (_name, c) => {
  const wrong: string[] = [];
  let succeeded = 0;
  for (const seed of SEEDS) {
    const { input, result, answer } = await runCase(c, seed, true);
    wrong.push(...mismatches(c, result, answer).map((w) => `seed ${seed}: ${w}`));
    // What grove verify recomputes from the stored result agrees.
    const failing = recheckAiretry(input, result).filter((claim) => claim.holds === false);
    wrong.push(...failing.map((f) => `seed ${seed}: grove verify: ${f.claim} (${f.detail})`));
    if (result.success) succeeded++;
  }
  expect(wrong).toEqual([]);
  process.stderr.write(`airetry claims, ${c.name}: 0 mismatches in ${SEEDS.length} runs (${succeeded} succeeded)\n`);
});

test('the single pass (runs recorded before the patch) returns answers earlier checks never saw: the property catches it', async () => {
  const c = CASES[0]!;
  let caught = 0;
  for (const seed of SEEDS) {
    const { input, result, answer } = await runCase(c, seed, false);
    // The claims the single pass reported itself (each check at the time of its round) against the truth.
    const roundClaims = await runChecksAsRecorded(input, seed);
    if (Object.entries(roundClaims).some(([name, passed]) => passed !== c.oracle[name]!(answer))) caught++;
    // The result it now returns still claims only what holds of its answer.
    expect(mismatches(c, result, answer)).toEqual([]);
  }
  expect(caught).toBeGreaterThan(0);
  process.stderr.write(`single pass: ${caught} of ${SEEDS.length} runs returned an answer an earlier check had not seen\n`);
});

/** What the single pass claimed at the end of each check's round (as results recorded before the patch said). */
async function runChecksAsRecorded(input: ReturnType<typeof AiretryInputSchema.parse>, seed: number): Promise<Record<string, boolean>> {
  const activities = createGroveActivities({
    llm: llmConfigFromEnv({}, { baseURL: 'http://in-process/v1', apiKey: 'k', defaultModel: 'assistant' }),
    store: new MemoryMessageStore(),
    client: inProcessOpenAI({ seed: seed % 7 }),
  });
  const call = callFromInput(input, inProcessCallPort(activities), seededRandom(input.seed ?? 0));
  const claimed: Record<string, boolean> = {};
  await runChecks(call, input, judge, (progress) => {
    for (const p of progress) claimed[p.name] = p.passed;
  }, { verifiedChecks: false });
  return claimed;
}
