import { createHash } from 'node:crypto';
import type { RunSnapshot, StoreReader } from '../adapters';
import type { NodeParts, RunSummary, RunView } from '../model/view-tree';

/** What an exported page carries: the run's view and every node's parts. */
export interface ExportData {
  view: RunView;
  parts: Record<number, NodeParts>;
  exportedAt: string;
}

/**
 * A view with its `rev`: a hash of everything in it, so a page skips redrawing the same view —
 * but a running run's health enters without its read time and the line written at that time
 * (the page writes its own, counting down to the next attempt), so a run retrying the same way
 * keeps its rev.
 */
export function withRev(view: Omit<RunView, 'rev'>): RunView {
  const health = view.run.health && { ...view.run.health, checkedAt: undefined, line: undefined };
  const shown = health ? { ...view, run: { ...view.run, health } } : view;
  return { ...view, rev: createHash('sha1').update(JSON.stringify(shown)).digest('hex').slice(0, 16) };
}

/**
 * A run's page data from an adapter's snapshot of it.
 *
 * @example
 * const view = snapshotView(summary, false, await agentAdapter.snapshot(reader));
 */
export function snapshotView(run: RunSummary, live: boolean, snapshot: RunSnapshot, first: [string, string][] = []): RunView {
  return withRev({ run, live, tree: snapshot.tree, facts: [...first, ...snapshot.facts], note: snapshot.note });
}

/**
 * A view and the parts of every node (read 500 at a time), for a page that works without the
 * server: what `grove ui export` writes.
 *
 * @example
 * const html = exportedPage(await exportData(view, snapshot, store), pageScript());
 */
export async function exportData(view: RunView, snapshot: RunSnapshot | undefined, store: StoreReader, now = new Date()): Promise<ExportData> {
  const parts: Record<number, NodeParts> = {};
  if (view.tree && snapshot) {
    const ids = view.tree.nodes.map((n) => n.id);
    for (let i = 0; i < ids.length; i += 500) {
      for (const [id, p] of await snapshot.parts(ids.slice(i, i + 500), store)) parts[id] = p;
    }
  }
  return { view, parts, exportedAt: now.toISOString() };
}
