import { performance } from 'node:perf_hooks';
import { benchQueue, historyOf, type BenchEnv } from '../lib/bench-env';
import { percentile, spread, type Benchmark, type Row } from '../lib/benchmark';

const QUESTIONS = Array.from({ length: 40 }, (_, i) => `Question ${i + 1}: what is ${i + 1} squared?`);

/**
 * Benchmark: steering a durable conversation. (1) What a rewind saves: a session of T turns is
 * rewound to the assistant message of turn k and continued for two turns, against re-running
 * the conversation from the start up to that point (what a replay-based "time travel" pays) —
 * model calls and wall time, with 200 ms per model call. (2) Update latency on the dev server:
 * `send` (model latency 0, so it is orchestration), `rewind`, `feedback`, `approve`, and the
 * `tree` query, round trip from the client. (3) History bytes per turn as a session grows.
 */
export const steering: Benchmark = {
  name: 'steering',
  title: 'Steering a session: rewind vs re-run, update latency, history per turn',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const queue = benchQueue('steering');
    const worker = await env.worker(queue);
    const grove = env.grove(queue);
    const turns = env.quick ? 6 : 10;
    const reps = env.quick ? 10 : 30;
    const rewindRows: Row[] = [];
    const latencyRows: Row[] = [];
    const historyRows: Row[] = [];
    const data: Record<string, unknown> = {};
    const callsOf = (id: string) => env.model.stats().requests.filter((r) => r.callKey?.startsWith(`${id}/`) && r.outcome === 'completed').length;

    await worker.runUntil(async () => {
      // (1) Rewind vs re-run, 200 ms per model call.
      env.model.clearFaults();
      env.model.addFault({ action: { kind: 'latency', ms: 200 }, times: 0 });
      for (const k of [Math.ceil(turns / 2), turns - 1]) {
        const id = `${queue}-rewind-${k}`;
        const chat = grove.session(id, { input: { model: 'concierge' }, by: 'bench' });
        for (const q of QUESTIONS.slice(0, turns)) await chat.send(q);
        const before = callsOf(id);
        let t0 = performance.now();
        await chat.rewind({ n: k, content: `Answer ${k}, corrected.` });
        const rewindMs = performance.now() - t0;
        t0 = performance.now();
        await chat.send('And the next one?');
        await chat.send('What did you just say?');
        const continueMs = performance.now() - t0;
        const rewindCalls = callsOf(id) - before;
        await chat.close();

        // The alternative: a new conversation re-sending turns 1..k (its turn k answer is then replaced by hand), then the same two turns.
        const rerunId = `${queue}-rerun-${k}`;
        const rerun = grove.session(rerunId, { input: { model: 'concierge' }, by: 'bench' });
        t0 = performance.now();
        for (const q of QUESTIONS.slice(0, k)) await rerun.send(q);
        await rerun.rewind({ n: k, content: `Answer ${k}, corrected.` });
        await rerun.send('And the next one?');
        await rerun.send('What did you just say?');
        const rerunMs = performance.now() - t0;
        const rerunCalls = callsOf(rerunId);
        await rerun.close();
        rewindRows.push({
          'session turns': turns,
          'rewound to turn': k,
          'rewind: model calls': rewindCalls,
          're-run: model calls': rerunCalls,
          'calls saved': rerunCalls - rewindCalls,
          'rewind update ms': Math.round(rewindMs),
          'rewind + 2 turns ms': Math.round(rewindMs + continueMs),
          're-run ms': Math.round(rerunMs),
        });
      }
      data.rewind = rewindRows;

      // (2) Update latency, model latency 0.
      env.model.clearFaults();
      const chat = grove.session(`${queue}-latency`, { input: { model: 'concierge' }, by: 'bench' });
      const time = async (fn: () => Promise<unknown>) => {
        const t0 = performance.now();
        await fn();
        return performance.now() - t0;
      };
      const samples: Record<string, number[]> = { 'send (update-with-start, first)': [], send: [], rewind: [], feedback: [], 'tree query': [] };
      samples['send (update-with-start, first)'].push(await time(() => chat.send('Hello')));
      for (let i = 0; i < reps; i++) {
        samples.send.push(await time(() => chat.send(QUESTIONS[i % QUESTIONS.length])));
        samples.rewind.push(await time(() => chat.rewind({ n: -1, content: `Rewritten ${i}.` })));
        samples.feedback.push(await time(() => chat.feedback({ text: `Note ${i}.` })));
        samples['tree query'].push(await time(() => chat.tree()));
      }
      await chat.close();
      for (const [name, values] of Object.entries(samples)) {
        latencyRows.push({ update: name, n: values.length, 'median ms': spread(values, 1).median, 'p95 ms': Number(percentile(values, 95).toFixed(1)) });
      }
      data.latency = samples;

      // (3) History per turn.
      const longId = `${queue}-history`;
      const long = grove.session(longId, { input: { model: 'concierge' }, by: 'bench' });
      const marks = env.quick ? [10, 20] : [10, 20, 40];
      let previous = { turns: 0, bytes: 0 };
      for (let t = 1; t <= marks[marks.length - 1]; t++) {
        await long.send(QUESTIONS[(t - 1) % QUESTIONS.length]);
        if (!marks.includes(t)) continue;
        const { bytes, events } = await historyOf(env.client, longId);
        historyRows.push({ turns: t, 'history KB': Math.round(bytes / 1024), events, 'bytes per turn since last mark': Math.round((bytes - previous.bytes) / (t - previous.turns)) });
        previous = { turns: t, bytes };
      }
      await long.close();
      data.history = historyRows;
    });
    env.model.clearFaults();
    return {
      tables: [
        { title: 'What a rewind saves: rewind to turn k and go on for 2 turns, vs re-running turns 1..k (200 ms per model call)', rows: rewindRows },
        { title: `Update round trips on the dev server (model latency 0), ${reps} each`, rows: latencyRows },
        { title: 'History of a session as it grows (references, not conversations, in activity inputs)', rows: historyRows },
      ],
      data,
      notes: [
        'A rewind makes no model call: the kept prefix is already in the store and in the path records; only the turns after it are paid.',
        'Re-running pays again for every turn up to the rewind point (what replay-based time travel does).',
      ],
    };
  },
};
