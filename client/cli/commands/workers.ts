import { openStore, storeSettingsFromEnv } from '../../../activities/store/open-store';
import { readRegistry } from '../../../activities/registry/registry-store';
import type { MessageStore } from '../../../activities/store/message-store';
import type { RegistryEntry } from '../../../core/fleet/registry';
import { fleetReport, queueWorkers, type FleetReport } from '../../../temporal/fleet/queue-workers';
import { GroveClient } from '../../grove-client';
import { parseCommandArgs } from '../usage-error';

/** `grove workers [--task-queue Q] [--json]`: a queue's workers and whether their registries agree; exit 1 when they differ. */
export async function workersCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values } = parseCommandArgs('workers', args, { 'task-queue': { type: 'string' }, json: { type: 'boolean' } });
  const grove = await GroveClient.connect(values['task-queue'] ? { taskQueue: values['task-queue'] } : {});
  let store: MessageStore | undefined;
  try {
    // Workers publish their registries in the store: without it, fingerprints still tell whether they agree.
    store = openStore(storeSettingsFromEnv());
  } catch {
    store = undefined;
  }
  try {
    const workers = await queueWorkers(grove.temporal.workflowService, grove.temporal.options.namespace, grove.taskQueue);
    const report = await fleetReport(workers, async (fp) => (store ? readRegistry(store, fp) : undefined));
    if (values.json) io.out(JSON.stringify({ taskQueue: grove.taskQueue, ...report }));
    else for (const line of formatFleetReport(grove.taskQueue, report, Date.now())) io.out(line);
    return report.agree ? 0 : 1;
  } finally {
    await store?.close().catch(() => {});
    await grove.close();
  }
}

/**
 * A queue's workers as lines: a headline saying whether they agree, one line per worker (its
 * registry, what it serves, when it last polled), and one per pair of registries that differ.
 *
 * @example
 * formatFleetReport('grove', report, Date.now());
 * // ['task queue "grove": 2 workers, 2 registries: they differ', '  user-worker  registry 3fa9…  tools …', ...]
 */
export function formatFleetReport(queue: string, report: FleetReport, nowMs: number): string[] {
  const { workers, registries } = report;
  if (workers.length === 0) return [`no worker polls task queue "${queue}" (start one with \`grove dev\` or \`grove worker\`)`];
  const verdict = report.agree ? 'they agree' : 'they differ';
  const lines = [`task queue "${queue}": ${workers.length} worker${workers.length === 1 ? '' : 's'}, ${registries.length} registr${registries.length === 1 ? 'y' : 'ies'}${report.unregistered.length ? ` (${report.unregistered.length} without one)` : ''}: ${verdict}`];
  const width = Math.max(...workers.map((w) => w.worker.length));
  for (const w of workers) {
    const description = registries.find((r) => r.fingerprint === w.fingerprint)?.description;
    const serves = !w.fingerprint ? 'no grove registry (no GrovePlugin, or an older grove)' : description ? served(description.entries) : 'its registry is not in the message store';
    const seen = w.lastSeenMs !== undefined ? `  seen ${Math.max(0, Math.round((nowMs - w.lastSeenMs) / 1000))} s ago` : '';
    lines.push(`  ${w.worker.padEnd(width)}  ${w.fingerprint ? `registry ${w.fingerprint}  ` : ''}${serves}${seen}`);
  }
  for (const difference of report.differences) lines.push(`  ${difference}`);
  return lines;
}

function served(entries: RegistryEntry[]): string {
  const names = (kind: RegistryEntry['kind']) => entries.filter((e) => e.kind === kind).map((e) => e.name).join(', ') || 'none';
  return `tools ${names('tool')} · evaluators ${names('evaluator')}`;
}
