import { runWorkerProcess } from '../../../workers/main';
import { parseCommandArgs } from '../usage-error';

export const WORKER_HELP = `grove worker [--task-queue NAME] [--module FILE]
  Runs a grove worker against TEMPORAL_ADDRESS (or the local dev server) until Ctrl-C. --module
  names a file exporting \`tools\` and \`evaluators\` to serve (e.g. examples/worker-module.ts).`;

export async function workerCommand(args: string[]): Promise<void> {
  const { values } = parseCommandArgs('worker', args, { 'task-queue': { type: 'string' }, module: { type: 'string' } });
  await runWorkerProcess({
    ...process.env,
    ...(values['task-queue'] ? { GROVE_TASK_QUEUE: values['task-queue'] } : {}),
    ...(values.module ? { GROVE_WORKER_MODULE: values.module } : {}),
  });
}
