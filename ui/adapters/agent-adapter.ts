import type { AgentNode } from '../../core/agents/agent-node';
import { AgentInputSchema } from '../../core/agents/agent-options';
import type { AgentProgress, AgentResult } from '../../core/agents/agent-result';
import { bestNode } from '../../core/agents/best-node';
import type { PathRecord } from '../../core/hash/refs';
import { messageRef } from '../../core/hash/refs';
import { messageText, type Message } from '../../core/schemas/messages';
import { SampleTree } from '../../core/tree/sample-tree';
import type { TreeNode } from '../../core/tree/tree-node';
import type { NodeParts, NodeStatus, ViewNode } from '../model/view-tree';
import { facts, fixed, oneLine, type RunAdapter, type RunReader, type RunSnapshot, type StoreReader } from './run-adapter';

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
 * refs, never messages); its status follows Saplings' termination rules with the run's
 * threshold and maximum depth.
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
    const nodes: ViewNode[] = tree.preorder().sort((a, b) => a.id - b.id).map((node) => ({
      id: node.id,
      parent: node.parent,
      label: node.parent === null ? 'prompt' : (node.data.preview ?? `n${node.id}`),
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
        ['prompt', rules.prompt && oneLine(rules.prompt, 200)],
        ['nodes', tree.size],
        ['model calls', counters?.llmCalls],
        ['tool runs', counters?.toolRuns],
        ['tool errors', counters?.toolErrors],
        ['threshold', rules.threshold],
        ['max depth', rules.maxDepth],
        ['answer', result?.answer && oneLine(result.answer, 200)],
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
  const prompt = new Map<string, Message>();
  for (const m of tree.root.data.prompt ?? []) prompt.set(messageRef(m), m);
  const out = new Map<number, NodeParts>();
  await Promise.all(
    ids.map(async (id) => {
      const node = tree.node(id);
      const d = node.data;
      const parts: NodeParts = {
        facts: facts([
          ['node', `n${id}`],
          ['status', status(node)],
          ['depth', node.depth],
          ['score', fixed(node.score)],
          ['visits', node.visits || undefined],
          ['value', node.visits > 0 ? fixed(node.valueSum / node.visits) : undefined],
          ['tool errors', d.toolErrors],
          ['output', d.output ? 'yes' : undefined],
          ['solved', d.solved ? 'yes' : undefined],
          ['step', d.preview],
        ]),
        feedback: node.feedback || undefined,
        reasoning: d.reasoning,
      };
      out.set(id, parts);
      if (d.ref === undefined) {
        parts.note = 'its messages were let go at a continue-as-new handover (a finished leaf off the best trajectory)';
        return;
      }
      const record = (d.pending ?? (await store.get(d.ref))) as PathRecord | undefined;
      if (!record) {
        parts.note = `the message store (${store.describe()}) has no trajectory ${d.ref} (yet)`;
        return;
      }
      const add: Message[] = [];
      for (const ref of record.add) {
        const message = prompt.get(ref) ?? ((await store.get(ref)) as Message | undefined);
        if (!message) {
          parts.note = `the message store (${store.describe()}) has no message ${ref} (yet)`;
          return;
        }
        add.push(message);
      }
      parts.delta = record.keep === undefined ? { add } : { keep: record.keep, add };
    }),
  );
  return out;
}
