import type { AgentNode } from '../../core/agents/agent-node';
import { AgentInputSchema } from '../../core/agents/agent-options';
import type { AgentProgress, AgentResult } from '../../core/agents/agent-result';
import { bestNode } from '../../core/agents/best-node';
import { messageText } from '../../core/schemas/messages';
import { SampleTree } from '../../core/tree/sample-tree';
import type { TreeNode } from '../../core/tree/tree-node';
import type { NodeParts, NodeStatus, ViewNode } from '../model/view-tree';
import { FULL_LABEL_NODES, knownMessages, readStep, stepLabels } from './agent-steps';
import { promptLabel, stepLabel } from './labels';
import { facts, fixed, type RunAdapter, type RunReader, type RunSnapshot, type StoreReader } from './run-adapter';
import { shorten } from '../../core/conversation/preview';

/** What the statuses need from the run's options (the defaults when the input cannot be read). */
interface AgentRules {
  algorithm?: string;
  prompt?: string;
  threshold: number;
  maxDepth: number;
  toolChoice: 'auto' | 'required';
}

/**
 * Search agents (`agent:<algorithm>`): the search tree from the `tree` query (live) or the
 * result. A node's messages are in the message store under its trajectory ref (the tree keeps
 * refs, never messages), and so are its label's words (see `stepLabels`); its status follows Saplings' termination rules with the run's
 * threshold and maximum depth. Branches a rewind abandoned are drawn too, as `abandoned`.
 */
export const agentAdapter: RunAdapter = {
  matches: (kind) => kind === 'agent' || kind.startsWith('agent:'),

  async snapshot(reader: RunReader): Promise<RunSnapshot> {
    const rules = agentRules(reader.input);
    let result: AgentResult | undefined;
    let progress: AgentProgress | undefined;
    let raw: unknown;
    let note: string | undefined;
    if (!reader.live) result = (await reader.result()) as AgentResult | undefined;
    if (result?.tree) raw = result.tree;
    else {
      if (result) note = `the result leaves out trees over 2,000 nodes (input resultTree: 'full' keeps them); the tree is read by query`;
      [raw, progress] = await Promise.all([reader.query('tree'), reader.live ? (reader.query('progress') as Promise<AgentProgress>) : undefined]);
    }
    const tree = SampleTree.fromJSON<AgentNode>(raw);
    const bestId = result && tree.has(result.bestNodeId) ? result.bestNodeId : bestNode(tree).id;
    const status = (node: TreeNode<AgentNode>) => agentStatus(node, rules, reader.live, result?.isSolution === true && node.id === result.bestNodeId);
    // Every node, abandoned branches included: a rewind keeps what it pruned in the tree.
    const all = tree.all();
    const abandoned = all.filter((n) => n.abandoned).length;
    const full = reader.store && tree.size <= FULL_LABEL_NODES ? await stepLabels(tree, reader.store) : new Map<number, string>();
    const nodes: ViewNode[] = all.map((node) => ({
      id: node.id,
      parent: node.parent,
      label: node.parent === null ? promptLabel(rules.prompt) : (full.get(node.id) ?? (node.data.preview === undefined ? '' : stepLabel(node.data.preview))),
      status: status(node),
      score: node.score,
      value: node.visits > 0 ? node.valueSum / node.visits : undefined,
      visits: node.visits,
    }));
    const counters = result?.counters ?? progress?.counters;
    return {
      tree: { nodes, bestPath: tree.pathFromRoot(bestId).map((n) => n.id) },
      note,
      facts: facts([
        ['algorithm', rules.algorithm],
        ['prompt', rules.prompt && shorten(rules.prompt, 200)],
        ['nodes', tree.size],
        ['abandoned by rewinds', abandoned ? `${abandoned} node${abandoned === 1 ? '' : 's'} (${tree.abandonedRoots().map((id) => `n${id}`).join(', ')} and below)` : undefined],
        ['model calls', counters?.llmCalls],
        ['tool runs', counters?.toolRuns],
        ['tool errors', counters?.toolErrors],
        ['threshold', rules.threshold],
        ['max depth', rules.maxDepth],
        ['answer', result?.answer && shorten(result.answer, 200)],
        ['solution', result ? (result.isSolution ? `yes (n${result.bestNodeId}, score ${fixed(result.score)})` : `no (best n${result.bestNodeId}, score ${fixed(result.score)})`) : undefined],
        ['stop', (result?.stop ?? progress?.stop)?.message],
        ...(result?.reflections ?? progress?.reflections ?? []).map((r, i): [string, string] => [`reflection ${i + 1}`, r]),
      ]),
      parts: (ids, store) => agentParts(tree, ids, store, status),
    };
  },
};

function agentRules(input: unknown): AgentRules {
  const parsed = AgentInputSchema.safeParse(input);
  if (!parsed.success) return { threshold: 1, maxDepth: 5, toolChoice: 'auto' };
  const o = parsed.data;
  const prompt = o.prompt ?? (o.messages ? messageText(o.messages[o.messages.length - 1]) : undefined);
  return { algorithm: o.algorithm, prompt, threshold: o.threshold, maxDepth: o.maxDepth, toolChoice: o.toolChoice };
}

/**
 * A node's status. A solution scores at least the threshold and is an output node (an answer or
 * a terminal tool call) — or, with `toolChoice: 'required'`, any node — as the agents' rules say;
 * MCTS marks solved trajectories itself, and a finished run names its solution.
 */
export function agentStatus(node: TreeNode<AgentNode>, rules: AgentRules, live: boolean, namedSolution = false): NodeStatus {
  if (node.parent === null) return 'root';
  if (node.abandoned) return 'abandoned';
  const d = node.data;
  const scored = node.score !== undefined && node.score >= rules.threshold;
  if (namedSolution || (d.solved && node.children.length === 0) || (scored && (d.output || rules.toolChoice === 'required'))) return 'solution';
  if (d.toolErrors) return 'failed';
  if (node.children.length > 0) return 'expanded';
  if (d.output || node.depth >= rules.maxDepth) return 'terminal';
  return live ? 'open' : 'pruned';
}

async function agentParts(
  tree: SampleTree<AgentNode>,
  ids: number[],
  store: StoreReader,
  status: (node: TreeNode<AgentNode>) => NodeStatus,
): Promise<Map<number, NodeParts>> {
  const known = knownMessages(tree);
  const out = new Map<number, NodeParts>();
  await Promise.all(
    ids.map(async (id) => {
      const node = tree.node(id);
      const d = node.data;
      const parts: NodeParts = {
        facts: facts([
          ['node', `n${id}`],
          ['status', node.abandoned ? 'abandoned: a rewind pruned its branch (kept for audit; the search no longer counts it)' : status(node)],
          ['depth', node.depth],
          ['score', fixed(node.score)],
          ['visits', node.visits || undefined],
          ['value', node.visits > 0 ? fixed(node.valueSum / node.visits) : undefined],
          ['tool errors', d.toolErrors],
          ['output', d.output ? 'yes' : undefined],
          // MCTS marks every step of a solved trajectory; only its last step is the solution (its status says so).
          ['on a solved trajectory', d.solved ? 'yes' : undefined],
        ]),
        feedback: node.feedback || undefined,
        reasoning: d.reasoning,
        ...(await readStep(node, store, known)),
      };
      out.set(id, parts);
    }),
  );
  return out;
}
