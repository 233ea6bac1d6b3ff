import type { CodeFixerResult } from '../../../core/code/code-fixer-input';
import { plural } from '../../../core/runs/run-figures';
import { groveWorkflowBundle } from '../../../workers/workflow-bundle';
import { GroveClient } from '../../grove-client';
import { connectClient } from '../../../temporal/connect';
import { ensureModel } from '../../local/ensure-model';
import { ensureTemporal } from '../../local/ensure-temporal';
import { startLocalWorker } from '../../local/local-worker';
import { parseCommandArgs } from '../usage-error';
import { runAcrossRestart } from './demo-restart';
import { MODEL_TASK, SCRIPTED_TASK } from './demo-task';
import { outcomeLines, taskLines } from './demo-text';

/** How long a run waits for a stopped worker's cache before another worker takes it (Temporal's default: 10 s). */
const STICKY_TIMEOUT_MS = 1_000;

/**
 * `grove demo`: grove's main job, shown on one run. The code fixer asks the model for a function,
 * runs every answer with the tests in grove's sandbox — the tests decide, never the model — and
 * feeds failures back, growing a tree of attempts. Midway the worker is stopped and a new one
 * started: it rebuilds the run from its history and finishes it, and the model server's own
 * count shows that no call it had answered was asked again. Then the verdict, the code, the tree
 * and what was paid.
 *
 * @example
 * await demoCommand(['--scripted', '--exit'], { out: console.log });
 */
export async function demoCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('demo', args, { keep: { type: 'boolean' }, exit: { type: 'boolean' }, scripted: { type: 'boolean' } });
  const began = Date.now();
  const taskQueue = `grove-demo`;
  // Side by side: the dev server starts while the model loads (a few seconds each on 2 cores).
  const [temporal, model] = await Promise.all([ensureTemporal({ log: io.out }), ensureModel({ log: io.out, scripted: values.scripted })]);
  const task = model.scripted ? SCRIPTED_TASK : MODEL_TASK;
  // grove's own model server learns each request's call key, so it can tell a call asked again.
  const llm = model.server ? { ...model.llm, sendCallKey: true } : model.llm;
  const workflowBundle = await groveWorkflowBundle();
  const startWorker = (n: number) =>
    startLocalWorker({ settings: temporal.settings, llm, taskQueue, workflowBundle, workerOptions: { identity: `grove-demo-worker-${n}@${process.pid}`, stickyQueueScheduleToStartTimeout: STICKY_TIMEOUT_MS } });
  let worker = await startWorker(1);
  const grove = new GroveClient(await connectClient(temporal.settings), taskQueue, temporal.settings);
  try {
    const input = task.input;
    io.out(`\n${taskLines(input, task.stopAfterCalls).join('\n')}\n`);
    const workflowId = `code-fixer-demo-${Date.now().toString(36)}`;
    const started = Date.now();
    const { result, restart } = await runAcrossRestart({
      start: () => grove.start('code-fixer', input, { workflowId }),
      workflowId,
      server: model.server,
      model: input.model ?? llm.defaultModel,
      afterCalls: task.stopAfterCalls,
      stopWorker: () => worker.stop(),
      startWorker: async () => {
        worker = await startWorker(2);
      },
    });
    const fixed = result as CodeFixerResult & { modelCalls?: number };
    const seconds = (Date.now() - started) / 1000;
    io.out(outcomeLines(fixed, restart, { seconds, language: input.language, stopAfterCalls: task.stopAfterCalls }).join('\n'));
    if (!fixed.success && !model.scripted) {
      io.out(`The model did not pass the tests within ${plural(fixed.modelCalls ?? fixed.calls, 'model call')}: grove says so rather than pretending${model.kind === 'local' ? ' (a 135M-parameter model; set OPENAI_BASE_URL for a stronger one)' : ''}.`);
    }
    const link = grove.runUrl(workflowId);
    io.out(`\nworkflow: ${workflowId}`);
    if (link) io.out(`Temporal UI: ${link}`);
    io.out(`(the demo took ${((Date.now() - began) / 1000).toFixed(0)} s, of which the run ${seconds.toFixed(0)} s)`);
    const keep = values.keep || (!values.exit && process.stdin.isTTY);
    if (keep) {
      io.out('\nThe dev server, worker and UI stay up; Ctrl-C stops them.');
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    }
  } finally {
    await grove.close();
    await worker.stop();
    await model.stop();
    await temporal.stop();
  }
}
