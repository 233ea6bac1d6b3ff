import { runWorkerProcess } from '../../../workers/main';
import { parseCommandArgs } from '../usage-error';

export async function workerCommand(args: string[]): Promise<void> {
  const { values } = parseCommandArgs('worker', args, { 'task-queue': { type: 'string' }, module: { type: 'string' } });
  await runWorkerProcess({
    ...process.env,
    ...(values['task-queue'] ? { GROVE_TASK_QUEUE: values['task-queue'] } : {}),
    ...(values.module ? { GROVE_WORKER_MODULE: values.module } : {}),
  });
}
