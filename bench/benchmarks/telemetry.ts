import { Client } from '@temporalio/client';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { telemetrySettingsFromEnv } from '../../activities/telemetry/otel-settings';
import { createGroveTelemetry } from '../../activities/telemetry/telemetry-registry';
import { GroveClient } from '../../client/grove-client';
import { groveClientInterceptors } from '../../temporal/telemetry-interceptors';
import { writeWorkflowBundle } from '../../workers/workflow-bundle';
import { startOtlpReceiver } from '../lib/otlp-receiver';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';
import { COLOR_GAME, QUICKSTART_MCTS } from './overhead';

const ROOT = join(__dirname, '..', '..');

/**
 * What OpenTelemetry costs a run: the same MCTS search and the same airetry run, on a worker
 * and client without telemetry and on a traced pair exporting spans and metrics by OTLP/HTTP
 * to a receiver on this host, alternated run by run. Also what loading grove costs with
 * telemetry off and on (a fresh process each).
 */
export const telemetry: Benchmark = {
  name: 'telemetry',
  title: 'OpenTelemetry overhead: runs without telemetry vs traced and measured (OTLP/HTTP to a local receiver)',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const reps = env.quick ? 5 : 11;
    const receiver = await startOtlpReceiver();
    const pipeline = createGroveTelemetry(telemetrySettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url })!);
    const tracedBundle = await writeWorkflowBundle(join(env.dir, 'bundle-traced.js'), { workflowsPath: join(__dirname, '..', 'workflows', 'index.ts'), tracing: true });
    const queues = { off: benchQueue('telemetry-off'), on: benchQueue('telemetry-on') };
    const off = await env.worker(queues.off);
    const on = await env.worker(queues.on, { bundlePath: tracedBundle.codePath, telemetry: pipeline });
    const clients = {
      off: env.grove(queues.off),
      on: new GroveClient(new Client({ connection: env.client.connection, interceptors: { workflow: groveClientInterceptors(pipeline) } }), queues.on),
    };
    const rows: Row[] = [];
    const data: Record<string, unknown>[] = [];
    try {
      await on.runUntil(
        off.runUntil(async () => {
          for (const workload of ['mcts', 'airetry'] as const) {
            const run = (mode: 'off' | 'on') => (workload === 'mcts' ? clients[mode].run('agent', QUICKSTART_MCTS) : clients[mode].run('airetry', COLOR_GAME));
            await run('off');
            await run('on'); // warm-up: bundles loaded, connections open
            await pipeline.forceFlush();
            const times: Record<'off' | 'on', number[]> = { off: [], on: [] };
            const spans0 = receiver.spans.length;
            const bytes0 = receiver.bodies.reduce((a, b) => a + b.length, 0);
            for (let rep = 0; rep < reps; rep++) {
              for (const mode of rep % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
                const t0 = performance.now();
                await run(mode);
                times[mode].push(performance.now() - t0);
              }
            }
            const t0 = performance.now();
            await pipeline.forceFlush();
            const flushMs = performance.now() - t0;
            const spansPerRun = (receiver.spans.length - spans0) / reps;
            const kbPerRun = (receiver.bodies.reduce((a, b) => a + b.length, 0) - bytes0) / reps / 1024;
            const a = spread(times.off, 0);
            const b = spread(times.on, 0);
            rows.push({
              workload: workload === 'mcts' ? 'MCTS quickstart' : 'airetry color game',
              'off ms': a.text,
              'on ms': b.text,
              'added ms (median)': Number((b.median - a.median).toFixed(0)),
              'added %': Number((((b.median - a.median) / a.median) * 100).toFixed(1)),
              'spans per run': spansPerRun,
              'KB exported per run': Number(kbPerRun.toFixed(1)),
              'final flush ms': Number(flushMs.toFixed(0)),
            });
            data.push({ workload, offMs: times.off, onMs: times.on, spansPerRun, kbPerRun, flushMs });
          }
        }),
      );
    } finally {
      await pipeline.shutdown();
      await receiver.close();
    }
    const load = loadCost(env.quick ? 3 : 5);
    rows.push({ workload: 'load grove + its pipeline (fresh process)', 'off ms': load.off.text, 'on ms': load.on.text, 'added ms (median)': Number((load.on.median - load.off.median).toFixed(0)) });
    return {
      tables: [{ title: `${this.title}; median (min–max) of ${reps} runs each, alternated`, rows }],
      data: { reps, runs: data, loadMs: load },
      notes: [
        'off = a worker and client as grove makes them when no OTEL_* endpoint is set: the workflow bundle without tracing interceptors, no activity interceptor, no sink, no OpenTelemetry package loaded.',
        'on = OTEL_EXPORTER_OTLP_ENDPOINT set: client and workflow interceptors, an activity span, a GenAI span per model call, tool run and evaluation, metrics; spans batched and sent by OTLP/HTTP (protobuf) to a receiver that decodes them, on the same 2 cores.',
        'Scripted model latency 0 ms: the whole of a run is orchestration, so the added share is the most tracing can add; with a real model it is a share of seconds per call.',
        'load = requiring grove\'s worker entry point and making its telemetry pipeline, in a fresh Node process (tsx), off vs on.',
      ],
    };
  },
};

/** Milliseconds to load grove's worker entry point and its pipeline in a fresh process, without and with an endpoint. */
function loadCost(reps: number) {
  const script = `const t0 = performance.now(); const w = require('./workers/index'); w.groveTelemetry(); process.stdout.write(String(performance.now() - t0));`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const time = (env: Record<string, string>) => Number(execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: ROOT, env: { ...clean, ...env }, encoding: 'utf8' }));
  const off: number[] = [];
  const on: number[] = [];
  for (let i = 0; i < reps; i++) {
    off.push(time({}));
    on.push(time({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }));
  }
  return { off: spread(off, 0), on: spread(on, 0) };
}
