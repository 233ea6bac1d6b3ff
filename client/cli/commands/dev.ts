import { readRegistry } from '../../../activities/registry/registry-store';
import { openStore } from '../../../activities/store/open-store';
import { formatDifferences, parseIdentity, registryDifferences, type RegistryDescription } from '../../../core/fleet/registry';
import { watchQueue, type SeenWorker } from '../../../temporal/fleet/watch-queue';
import { ensureModel } from '../../local/ensure-model';
import { ensureStore } from '../../local/ensure-store';
import { ensureTemporal } from '../../local/ensure-temporal';
import { startLocalWorker } from '../../local/local-worker';
import { connectClient } from '../../../temporal/connect';
import { parseCommandArgs, UsageError } from '../usage-error';
import { describeSandbox } from '../../../activities/sandbox/sandbox-layers';
import { MCP_OPTIONS, mcpServersFromFlags } from './mcp-flags';

/** How often `grove dev` looks for other workers on its queue. */
const WATCH_MS = 5_000;

export async function devCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('dev', args, {
    'task-queue': { type: 'string' },
    store: { type: 'string' },
    scripted: { type: 'boolean' },
    'no-worker': { type: 'boolean' },
    ...MCP_OPTIONS,
  });
  const mcpServers = mcpServersFromFlags('dev', values);
  if (values['no-worker'] && Object.keys(mcpServers).length > 0) throw new UsageError('dev: --mcp serves MCP tools on grove dev\'s own worker; with --no-worker there is none (give --mcp to your worker)');
  const taskQueue = values['task-queue'] ?? process.env.GROVE_TASK_QUEUE ?? 'grove';
  const kind = values.store ?? 'folder';
  if (kind !== 'folder' && kind !== 'postgres') throw new UsageError(`dev: --store must be "folder" or "postgres", got "${kind}"`);
  const store = await ensureStore(kind, { log: io.out });
  const temporal = await ensureTemporal({ log: io.out, supervise: true });
  const model = await ensureModel({ log: io.out, scripted: values.scripted });
  const worker = values['no-worker'] ? undefined : await startLocalWorker({ settings: temporal.settings, llm: model.llm, taskQueue, store: store.settings, mcpServers });
  const ui = temporal.settings.uiUrl ? `; Temporal UI at ${temporal.settings.uiUrl}` : '';
  if (worker) io.out(`grove dev: worker on task queue "${taskQueue}"${ui}`);
  else io.out(`grove dev: no worker of its own (--no-worker): runs on task queue "${taskQueue}" wait for yours${ui}`);
  io.out(`grove dev: ${describeSandbox()}`);
  if (worker && worker.mcpTools.length > 0) io.out(`grove dev: serving MCP tools ${worker.mcpTools.join(', ')}`);
  io.out('grove dev: try `npx grove run generate --prompt "Say hi!"` in another terminal; Ctrl-C stops');

  // Other workers on the queue: runs started there use their tools, so say so (once per worker).
  const client = await connectClient(temporal.settings);
  const registries = openStore(store.settings);
  const own = worker && { worker: parseIdentity(worker.worker.options.identity).worker, fingerprint: worker.registry.fingerprint, description: worker.registry };
  const watch = watchQueue({
    service: client.workflowService,
    namespace: temporal.settings.namespace,
    queue: taskQueue,
    describe: (fp) => readRegistry(registries, fp),
    ignore: (w) => w.identity === worker?.worker.options.identity,
    key: (w) => w.identity,
    intervalMs: WATCH_MS,
    onNew: (other) => io.out(describeOtherWorker(taskQueue, other, own)),
  });
  watch.start();

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.out('grove dev: stopping');
  watch.stop();
  await worker?.stop();
  await registries.close().catch(() => {});
  await client.connection.close().catch(() => {});
  await model.stop();
  await temporal.stop();
  await store.stop();
}

/**
 * What `grove dev` says of another worker on its queue: with a worker of its own, whether the
 * two serve the same tools (and what differs) and how to leave the queue to the other one.
 *
 * @example
 * describeOtherWorker('grove', other, { worker: '4242@host', fingerprint, description })
 * // 'grove dev: worker user-worker also polls task queue "grove" with other tools (registry 9a8b…): tool multiply differs (…). …'
 */
export function describeOtherWorker(
  queue: string,
  other: SeenWorker,
  own?: { worker: string; fingerprint?: string; description?: RegistryDescription },
): string {
  const head = `grove dev: worker ${other.worker} ${own ? 'also polls' : 'polls'} task queue "${queue}"`;
  if (!other.fingerprint) return `${head} without a grove registry (no GrovePlugin, or an older grove): grove cannot tell which tools it serves`;
  if (!own) return `${head} (registry ${other.fingerprint})`;
  if (other.fingerprint === own.fingerprint) return `${head} with the same tools and evaluators as this one (registry ${other.fingerprint}): runs may go to either`;
  const what =
    other.description && own.description
      ? formatDifferences(registryDifferences(own.description.entries, other.description.entries), 'this worker', other.worker)
      : 'the store does not say how';
  return (
    `${head} with other tools (registry ${other.fingerprint}, this worker's ${own.fingerprint}): ${what}. ` +
    `Each run uses the tools of the worker that starts it (or the registry its input pins); to leave the queue to ${other.worker}, restart with \`grove dev --no-worker\``
  );
}
