import { ensureModel } from '../../local/ensure-model';
import { ensureStore } from '../../local/ensure-store';
import { ensureTemporal } from '../../local/ensure-temporal';
import { startLocalWorker } from '../../local/local-worker';
import { parseCommandArgs, UsageError } from '../usage-error';
import { describeSandbox } from '../../../activities/sandbox/sandbox-layers';
import { MCP_OPTIONS, mcpServersFromFlags } from './mcp-flags';

export async function devCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('dev', args, { 'task-queue': { type: 'string' }, store: { type: 'string' }, scripted: { type: 'boolean' }, ...MCP_OPTIONS });
  const mcpServers = mcpServersFromFlags('dev', values);
  const taskQueue = values['task-queue'] ?? process.env.GROVE_TASK_QUEUE ?? 'grove';
  const kind = values.store ?? 'folder';
  if (kind !== 'folder' && kind !== 'postgres') throw new UsageError(`dev: --store must be "folder" or "postgres", got "${kind}"`);
  const store = await ensureStore(kind, { log: io.out });
  const temporal = await ensureTemporal({ log: io.out, supervise: true });
  const model = await ensureModel({ log: io.out, scripted: values.scripted });
  const worker = await startLocalWorker({ settings: temporal.settings, llm: model.llm, taskQueue, store: store.settings, mcpServers });
  io.out(`grove dev: worker on task queue "${taskQueue}"${temporal.settings.uiUrl ? `; Temporal UI at ${temporal.settings.uiUrl}` : ''}`);
  io.out(`grove dev: ${describeSandbox()}`);
  if (worker.mcpTools.length > 0) io.out(`grove dev: serving MCP tools ${worker.mcpTools.join(', ')}`);
  io.out('grove dev: try `npx grove run generate --prompt "Say hi!"` in another terminal; Ctrl-C stops');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.out('grove dev: stopping');
  await worker.stop();
  await model.stop();
  await temporal.stop();
  await store.stop();
}
