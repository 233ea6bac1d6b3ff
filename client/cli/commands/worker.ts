import { runWorkerProcess } from '../../../workers/main';
import { parseCommandArgs } from '../usage-error';
import { MCP_OPTIONS, mcpServersFromFlags } from './mcp-flags';

export async function workerCommand(args: string[]): Promise<void> {
  const { values } = parseCommandArgs('worker', args, {
    'task-queue': { type: 'string' },
    module: { type: 'string' },
    identity: { type: 'string' },
    'tools-only': { type: 'boolean' },
    ...MCP_OPTIONS,
  });
  const mcpServers = mcpServersFromFlags('worker', values);
  await runWorkerProcess(
    {
      ...process.env,
      ...(values['task-queue'] ? { GROVE_TASK_QUEUE: values['task-queue'] } : {}),
      ...(values.module ? { GROVE_WORKER_MODULE: values.module } : {}),
      ...(values.identity ? { GROVE_WORKER_IDENTITY: values.identity } : {}),
      ...(values['tools-only'] ? { GROVE_WORKER_WORKFLOWS: '0' } : {}),
    },
    { mcpServers },
  );
}
