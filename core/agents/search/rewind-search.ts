import { InvalidArgumentError } from '../../errors';
import { messageRef, pathRef, type PathRecord } from '../../hash/refs';
import { assistantMessage } from '../../schemas/messages';
import { rewindTree } from '../../steering/rewind-tree';
import type { AgentNode } from '../agent-node';
import { refOf } from '../path-book';
import { isTerminal, type TerminationRules } from '../predicates';
import type { SearchState } from '../search-state';
import { previewOf } from './search-prompts';

/** A person's rewind: re-expand `nodeId`, replacing its step with `content` or adding `feedback` for its later expansions. */
export interface RewindRequest {
  nodeId: number;
  content?: string;
  feedback?: string;
}

export interface RewindResult {
  resumeFrom: number;
  abandoned: number[];
  replacementId?: number;
}

/** What a rewind asks of the search it steers: the algorithm-specific parts, passed in. */
export interface RewindSteps {
  /** Evaluates a replacement step (only when the algorithm evaluates its children). */
  evaluate?: (nodeId: number) => Promise<void>;
  isSolution: (nodeId: number) => boolean;
  /** Ends the search on a replacement that is a solution. */
  solved: (nodeId: number) => void;
  /** The algorithm goes on from the rewound node (see `SearchAlgorithm.resume`). */
  resume: (nodeId: number) => void;
}

/**
 * Why a person's rewind of a node cannot apply, if it cannot: an unknown or abandoned node, a
 * replaced prompt, or a finished node to re-expand (nothing grows from it).
 *
 * @example
 * rewindProblem(state, rules, { nodeId: 99 }); // 'there is no node n99 (the tree has n0 to n12)'
 */
export function rewindProblem({ tree }: SearchState, rules: TerminationRules, request: { nodeId: number; content?: string }): string | undefined {
  const node = tree.findNode(request.nodeId);
  if (!node) return `there is no node n${request.nodeId} (the tree has n0 to n${tree.nextId - 1})`;
  if (node.abandoned) return `n${node.id} is on an abandoned branch: choose a node of the live tree (grove tree)`;
  if (request.content !== undefined) {
    return node.parent === null ? 'n0 is the prompt: only steps can be replaced (rewind it without content to search again from the prompt)' : undefined;
  }
  if (isTerminal(node, rules)) {
    return `n${node.id} is finished (${node.data.output ? 'an answer' : 'at the maximum depth'}), so nothing expands from it: rewind its parent n${node.parent} to get new steps there, or replace it with content`;
  }
  return undefined;
}

/**
 * A person's rewind (see `rewindTree`): prune what grew from the node and re-expand it next —
 * with `content`, the node's step is replaced by that answer first (evaluated like any step;
 * a solution ends the search); with `feedback`, the node's later expansions see it.
 *
 * @throws InvalidArgumentError naming why it cannot apply (see {@link rewindProblem}).
 * @example
 * await rewindSearch(state, rules, { nodeId: 1, feedback: 'Multiply exactly the numbers given.' }, steps);
 */
export async function rewindSearch(state: SearchState, rules: TerminationRules, request: RewindRequest, steps: RewindSteps): Promise<RewindResult> {
  const problem = rewindProblem(state, rules, request);
  if (problem) throw new InvalidArgumentError(problem);
  const tree = state.tree;
  let replacement: AgentNode | undefined;
  if (request.content !== undefined) {
    const message = assistantMessage(request.content);
    const record: PathRecord = { parent: refOf(tree, tree.node(request.nodeId).parent!), add: [messageRef(message)] };
    replacement = { ref: pathRef(record), pending: record, inline: [message], preview: previewOf(message), output: true };
  }
  const { resumeFrom, abandoned, replacementId } = rewindTree(tree, { nodeId: request.nodeId, replacement, feedback: request.feedback });
  if (replacementId !== undefined && steps.evaluate) await steps.evaluate(replacementId);
  if (replacementId !== undefined && steps.isSolution(replacementId)) steps.solved(replacementId);
  else steps.resume(resumeFrom);
  return { resumeFrom, abandoned, ...(replacementId !== undefined ? { replacementId } : {}) };
}
