import { openStore, storeSettingsFromEnv } from '../../../activities/store/open-store';
import { GroveClient } from '../../grove-client';
import { collectGarbage } from '../../store-retention';
import { parseCommandArgs, UsageError } from '../usage-error';
import { formatBytes } from '../../../core/payload-limits';

/**
 * `grove store stats|gc`.
 *
 * @example
 * await storeCommand(['gc', '--retention', '7d', '--dry-run'], { out: console.log });
 */
export async function storeCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'stats' && sub !== 'gc') throw new UsageError(`store: expected "stats" or "gc", got ${sub === undefined ? 'nothing' : `"${sub}"`}`);
  const { values } = parseCommandArgs(`store ${sub}`, rest, sub === 'gc' ? { retention: { type: 'string' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } } : { json: { type: 'boolean' } });
  const store = openStore(storeSettingsFromEnv());
  try {
    await store.check();
    if (sub === 'stats') {
      const stats = await store.stats();
      if (values.json) return io.out(JSON.stringify({ store: store.describe(), ...stats }));
      io.out(`store ${store.describe()}`);
      io.out(`  entries  ${stats.entries} (${formatBytes(stats.entryBytes)})`);
      io.out(`  calls    ${stats.calls} recorded results (${formatBytes(stats.callBytes)})`);
      io.out(`  owners   ${stats.owners} workflow ids`);
      io.out(`  oldest   ${stats.oldestMs === undefined ? '—' : new Date(stats.oldestMs).toISOString()}`);
      return;
    }
    const retentionMs = parseDuration(values.retention as string | undefined);
    const grove = await GroveClient.connect();
    try {
      const report = await collectGarbage(store, grove.temporal, { retentionMs, dryRun: values['dry-run'] as boolean | undefined });
      if (values.json) return io.out(JSON.stringify(report));
      const verb = values['dry-run'] ? 'would delete' : 'deleted';
      io.out(
        `${verb} ${report.entriesDeleted} entries and ${report.callsDeleted} recorded calls (${formatBytes(report.bytesFreed)}) of ${report.deadOwners} of ${report.owners} workflows closed more than ${formatDuration(report.retentionMs)} ago`,
      );
    } finally {
      await grove.close();
    }
  } finally {
    await store.close();
  }
}

/** `90s`, `30m`, `12h`, `7d` → ms; a bare number is days. */
export function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new UsageError(`store gc: --retention must be a duration such as 7d, 12h or 30m, got "${text}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? 'd') as 'd'];
  return Number(match[1]) * unit;
}

function formatDuration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  return `${Math.round(ms / 1000)} s`;
}
