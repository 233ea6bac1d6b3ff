import type { RunHealth } from '../../temporal/runs/run-health';
import type { Message } from '../../core/schemas/messages';

/**
 * The viewer's one tree shape. Every run kind (search agents, airetry sample trees, and any
 * kind added later) is turned into it by an adapter on the server (`ui/adapters/`), so the page
 * draws, highlights and explains every kind with the same code. Shared by the server and the
 * page: types and pure functions only.
 */

/**
 * What a node is, in the search's own terms:
 * - `root` the prompt;
 * - `expanded` an inner node (it has children);
 * - `open` a leaf the search may still expand (while the run works);
 * - `solution` it meets the run's goal (a solved trajectory, a sample that passed every check);
 * - `terminal` a finished leaf that is not a solution (an answer below the threshold, max depth);
 * - `pruned` a leaf the search left unexpanded when it ended (cut by the algorithm or the budget);
 * - `failed` a step that went wrong (a sample that failed a check, a tool call that erred);
 * - `abandoned` a branch given up on (a rewound conversation).
 */
export type NodeStatus = 'root' | 'expanded' | 'open' | 'solution' | 'terminal' | 'pruned' | 'failed' | 'abandoned';

export const NODE_STATUSES: readonly NodeStatus[] = ['root', 'expanded', 'open', 'solution', 'terminal', 'pruned', 'failed', 'abandoned'];

export interface ViewNode {
  id: number;
  /** null for the root; parents come before their children in `ViewTree.nodes`. */
  parent: number | null;
  /** One short line: a tool call, the start of an answer. */
  label: string;
  status: NodeStatus;
  /** The node's own evaluation in [0, 1], when it has one. */
  score?: number;
  /** Mean reward (agents) or pass rate (airetry) over `visits`, when visited. */
  value?: number;
  visits: number;
}

export interface ViewTree {
  nodes: ViewNode[];
  /** Root to the best node (the best trajectory, the active sample). */
  bestPath: number[];
}

/** `[label, value]` pairs shown as a small table. */
export type Facts = [string, string][];

/** One run in the list, from Temporal visibility (search attributes) and its description. */
export interface RunSummary {
  workflowId: string;
  /** GroveKind: `agent:mcts`, `airetry`, `generate`, ... */
  kind: string;
  /** GroveStatus as the run reports it (`running`, `succeeded`, ...), else Temporal's status. */
  status: string;
  /** Temporal's execution status: RUNNING, COMPLETED, FAILED, ... */
  execution: string;
  calls?: number;
  tokens?: number;
  /** A running run waiting for a person: who must do what (`grove approve <id>`). */
  waiting?: string;
  bestScore?: number;
  /** ISO times. */
  startTime: string;
  closeTime?: string;
  /** The run's page in the Temporal Web UI, when its address is known. */
  temporalUrl?: string;
  /** A running run's health: what it waits on, and whether it is retrying or stalled. */
  health?: RunHealth;
}

/** A run page's data: its tree in the viewer's shape and what to say about the run. */
export interface RunView {
  run: RunSummary;
  tree?: ViewTree;
  /** Run-level facts: algorithm, prompt, checks, stop reason, counters. */
  facts: Facts;
  /** Why something is missing (no tree for this kind, a worker is needed, ...). */
  note?: string;
  /** True while the run works: the page polls again. */
  live: boolean;
  /** Changes whenever anything above changes (the page skips redrawing the same view). */
  rev: string;
}

/** A conversation step: keep the parent's first `keep` messages (all when omitted), add these. */
export interface MessageDelta {
  keep?: number;
  add: Message[];
}

/**
 * What one node contributes to its details: its facts, texts and the messages it added. A
 * node's conversation is its ancestors' deltas applied from the root down (see `nodeDetail`).
 */
export interface NodeParts {
  facts: Facts;
  feedback?: string;
  reasoning?: string;
  /** Undefined when the messages are not available (then `note` says why). */
  delta?: MessageDelta;
  note?: string;
}

/** What the page shows for a clicked node. */
export interface NodeDetail {
  id: number;
  facts: Facts;
  feedback?: string;
  reasoning?: string;
  conversation: Message[];
  /** Index of the first message this node added (messages before it are its ancestors'). */
  own: number;
  note?: string;
}

/**
 * A node's details from the parts of the path root..node: its conversation is the deltas
 * applied in order. A path whose messages are missing somewhere gets an empty conversation and
 * the note of the node that lacks them.
 *
 * @example
 * nodeDetail([rootParts, childParts], 4); // { id: 4, conversation: [...prompt, ...child's], own: prompt.length, ... }
 */
export function nodeDetail(path: NodeParts[], id: number): NodeDetail {
  const own = path[path.length - 1];
  const conversation: Message[] = [];
  let start = 0;
  for (const parts of path) {
    if (!parts.delta) {
      return { id, facts: own.facts, feedback: own.feedback, reasoning: own.reasoning, conversation: [], own: 0, note: parts.note ?? 'messages not available' };
    }
    conversation.length = Math.min(conversation.length, parts.delta.keep ?? conversation.length);
    start = conversation.length;
    conversation.push(...parts.delta.add);
  }
  return { id, facts: own.facts, feedback: own.feedback, reasoning: own.reasoning, conversation, own: start, note: own.note };
}

/**
 * Ids from the root to `id` (inclusive), by parent links.
 *
 * @example
 * pathTo(new Map([[0, null], [1, 0], [4, 1]]), 4); // [0, 1, 4]
 */
export function pathTo(parents: ReadonlyMap<number, number | null>, id: number): number[] {
  const path: number[] = [];
  for (let at: number | null | undefined = id; at !== null && at !== undefined; at = parents.get(at)) {
    path.push(at);
    if (path.length > parents.size) break; // a cycle: malformed input
  }
  return path.reverse();
}
