import { runWorkerProcess } from '../../../workers/main';
import { parseCommandArgs } from '../usage-error';

export const WORKER_HELP = `grove worker [--task-queue NAME]
  Runs a grove worker against TEMPORAL_ADDRESS (or the local dev server) until Ctrl-C.`;

export async function workerCommand(args: string[]): Promise<void> {
  const { values } = parseCommandArgs('worker', args, { 'task-queue': { type: 'string' } });
  await runWorkerProcess({ ...process.env, ...(values['task-queue'] ? { GROVE_TASK_QUEUE: values['task-queue'] } : {}) });
}
