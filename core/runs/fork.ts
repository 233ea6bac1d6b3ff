import { z } from 'zod';
import { InvalidArgumentError } from '../errors';
import { SampleTreeJsonSchema, type NodeTuple, type SampleTreeJSON } from '../schemas/tree';
import { SampleTree, type FromJsonOptions } from '../tree/sample-tree';

/**
 * A fork: a run that starts from a node of another run's tree. It carries, in its own input,
 * the part of the parent's tree it continues from — the path from the root to the node (every
 * paid result on it: answers, tool results, scores and stats, by content address or inline) and
 * optionally the node's subtree — so it never pays for those again, and names its parent so
 * that the content the path refers to can be recovered from the parent's history when the
 * message store has lost it.
 *
 * It is a workflow input field (`fork`) of the ready-made `agent` and `airetry` workflows, and
 * the primitive for any workflow that wants "continue from there" (rewind is a fork at an
 * earlier node): build it with {@link forkOrigin}, start from it with {@link startFromFork}.
 */
export const ForkOriginSchema = z
  .strictObject({
    parent: z
      .strictObject({
        workflowId: z.string().min(1).describe('Workflow id of the run forked from.'),
        runId: z
          .string()
          .min(1)
          .optional()
          .describe("Run id of the parent's run whose tree was forked (its latest run); where content is recovered from."),
      })
      .describe('The run this one continues from.'),
    nodeId: z.number().int().nonnegative().describe("The node of the parent's tree this run continues from (its id is kept)."),
    tree: SampleTreeJsonSchema.describe(
      "The carried part of the parent's tree, ids kept: the path from the root to `nodeId`, and its subtree when the fork took it.",
    ),
  })
  .describe("Start from a node of another run's tree instead of from the prompt (`grove fork`).");

export type ForkOrigin<D = unknown> = Omit<z.infer<typeof ForkOriginSchema>, 'tree'> & { tree: SampleTreeJSON<D> };

export interface ForkOptions {
  /** Also carry the node's subtree (default false: only the path, so the fork explores afresh below the node). */
  subtree?: boolean;
  /** Keep the carried nodes' visit and value statistics (default true); scores are always kept. */
  keepStats?: boolean;
}

/**
 * The part of `tree` a fork from `nodeId` carries: the path from the root to the node, plus its
 * subtree with `subtree: true`; node ids and the next free id are kept, so "n7" means the same
 * node in the parent and in the fork.
 *
 * @example
 * const carried = forkTree(tree, 7);          // root … n7
 * const whole = forkTree(tree, 7, { subtree: true, keepStats: false });
 */
export function forkTree<D>(tree: SampleTree<D>, nodeId: number, opts: ForkOptions = {}): SampleTreeJSON<D> {
  if (!tree.has(nodeId)) throw new InvalidArgumentError(`n${nodeId} is not in the tree (it has ${tree.size} nodes, ids up to ${tree.nextId - 1})`);
  const keep = new Set(tree.pathToRoot(nodeId).map((n) => n.id));
  if (opts.subtree) for (const n of tree.preorder(nodeId)) keep.add(n.id);
  const json = tree.toJSON();
  const nodes = json.nodes
    .filter((tuple) => keep.has(tuple[0]))
    .map((tuple): NodeTuple<D> => {
      if (opts.keepStats !== false) return tuple;
      const [id, parent, data, success = true, , , , score = null, feedback = ''] = tuple;
      return [id, parent, data, success, 0, 0, 0, score, feedback];
    });
  return SampleTree.fromJSON<D>({ v: 1, next: json.next, nodes }).toJSON();
}

/**
 * A fork's origin: which run it continues, at which node, with what of its tree.
 *
 * @example
 * const fork = forkOrigin({ workflowId: 'agent-1', runId }, SampleTree.fromJSON(result.tree), 7);
 * await grove.start('agent', { ...input, fork });
 */
export function forkOrigin<D>(parent: { workflowId: string; runId?: string }, tree: SampleTree<D>, nodeId: number, opts: ForkOptions = {}): ForkOrigin<D> {
  return { parent: { ...parent }, nodeId, tree: forkTree(tree, nodeId, opts) };
}

/**
 * The tree a fork starts from and the node it continues at (checked to be in it).
 *
 * @example
 * const { tree, nodeId } = startFromFork<AgentNode>(options.fork);
 */
export function startFromFork<D>(
  origin: ForkOrigin<D> | z.infer<typeof ForkOriginSchema>,
  opts: FromJsonOptions<D> = {},
): { tree: SampleTree<D>; nodeId: number } {
  const tree = SampleTree.fromJSON<D>(origin.tree, opts);
  if (!tree.has(origin.nodeId)) throw new InvalidArgumentError(`fork.nodeId: n${origin.nodeId} is not in the carried tree`);
  return { tree, nodeId: origin.nodeId };
}

/**
 * The parent a run's input names when the run is a fork (`{ fork: { parent } }`), else undefined.
 * Duck-typed: history recovery reads it from any workflow's decoded input.
 *
 * @example
 * forkParent(input); // { workflowId: 'agent-1', runId: '...' }
 */
export function forkParent(input: unknown): { workflowId: string; runId?: string } | undefined {
  const parent = (input as { fork?: { parent?: { workflowId?: unknown; runId?: unknown } } } | null)?.fork?.parent;
  if (!parent || typeof parent.workflowId !== 'string') return undefined;
  return typeof parent.runId === 'string' ? { workflowId: parent.workflowId, runId: parent.runId } : { workflowId: parent.workflowId };
}
