import { ConversationDeltaSchema, type ConversationDelta } from '../../core/conversation/delta';
import { SampleTree } from '../../core/tree/sample-tree';
import type { TreeNode } from '../../core/tree/tree-node';
import type { CallProgress } from '../../workflows/api/expose-call';
import type { Facts, NodeParts, NodeStatus, ViewNode } from '../model/view-tree';
import { messageLabel, promptLabel } from './labels';
import { facts, fixed, type RunReader, type RunSnapshot } from './run-adapter';

/** What every run with a sample tree (airetry, the code fixer, a workflow's exposed call) returns. */
export interface SampleResult {
  tree?: unknown;
  activeSampleId?: number;
  success?: boolean;
  calls?: number;
  retries?: number;
}

/** A sample-tree run read at one moment: by query while it works, else from its result. */
export interface SampleRun<R extends SampleResult> {
  tree: SampleTree<ConversationDelta>;
  activeId: number;
  passed?: boolean;
  live: boolean;
  result?: R;
  progress?: CallProgress;
}

/**
 * Reads a sample-tree run: the finished run's result, else the `tree` and `progress` queries.
 *
 * @example
 * const run = await readSampleRun<AiretryResult>(reader);
 */
export async function readSampleRun<R extends SampleResult>(reader: RunReader): Promise<SampleRun<R>> {
  const result = reader.live ? undefined : ((await reader.result()) as R | undefined);
  let raw = result?.tree;
  let progress: CallProgress | undefined;
  if (!raw) [raw, progress] = (await Promise.all([reader.query('tree'), reader.query('progress')])) as [unknown, CallProgress];
  // Checked, so a workflow whose `tree` query is not a sample tree is named, not misdrawn.
  const tree = SampleTree.fromJSON<ConversationDelta>(raw, { data: ConversationDeltaSchema });
  const activeId = result?.activeSampleId ?? progress?.activeSampleId ?? tree.rootId;
  return { tree, activeId, passed: result?.success, live: reader.live, result, progress };
}

/** A sample's status: failed its check, the passing active sample, abandoned by a rewind, ... */
export function sampleStatus(run: SampleRun<SampleResult>, node: TreeNode<ConversationDelta>): NodeStatus {
  if (node.parent === null) return 'root';
  if (node.abandoned) return 'abandoned';
  if (node.success === false) return 'failed';
  if (node.id === run.activeId && run.passed === true && !run.live) return 'solution';
  if (node.children.length > 0) return 'expanded';
  return run.live ? 'open' : 'pruned';
}

/** How one kind of sample-tree run words its nodes and itself. */
export interface SampleWording {
  /** The task (the root's label). */
  prompt?: string;
  /** A sample's label; default: its answer's first words. */
  label?: (node: TreeNode<ConversationDelta>) => string;
  /** Facts about a sample beyond the common ones. */
  nodeFacts?: (node: TreeNode<ConversationDelta>) => [string, string | number | undefined][];
  facts: Facts;
}

/**
 * The viewer's snapshot of a sample-tree run: every sample (what rewinds abandoned too), the
 * path to the active sample as the best path, and each sample's conversation from the deltas
 * the tree holds (no message store needed).
 *
 * @example
 * return sampleSnapshot(run, { prompt, facts: facts([['samples', run.tree.size - 1]]) });
 */
export function sampleSnapshot(run: SampleRun<SampleResult>, wording: SampleWording): RunSnapshot {
  const { tree, activeId } = run;
  const label = wording.label ?? ((node) => messageLabel(node.data.add[node.data.add.length - 1]));
  const nodes: ViewNode[] = tree.all().map((node) => ({
    id: node.id,
    parent: node.parent,
    label: node.parent === null ? promptLabel(wording.prompt) : label(node),
    status: sampleStatus(run, node),
    value: node.visits > 0 ? node.wins / node.visits : undefined,
    visits: node.visits,
  }));
  return {
    tree: { nodes, bestPath: tree.pathFromRoot(tree.has(activeId) ? activeId : tree.rootId).map((n) => n.id) },
    facts: wording.facts,
    parts: async (ids) =>
      new Map(
        ids.map((id): [number, NodeParts] => {
          const node = tree.node(id);
          return [
            id,
            {
              facts: facts([
                ['sample', id],
                ['status', node.abandoned ? 'abandoned: a rewind pruned it (kept for audit; the retries no longer count it)' : sampleStatus(run, node)],
                ['depth', node.depth],
                ['passed / checked', node.visits > 0 ? `${node.wins}/${node.visits}` : undefined],
                ['pass rate', node.visits > 0 ? fixed(node.wins / node.visits) : undefined],
                ['active', id === activeId ? 'yes' : undefined],
                ...(wording.nodeFacts?.(node) ?? []),
              ]),
              feedback: node.feedback.trim() || undefined,
              delta: node.data,
            },
          ];
        }),
      ),
  };
}
