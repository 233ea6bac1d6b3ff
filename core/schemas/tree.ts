import { z } from 'zod';

/**
 * The serialised sample tree: compact enough to live in workflow state and pass through
 * continue-as-new at 10,000+ nodes.
 *
 * Each node is a tuple `[id, parent, data, success, wins, visits, valueSum, score, feedback, abandoned]`
 * with trailing defaults dropped (`true, 0, 0, 0, null, '', false`), so a fresh sample is just
 * `[id, parent, data]`; `success` and `score` use `null` for "not set" (the root's `success`
 * is `null`, being unjudged). Fields are ordered by how often they differ from the default.
 * Nodes are listed in increasing id order, root first. `children` and `depth`
 * are not stored: children are rebuilt from `parent`, and because a child always gets a larger
 * id than every existing node, increasing-id order is exactly the original child order.
 * `abandoned` marks a branch a rewind pruned: its nodes stay for audit, but the branch's root is
 * not among its parent's children (nothing selects or expands it, and its statistics were taken
 * back from its ancestors).
 * `next` is the next id to hand out, kept so ids are never reused even if nodes were dropped.
 */
export const NodeTupleSchema = z.tuple([
  z.number().int().nonnegative(), // id
  z.number().int().nonnegative().nullable(), // parent
  z.unknown(), // data
  z.boolean().nullable().optional(), // success
  z.number().nonnegative().optional(), // wins
  z.number().nonnegative().optional(), // visits
  z.number().optional(), // valueSum
  z.number().min(0).max(1).nullable().optional(), // score
  z.string().optional(), // feedback
  z.boolean().optional(), // abandoned
]);

export const SampleTreeJsonSchema = z
  .object({
    v: z.literal(1).describe('Format version.'),
    next: z.number().int().positive().describe('The next node id to hand out.'),
    nodes: z
      .array(NodeTupleSchema)
      .min(1)
      .describe('Nodes in increasing id order, root first: [id, parent, data, success, wins, visits, valueSum, score, feedback], trailing defaults dropped.'),
  })
  .strict();

/** One node tuple; `D` is the node data type. */
export type NodeTuple<D = unknown> = [
  id: number,
  parent: number | null,
  data: D,
  success?: boolean | null,
  wins?: number,
  visits?: number,
  valueSum?: number,
  score?: number | null,
  feedback?: string,
  abandoned?: boolean,
];

export interface SampleTreeJSON<D = unknown> {
  v: 1;
  next: number;
  nodes: NodeTuple<D>[];
}
