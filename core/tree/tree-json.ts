import type { z } from 'zod';
import { InvalidTreeJsonError } from '../errors';
import { formatZodError } from '../schemas/errors';
import { type NodeTuple, SampleTreeJsonSchema } from '../schemas/tree';
import type { MutableTreeNode } from './tree-node';

export interface FromJsonOptions<D> {
  /** Validates (and may transform) each node's data; without it data is taken as is. */
  data?: z.ZodType<D>;
}

/**
 * The nodes of a `SampleTree.toJSON()` output, validated: ids strictly increasing, the root
 * first, every parent earlier, no live node under an abandoned one, `next` above every id.
 *
 * @throws InvalidTreeJsonError naming what is wrong.
 * @example
 * const { nodes, rootId, next } = nodesFromJSON(json, { data: ConversationDeltaSchema });
 */
export function nodesFromJSON<D>(json: unknown, opts: FromJsonOptions<D> = {}): { nodes: Map<number, MutableTreeNode<D>>; rootId: number; next: number } {
  const parsed = SampleTreeJsonSchema.safeParse(json);
  if (!parsed.success) throw new InvalidTreeJsonError(formatZodError(parsed.error, 'tree'), { cause: parsed.error });
  const { next, nodes: tuples } = parsed.data;
  const nodes = new Map<number, MutableTreeNode<D>>();
  let previousId = -1;
  for (let i = 0; i < tuples.length; i++) {
    const [id, parentId, rawData, success = true, wins = 0, visits = 0, valueSum = 0, score = null, feedback = '', abandoned = false] =
      tuples[i];
    const where = `tree.nodes[${i}]`;
    if (id <= previousId) throw new InvalidTreeJsonError(`${where}: ids must be strictly increasing (id ${id} after ${previousId})`);
    previousId = id;
    if (i === 0 && parentId !== null) throw new InvalidTreeJsonError(`${where}: the first node must be the root (parent null)`);
    if (i > 0 && parentId === null) throw new InvalidTreeJsonError(`${where}: only the first node may be a root (id ${id} has parent null)`);
    let depth = 0;
    if (parentId !== null) {
      const parent = nodes.get(parentId);
      if (!parent) throw new InvalidTreeJsonError(`${where}: parent ${parentId} of node ${id} is not an earlier node`);
      if (parent.abandoned && !abandoned) throw new InvalidTreeJsonError(`${where}: node ${id} is live under abandoned node ${parentId}`);
      // An abandoned branch keeps its own shape, but its root is not among its live parent's children.
      if (abandoned === parent.abandoned) parent.children.push(id);
      depth = parent.depth + 1;
    }
    let data = rawData as D;
    if (opts.data) {
      const checked = opts.data.safeParse(rawData);
      if (!checked.success) {
        throw new InvalidTreeJsonError(formatZodError(checked.error, `${where}.data`), { cause: checked.error });
      }
      data = checked.data;
    }
    const node = makeNode(id, parentId, depth, data);
    node.wins = wins;
    node.visits = visits;
    node.valueSum = valueSum;
    node.feedback = feedback;
    node.success = success ?? undefined;
    node.score = score ?? undefined;
    node.abandoned = abandoned;
    nodes.set(id, node);
  }
  if (next <= previousId) throw new InvalidTreeJsonError(`tree.next: must be greater than every id (${next} <= ${previousId})`);
  return { nodes, rootId: tuples[0][0], next };
}

/** Every node has the same keys in the same order (stable shapes, exact deep equality). */
export function makeNode<D>(id: number, parent: number | null, depth: number, data: D): MutableTreeNode<D> {
  return {
    id,
    parent,
    children: [],
    depth,
    wins: 0,
    visits: 0,
    valueSum: 0,
    score: undefined,
    data,
    feedback: '',
    success: undefined,
    abandoned: false,
  };
}

/** Tuple defaults after `data` (see `SampleTreeJSON`), trimmed from the end. */
const TUPLE_DEFAULTS: unknown[] = [true, 0, 0, 0, null, '', false];

export function toTuple<D>(n: MutableTreeNode<D>): NodeTuple<D> {
  const tuple: NodeTuple<D> = [
    n.id,
    n.parent,
    n.data,
    n.success ?? null,
    n.wins,
    n.visits,
    n.valueSum,
    n.score ?? null,
    n.feedback,
    n.abandoned,
  ];
  let length = tuple.length;
  while (length > 3 && tuple[length - 1] === TUPLE_DEFAULTS[length - 4]) length--;
  tuple.length = length;
  return tuple;
}
