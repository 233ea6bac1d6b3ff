import { figuresOfAttributes } from '../../../core/runs/run-figures';
import { canonicalKind, RUN_KIND_NAMES } from '../../../core/runs/run-kind-names';
import { ALGORITHM_IMPLEMENTATIONS } from '../../../core/agents/algorithms';
import { RUN_STATUSES, type RunStatus } from '../../../core/schemas/run-status';
import { GroveClient } from '../../grove-client';
import { formatTrouble } from '../../../temporal/runs/run-health';
import type { RunState } from '../../runs/run-state';
import { numberOption, parseCommandArgs, UsageError } from '../usage-error';

/** `grove list` */
export async function listCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('list', args, {
    status: { type: 'string' },
    kind: { type: 'string' },
    limit: { type: 'string' },
    query: { type: 'string' },
    json: { type: 'boolean' },
  });
  const status = values.status as RunStatus | undefined;
  if (status !== undefined && !RUN_STATUSES.includes(status)) throw new UsageError(`list: --status must be one of ${RUN_STATUSES.join(', ')}, got "${status}"`);
  // An unknown kind is a mistake, not a filter that matches nothing.
  const kind = values.kind;
  if (kind !== undefined && !isKnownKind(kind)) throw new UsageError(`list: --kind must be one of ${RUN_KIND_NAMES.join(', ')} (or agent:<algorithm>, e.g. agent:mcts), got "${kind}"`);
  const limit = numberOption('list', 'limit', values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`list: --limit must be an integer >= 1, got "${values.limit}"`);
  const grove = await GroveClient.connect();
  try {
    const runs = await grove.list({ status, kind: values.kind, limit, query: values.query });
    if (values.json) {
      // Each run with its figures under the names every surface uses (docs/runs.md, "The figures").
      io.out(JSON.stringify(runs.map((r) => ({ ...r, ...figuresOfAttributes(r) }))));
      return;
    }
    if (runs.length === 0) {
      io.out('no runs match');
      return;
    }
    for (const line of formatRunTable(runs, Date.now())) io.out(line);
  } finally {
    await grove.close();
  }
}

/** A kind grove runs: one of its names (or a former one), or `agent:<algorithm>`. */
function isKnownKind(kind: string): boolean {
  const [base, algorithm] = canonicalKind(kind).split(':');
  if (!(RUN_KIND_NAMES as readonly string[]).includes(base)) return false;
  return algorithm === undefined || (base === 'agent' && algorithm in ALGORITHM_IMPLEMENTATIONS);
}

/**
 * Runs as an aligned table, with a footnote when a status comes from Temporal rather than the run.
 * A running run in trouble shows `retrying` or `stalled` as its status, and what it is stuck on
 * in a last column (TROUBLE) that appears when any run has trouble.
 *
 * @example
 * formatRunTable(runs, Date.now()); // ['WORKFLOW ID  KIND  STATUS  CALLS  BEST  AGE', ...]
 */
export function formatRunTable(runs: RunState[], nowMs: number): string[] {
  const troubled = runs.some((r) => (r.health && r.health.state !== 'ok') || r.waiting);
  const rows = [
    ['WORKFLOW ID', 'KIND', 'STATUS', 'CALLS', 'BEST', 'AGE', ...(troubled ? ['TROUBLE'] : [])],
    ...runs.map((r) => [
      r.workflowId,
      r.kind,
      // A running run in trouble is marked by it (retrying, stalled); TROUBLE says what.
      `${r.status === 'running' && r.health && r.health.state !== 'ok' ? r.health.state : r.status === 'running' && r.waiting ? 'waiting' : r.status}${r.derived && r.status !== 'running' ? '*' : ''}`,
      r.calls === undefined ? '-' : String(r.calls),
      r.bestScore === undefined ? '-' : r.bestScore.toFixed(2),
      age(nowMs - r.startTime.getTime()),
      ...(troubled ? [(r.health ? formatTrouble(r.health, nowMs) : '') || (r.waiting ?? '')] : []),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const lines = rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
  if (runs.some((r) => r.derived && r.status !== 'running')) lines.push('* from Temporal\'s execution status (the run could not record it itself)');
  return lines;
}

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
